import { randomUUID } from 'node:crypto';
import type { EraseRequest, Prisma } from '../../generated/prisma/client.js';
import type { AppScope, Services } from '../context.js';
import { conflict } from '../errors.js';

// Erasing a person: DELETE /server/v1/contacts/{external_id} queues a request; the `erase`
// durable process removes their data in both modes of the app. For 30 days after the request,
// Identify and events for the id are refused (409 erased), so nothing in flight re-creates them.

export const ERASE_BLOCK_DAYS = 30;
type Tx = Prisma.TransactionClient;

/** The ids among these that are erased, or being erased, in this app now. */
export async function erasedIds(tx: Tx | Services['db'], appId: string, externalIds: string[], now: Date): Promise<Set<string>> {
  if (!externalIds.length) return new Set();
  const rows = await tx.eraseRequest.findMany({
    where: { appId, externalId: { in: externalIds }, blockedUntil: { gt: now } },
    select: { externalId: true },
  });
  return new Set(rows.map((r) => r.externalId));
}

export async function refuseIfErased(tx: Tx | Services['db'], scope: AppScope, externalId: string, now: Date): Promise<void> {
  if ((await erasedIds(tx, scope.appId, [externalId], now)).size)
    throw conflict('erased', `The person "${externalId}" was erased; Identify and events for this id are refused for ${ERASE_BLOCK_DAYS} days.`);
}

/** Queues an erase, or returns the one already queued or done within the block: asking twice is safe. */
export async function requestErase(svc: Services, scope: AppScope, externalId: string): Promise<{ request: EraseRequest; fresh: boolean }> {
  const now = svc.clock.now();
  return svc.db.$transaction(async (tx) => {
    // One erase at a time per person: serialise concurrent asks on the app and id.
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`erase:${scope.appId}:${externalId}`}, 0))`;
    const current = await tx.eraseRequest.findFirst({ where: { appId: scope.appId, externalId, blockedUntil: { gt: now } }, orderBy: { requestedAt: 'desc' } });
    if (current) return { request: current, fresh: false };
    const request = await tx.eraseRequest.create({
      data: { id: randomUUID(), appId: scope.appId, externalId, requestedAt: now, blockedUntil: new Date(now.getTime() + ERASE_BLOCK_DAYS * 86_400_000) },
    });
    return { request, fresh: true };
  });
}

export interface Removed {
  contacts: number;
  events: number;
  refusedEvents: number;
  outboxEvents: number;
}

/**
 * Removes everything kept about the person in every mode of the app, except the anonymous daily
 * counts. Idempotent: the durable process may run it more than once.
 */
export async function eraseContactData(svc: Services, requestId: string): Promise<Removed> {
  const request = await svc.db.eraseRequest.findUniqueOrThrow({ where: { id: requestId } });
  const modes = (await svc.db.appMode.findMany({ where: { appId: request.appId }, select: { id: true } })).map((m) => m.id);
  const who = { appModeId: { in: modes }, externalId: request.externalId };
  return svc.db.$transaction(async (tx) => {
    const events = await tx.$executeRaw`DELETE FROM event WHERE app_mode_id = ANY(${modes}::uuid[]) AND external_id = ${request.externalId}`;
    const refusedEvents = (await tx.refusedEvent.deleteMany({ where: who })).count;
    const outboxEvents = (await tx.outboxEvent.deleteMany({ where: { ...who, takenAt: null } })).count;
    // Consent history and every other row of the contact go with it (ON DELETE CASCADE).
    const contacts = (await tx.contact.deleteMany({ where: who })).count;
    // A second run finds less or nothing: the request keeps the sum of what was removed.
    const before = (request.removed ?? {}) as Partial<Removed>;
    const removed: Removed = {
      contacts: (before.contacts ?? 0) + contacts,
      events: (before.events ?? 0) + events,
      refusedEvents: (before.refusedEvents ?? 0) + refusedEvents,
      outboxEvents: (before.outboxEvents ?? 0) + outboxEvents,
    };
    await tx.eraseRequest.update({ where: { id: requestId }, data: { state: 'running', removed: removed as never } });
    return removed;
  });
}

export async function finishErase(svc: Services, requestId: string): Promise<void> {
  await svc.db.eraseRequest.update({ where: { id: requestId }, data: { state: 'done', finishedAt: svc.clock.now() } });
}
