import type { AppCaller, Ctx } from '../context.js';
import { notFound } from '../errors.js';
import { exportPerson } from '../personal-data/areas.js';
import type { ExportContact } from '../personal-data/registry.js';
import { beingErased } from './erasure.js';

// GET /server/v1/contacts/{external_id}/export: everything kept about a person in this mode, from
// every area of the personal-data registry. Members of areas not built yet are present and empty.
// The staff console's download (export-address.ts) answers the same body for a contact named by its id.

const NOTHING_KEPT = 'Nothing is kept about this person.';

export async function exportContact(ctx: Ctx<AppCaller>, externalId: string) {
  // Being erased: as gone already.
  if (await beingErased(ctx, ctx.caller.appModeId, externalId)) throw notFound(NOTHING_KEPT);
  const kept = await exportPerson(ctx, ctx.caller.appModeId, externalId);
  if (!kept) throw notFound(NOTHING_KEPT);
  return kept;
}

/** The same export, of the contact with this id in this app-mode (their customer's id with it); not found when gone or being erased. */
export async function exportContactById(
  ctx: Ctx,
  appModeId: string,
  contactId: string,
): Promise<{ externalId: string; kept: ExportContact }> {
  const contact = await ctx.db.contact.findFirst({
    where: { id: contactId, appModeId, eraseRequestedAt: null },
    select: { externalId: true },
  });
  if (!contact) throw notFound(NOTHING_KEPT);
  const kept = await exportPerson(ctx, appModeId, contact.externalId);
  if (!kept) throw notFound(NOTHING_KEPT);
  return { externalId: contact.externalId, kept };
}
