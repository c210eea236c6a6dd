import type { OutboxRow } from '../../db/outbox-dispatcher.js';
import type { Ctx } from '../context.js';
import { deliveryIdOf, eventIdOf, webhookBody } from './body.js';
import { isWebhookTopic } from './topics.js';

// Outbox rows of webhook topics become deliveries: one per endpoint of the row's app-mode that is
// on and asks for the topic, its body fixed now. Reading a row twice makes nothing twice (ids are
// derived from the row and the endpoint), so the caller may start each delivery's process again.

/** The deliveries a row makes (already made ones included), by id. */
export async function deliveriesFor(ctx: Ctx, row: OutboxRow): Promise<string[]> {
  if (!isWebhookTopic(row.topic)) return [];
  const endpoints = await ctx.db.webhookEndpoint.findMany({ where: { appModeId: row.appModeId, enabled: true, topics: { has: row.topic } }, select: { id: true } });
  if (!endpoints.length) return [];
  const mode = await ctx.db.appMode.findUnique({ where: { id: row.appModeId }, select: { appId: true } });
  if (!mode) return [];
  const eventId = eventIdOf(ctx.svc, row.id);
  const { external_id: _id, ...data } = row.data as Record<string, unknown>;
  const body = webhookBody({ id: eventId, type: row.topic, createdAt: row.createdAt, appId: mode.appId, data, contact: await contactOf(ctx, row) });
  const now = ctx.clock.now();
  const rows = endpoints.map((e) => ({
    id: deliveryIdOf(ctx.svc, e.id, eventId),
    endpointId: e.id,
    appModeId: row.appModeId,
    eventId,
    topic: row.topic,
    externalId: row.externalId,
    body,
    createdAt: now,
  }));
  await ctx.db.webhookDelivery.createMany({ data: rows, skipDuplicates: true });
  return rows.map((r) => r.id);
}

/** The person's ids; for contact topics also their name, email and language as they are now. */
async function contactOf(ctx: Ctx, row: OutboxRow): Promise<Record<string, unknown> | null> {
  if (!row.externalId) return null;
  if (!row.topic.startsWith('contact.')) return { external_id: row.externalId };
  const c = await ctx.db.contact.findUnique({
    where: { appModeId_externalId: { appModeId: row.appModeId, externalId: row.externalId } },
    select: { displayName: true, email: true, language: true },
  });
  return { external_id: row.externalId, display_name: c?.displayName ?? null, email: c?.email ?? null, language: c?.language ?? null };
}
