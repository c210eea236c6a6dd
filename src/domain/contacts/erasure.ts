import { randomUUID } from 'node:crypto';
import type { EraseRequest } from '../../generated/prisma/client.js';
import { transaction, type AppCaller, type AppScope, type Ctx, type Services, type StaffCaller, type TxCtx } from '../context.js';
import { conflict, forbidden, invalidField, notFound } from '../errors.js';
import { emit } from '../outbox.js';
import { erasePerson } from '../personal-data/areas.js';
import { exec, rows, sql, type SqlTarget } from '../../db/sql.js';
import { lock } from '../locks.js';

// Erasing a person: DELETE /server/v1/contacts/{external_id} queues a request; the `erase`
// durable process removes their data in both modes of the app. For 30 days after the request,
// Identify and events for the id are refused (409 erased), so nothing in flight re-creates them.

export const ERASE_BLOCK_DAYS = 30;
/** The outbox topic that starts the erase process (never a webhook: it names no one). */
export const ERASE_REQUESTED = 'erase.requested';

export const ERASE_STATES = ['queued', 'running', 'done'] as const;

/** Refuses, naming `field`, a state that is none of ERASE_STATES. */
export function checkEraseState(state: string | null | undefined, field = 'state'): void {
  if (state && !(ERASE_STATES as readonly string[]).includes(state)) throw invalidField(field, `must be one of ${ERASE_STATES.join(', ')}`);
}

declare module '../services.js' {
  interface Caches {
    /** Subject hashes by app and external id, oldest first (built by openServices). */
    subjectHashes: Map<string, string>;
  }
}

/** Subject hashes this process keeps: a keyed hash costs more than typing an event, every guest request hashes its person, and it never changes. */
const KEPT_HASHES = 20_000;

/**
 * What the block keeps of a person: a keyed hash of the app and id, never the id itself. Kept in the
 * process's cache when the services have one (a `crm` command's have none).
 */
export function subjectHash(
  svc: Pick<Services, 'secrets'> & { caches?: Partial<Services['caches']> },
  appId: string,
  externalId: string,
): string {
  const subject = `${appId}\u0000${externalId}`;
  const kept = svc.caches?.subjectHashes;
  let hash = kept?.get(subject);
  if (hash === undefined) {
    hash = svc.secrets.keyedHash('erase-subject', subject);
    if (kept) {
      if (kept.size >= KEPT_HASHES) kept.delete(kept.keys().next().value!);
      kept.set(subject, hash);
    }
  }
  return hash;
}

/**
 * The ids among these that are erased, or being erased, in this app now. Call it in the
 * transaction that then writes about them: it holds each person against an erase request until
 * that transaction ends, so nothing written here can outlive an erase (crm_erased).
 */
export async function erasedAmong(tx: TxCtx<AppCaller>, externalIds: string[]): Promise<Set<string>> {
  if (!externalIds.length) return new Set();
  const { appId } = tx.caller;
  const byHash = new Map(externalIds.map((x) => [subjectHash(tx.svc, appId, x), x]));
  const [row] = await rows<{ found: string[] }>(
    tx,
    sql`
    SELECT crm_erased(${appId}, ${externalIds}::text[], ${[...byHash.keys()]}::text[], ${tx.clock.now()}::timestamptz) AS found`,
  );
  return new Set(row!.found.map((h) => byHash.get(h)!));
}

export const erasedRefusal = (externalId: string) =>
  conflict('erased', `The person "${externalId}" was erased; Identify and events for this id are refused for ${ERASE_BLOCK_DAYS} days.`);

export async function refuseIfErased(tx: TxCtx<AppCaller>, externalId: string): Promise<void> {
  if ((await erasedAmong(tx, [externalId])).size) throw erasedRefusal(externalId);
}

/**
 * Queues an erase, or returns the one already queued or done within the block: asking twice is safe.
 * An open request that no run carries (one of an earlier release) gets its run now.
 */
export const requestErase = (ctx: Ctx<AppCaller>, externalId: string): Promise<{ request: EraseRequest; fresh: boolean }> =>
  requestEraseIn(ctx, ctx.caller, externalId);

/**
 * A team member's erase of a contact of an app-mode they may erase in (the staff API checked it):
 * the same request as the server API's DELETE for the contact's id, for the whole app. A contact
 * already being erased answers its request (asking twice is safe); one of another mode or app is
 * not found.
 */
