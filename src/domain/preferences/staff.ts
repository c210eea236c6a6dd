import { transaction, type Ctx, type StaffCaller } from '../context.js';
import { invalidField, notFound } from '../errors.js';
import { changePreferences, type PreferencesChange } from './change.js';
import { preferencesOf, type Preferences } from './read.js';

// A team member changes a person's preferences for them (they asked by email or on the phone):
// kept like the person's own changes, with `staff` as the source and the team member's note of
// what the person asked as the wording.

export async function changeContactPreferences(
  ctx: Ctx<StaffCaller>,
  appModeId: string,
  externalId: string,
  change: PreferencesChange,
): Promise<Preferences> {
  if (!change.wording?.trim()) throw invalidField('wording', 'must say what the person asked for: it is kept with the change as its proof');
  return transaction(ctx, async (tx) => {
    const contact = await tx.db.contact.findUnique({ where: { appModeId_externalId: { appModeId, externalId } } });
    if (!contact) throw notFound('No such contact.');
    await changePreferences(tx, contact, change, 'staff');
    return preferencesOf(tx, appModeId, contact.id);
  });
}
