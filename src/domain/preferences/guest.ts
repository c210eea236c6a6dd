import { touchContact } from '../contacts/contacts.js';
import { transaction, type Ctx, type GuestCaller } from '../context.js';
import { changePreferences, type PreferencesChange } from './change.js';
import { unlessErased } from './erased.js';
import { preferencesOf, type Preferences } from './read.js';

// GET and PUT /guest/v1/preferences: the signed-in person's own preferences.

/** The person's preferences; someone not known yet has every default (reading makes no one). */
export async function getGuestPreferences(ctx: Ctx<GuestCaller>): Promise<Preferences> {
  const { appModeId, externalId } = ctx.caller;
  const contact = await ctx.db.contact.findUnique({ where: { appModeId_externalId: { appModeId, externalId } }, select: { id: true } });
  return preferencesOf(ctx, appModeId, contact?.id ?? null);
}

/** The person changes their preferences in the app; answers them as they now are. */
export function putGuestPreferences(ctx: Ctx<GuestCaller>, change: PreferencesChange): Promise<Preferences> {
  const { appModeId, externalId, sdk } = ctx.caller;
  return unlessErased(
    () =>
      transaction(ctx, async (tx) => {
        const { contact } = await touchContact(tx, externalId, { sdk });
        await changePreferences(tx, contact, change, 'guest');
        return preferencesOf(tx, appModeId, contact.id);
      }),
    () => preferencesOf(ctx, appModeId, null),
  );
}