export async function requestEraseByStaff(
  ctx: Ctx<StaffCaller>,
  appModeId: string,
  contactId: string,
): Promise<{ request: EraseRequest; fresh: boolean }> {
  const contact = await ctx.db.contact.findFirst({
    where: { id: contactId, appModeId },
    select: { externalId: true, appMode: { select: { appId: true } } },
  });
  if (!contact) throw notFound('No such contact.');
  return requestEraseIn(ctx, { appId: contact.appMode.appId, appModeId }, contact.externalId);
}

async function requestEraseIn(
  ctx: Ctx,
  scope: Pick<AppScope, 'appId' | 'appModeId'>,
  externalId: string,
): Promise<{ request: EraseRequest; fresh: boolean }> {
  const now = ctx.clock.now();
  const hash = subjectHash(ctx.svc, scope.appId, externalId);
  return transaction(ctx, async (ttx) => {
    const tx = ttx.db;
    // Exclusive against crm_erased's shared lock: writes about the person in flight finish first.
    // Concurrent asks queue here too, so at most one of them asks for a run.
    await lock(ttx, 'erase', `${scope.appId}:${externalId}`);
    const current = await tx.eraseRequest.findFirst({
      where: { appId: scope.appId, subjectHash: hash, blockedUntil: { gt: now } },
      orderBy: { requestedAt: 'desc' },
    });
    if (current) {
      if (current.state !== 'done' && current.runAskedAt === null)
        return { request: await askRun(ttx, current, scope.appModeId), fresh: false };
      return { request: current, fresh: false };
    }
    const request = await tx.eraseRequest.create({
      data: {
        id: randomUUID(),
        appId: scope.appId,
        externalId,
        subjectHash: hash,
        requestedAt: now,
        blockedUntil: new Date(now.getTime() + ERASE_BLOCK_DAYS * 86_400_000),
      },
    });
    return { request: await askRun(ttx, request, scope.appModeId), fresh: true };
  });
}

/**
 * Asks the erase process for a run of an open request, in the transaction that holds the person's
 * erase lock: its outbox row (a crash after the commit cannot strand the request; a start is
 * idempotent by the request's id), the time it was asked, and the mark on the person's contacts in
 * every mode, from which on they are served to no one (beingErased).
 */
async function askRun(ttx: TxCtx, request: EraseRequest, appModeId: string): Promise<EraseRequest> {
  const now = ttx.clock.now();
  // A request's first run has its id (operators find an erase by it); a run asked after one gave up
  // (eraseGaveUp set finishedAt), the id and the time it gave up.
  const runId = request.finishedAt ? `${request.id}.${request.finishedAt.getTime().toString(36)}` : request.id;
  await exec(
    ttx,
    sql`
    UPDATE contact SET erase_requested_at = ${now}
    WHERE app_mode_id IN (SELECT id FROM app_mode WHERE app_id = ${request.appId}) AND external_id = ${request.externalId}
      AND erase_requested_at IS NULL`,
  );
  await emit(ttx, ERASE_REQUESTED, { appModeId, data: { request_id: request.id, run_id: runId } });
  return ttx.db.eraseRequest.update({ where: { id: request.id }, data: { runAskedAt: now } });
}

/**
 * Whether the person is being erased in this app-mode: an erase was asked and their contact is
 * still here. The one check every way of reaching a person for reading or writing makes (the guest
 * routes' access, the export, staff's contact and conversation reads and writes): from the erase's
 * 202 they answer as for someone gone. Once the erase is done the contact is gone too, and the
 * routes answer as for someone the service knows nothing of (the block refuses what would make them again).
 */
export async function beingErased(on: SqlTarget, appModeId: string, externalId: string): Promise<boolean> {
  const [row] = await rows<{ marked: boolean }>(
    on,
    sql`SELECT EXISTS (SELECT 1 FROM contact WHERE app_mode_id = ${appModeId} AND external_id = ${externalId} AND erase_requested_at IS NOT NULL) AS marked`,
    { prepare: 'being-erased' },
  );
  return row!.marked;
}

/** The refusal of a guest being erased: 409 where a route refuses an erased person's writes so, else 403 (refused), as an erased person's upload is. */
export const beingErasedRefusal = (status: 403 | 409 = 403) =>
  status === 409 ? conflict('erased', BEING_ERASED) : forbidden('erased', BEING_ERASED);
