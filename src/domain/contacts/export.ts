import type { AppCaller, Ctx } from '../context.js';
import { notFound } from '../errors.js';
import { exportPerson } from '../personal-data/areas.js';
import { beingErased } from './erasure.js';

// GET /server/v1/contacts/{external_id}/export: everything kept about a person in this mode, from
// every area of the personal-data registry. Members of areas not built yet are present and empty.

export async function exportContact(ctx: Ctx<AppCaller>, externalId: string) {
  // Being erased: as gone already.
  if (await beingErased(ctx, ctx.caller.appModeId, externalId)) throw notFound('Nothing is kept about this person.');
  const kept = await exportPerson(ctx, externalId);
  if (!kept) throw notFound('Nothing is kept about this person.');
  return kept;
}
