import type { OutboxRow } from '../../db/outbox-dispatcher.js';
import type { Ctx } from '../context.js';
import { deliveryIdOf, eventIdOf, webhookBody } from './body.js';
import { isWebhookTopic } from './topics.js';

// Outbox rows of webhook topics become deliveries: one per endpoint of the row's app-mode that is
// on and asks for the topic, its body fixed now. Reading a row twice makes nothing twice (ids are
// derived from the row and the endpoint), so the caller may start each delivery's process again.
// A batch of rows (the outbox hands them on up to 500 at a time) is read in a few statements
// whatever its size: the endpoints, the apps and the contacts of all its rows at once.

/** The deliveries the rows make (already made ones included), in the rows' order: each id, its app-mode and its endpoint. */
export async function deliveriesFor(
  ctx: Ctx,
  rows: readonly OutboxRow[],
): Promise<{ id: string; appModeId: string; endpointId: string }[]> {
  const posted = rows.filter((row) => isWebhookTopic(row.topic));
  if (!posted.length) return [];
  const modeIds = [...new Set(posted.map((row) => row.appModeId))];
  const endpoints = await ctx.db.webhookEndpoint.findMany({
    where: { appModeId: { in: modeIds }, enabled: true, topics: { hasSome: [...new Set(posted.map((row) => row.topic))] } },
    select: { id: true, appModeId: true, topics: true },
    orderBy: { id: 'asc' },
  });
  const endpointsOf = (row: OutboxRow) => endpoints.filter((e) => e.appModeId === row.appModeId && e.topics.includes(row.topic));
  const wanted = posted.filter((row) => endpointsOf(row).length);
  if (!wanted.length) return [];
  const modes = await ctx.db.appMode.findMany({
    where: { id: { in: [...new Set(wanted.map((row) => row.appModeId))] } },
    select: { id: true, appId: true },
  });
  const appOf = new Map(modes.map((m) => [m.id, m.appId]));
  const contacts = await contactsOf(ctx, wanted);
  const now = ctx.clock.now();
  const deliveries = wanted.flatMap((row) => {
    const appId = appOf.get(row.appModeId);
    if (!appId) return [];
    const eventId = eventIdOf(ctx.svc, row.id);
    const { external_id: _id, ...data } = row.data as Record<string, unknown>;
    const body = webhookBody({ id: eventId, type: row.topic, createdAt: row.createdAt, appId, data, contact: contactOf(row, contacts) });
    return endpointsOf(row).map((e) => ({
      id: deliveryIdOf(ctx.svc, e.id, eventId),
      endpointId: e.id,
      appModeId: row.appModeId,
      eventId,
      topic: row.topic,
      externalId: row.externalId,
      body,
      createdAt: now,
    }));
  });
  await ctx.db.webhookDelivery.createMany({ data: deliveries, skipDuplicates: true });
  return deliveries.map(({ id, appModeId, endpointId }) => ({ id, appModeId, endpointId }));
}

type ContactFields = { displayName: string | null; email: string | null; language: string | null };
const contactKey = (appModeId: string, externalId: string) => `${appModeId}\u0000${externalId}`;

/** The name, email and language of the people contact topics are about, as they are now, read at once. */
async function contactsOf(ctx: Ctx, rows: OutboxRow[]): Promise<Map<string, ContactFields>> {
  const about = rows.filter((row) => row.externalId && row.topic.startsWith('contact.'));
  if (!about.length) return new Map();
  const found = await ctx.db.contact.findMany({
    where: {
      OR: [...new Set(about.map((row) => row.appModeId))].map((appModeId) => ({
        appModeId,
        externalId: { in: about.filter((r) => r.appModeId === appModeId).map((r) => r.externalId!) },
      })),
    },
    select: { appModeId: true, externalId: true, displayName: true, email: true, language: true },
  });
  return new Map(found.map((c) => [contactKey(c.appModeId, c.externalId), c]));
}

/** The person's ids; for contact topics also their name, email and language. */
function contactOf(row: OutboxRow, contacts: Map<string, ContactFields>): Record<string, unknown> | null {
  if (!row.externalId) return null;
  if (!row.topic.startsWith('contact.')) return { external_id: row.externalId };
  const c = contacts.get(contactKey(row.appModeId, row.externalId));
  return { external_id: row.externalId, display_name: c?.displayName ?? null, email: c?.email ?? null, language: c?.language ?? null };
}