const BEING_ERASED = 'This person is being erased; nothing is served or kept for them.';

/**
 * Requests past their block are forgotten; rows of earlier releases get their hash; then open
 * requests no run carries (of an earlier release: the first wrote no outbox row) get their run.
 */
export async function purgeEraseRequests(ctx: Ctx): Promise<void> {
  const { db, svc } = ctx;
  await db.eraseRequest.deleteMany({ where: { blockedUntil: { lte: ctx.clock.now() } } });
  const unhashed = await db.eraseRequest.findMany({
    where: { subjectHash: null, externalId: { not: null } },
    select: { id: true, appId: true, externalId: true },
  });
  for (const r of unhashed)
    await db.eraseRequest.update({ where: { id: r.id }, data: { subjectHash: subjectHash(svc, r.appId, r.externalId!) } });
  await resumeEraseRequests(ctx);
}

/** Asks a run for each open request that has none asked (their number is small: requests of one upgrade). */
export async function resumeEraseRequests(ctx: Ctx): Promise<number> {
  const stranded = await ctx.db.eraseRequest.findMany({
    where: { runAskedAt: null, state: { not: 'done' }, externalId: { not: null }, blockedUntil: { gt: ctx.clock.now() } },
    select: { id: true, appId: true, externalId: true },
    orderBy: { requestedAt: 'asc' },
    take: RESUME_BATCH,
  });
  let asked = 0;
  for (const r of stranded)
    await transaction(ctx, async (ttx) => {
      // As a DELETE would: under the person's lock, and only if no one asked meanwhile.
      await lock(ttx, 'erase', `${r.appId}:${r.externalId}`);
      const request = await ttx.db.eraseRequest.findUnique({ where: { id: r.id } });
      if (!request || request.runAskedAt !== null || request.state === 'done' || request.externalId === null) return;
      // The run's fairness key: the app's live mode (an erase covers both modes).
      const mode = await ttx.db.appMode.findFirst({ where: { appId: r.appId }, orderBy: { mode: 'asc' }, select: { id: true } });
      if (!mode) return;
      await askRun(ttx, request, mode.id);
      asked++;
    });
  return asked;
}

/** Stranded requests taken up by one sweep (the next sweep takes the rest). */
const RESUME_BATCH = 500;

/** Rows removed, by kind (each area of the personal-data registry names its own). */
export type Removed = Record<string, number>;

/**
 * Removes everything kept about the person in every mode of the app, area by area from the
 * personal-data registry, except the anonymous daily counts. Idempotent: the durable process may
 * run it more than once; the request keeps the sum of what each run removed.
 */
export async function eraseContactData(ctx: Ctx, requestId: string): Promise<Removed> {
  const request = await ctx.db.eraseRequest.findUniqueOrThrow({ where: { id: requestId } });
  const before = (request.removed ?? {}) as Removed;
  // Done before: the id is no longer kept, and there is nothing left to remove.
  if (request.externalId === null) return before;
  const appModeIds = (await ctx.db.appMode.findMany({ where: { appId: request.appId }, select: { id: true } })).map((m) => m.id);
  return transaction(ctx, async (tx) => {
    const now = await erasePerson(tx, { externalId: request.externalId!, appModeIds });
    const removed = { ...before };
    for (const [kind, n] of Object.entries(now)) removed[kind] = (removed[kind] ?? 0) + n;
    await tx.db.eraseRequest.update({ where: { id: requestId }, data: { state: 'running', removed } });
    return removed;
  });
}

/**
 * A run gave up (its steps kept failing past their rounds): the request is handed back, no run
 * carrying it, so the next sweep (resumeEraseRequests) or a DELETE asks a new run while its block
 * lasts. The person stays marked, served to no one, meanwhile.
 */
export async function eraseGaveUp(ctx: Ctx, requestId: string): Promise<void> {
  await ctx.db.eraseRequest.updateMany({
    where: { id: requestId, state: { not: 'done' } },
    data: { runAskedAt: null, finishedAt: ctx.clock.now() },
  });
}

export async function finishErase(ctx: Ctx, requestId: string): Promise<void> {
  // From here the block needs only the hash.
  await ctx.db.eraseRequest.update({ where: { id: requestId }, data: { state: 'done', finishedAt: ctx.clock.now(), externalId: null } });
}
