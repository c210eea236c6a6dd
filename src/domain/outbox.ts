import type { Prisma } from '../generated/prisma/client.js';
import type { Ctx, TxCtx } from './context.js';
import { OUTBOX_CHANNEL, OUTBOX_KEEP_DAYS } from '../db/outbox-dispatcher.js';
import { exec, join, sql, type Sql } from '../db/sql.js';
import { lock } from './locks.js';

// Changes that leave the service (webhook topics) or that other parts must hear of (live
// subscriptions, long-poll wakes, processes to start) are written here by `emit`, in the same
// transaction as the change: a change is heard of if and only if it committed. The outbox
// dispatcher (src/db/outbox-dispatcher.ts) reads them in order and hands them on.

/** The NOTIFY channel that wakes every process's dispatcher, and how long rows are kept (both src/db's, which reads them). */
export { OUTBOX_CHANNEL, OUTBOX_KEEP_DAYS };

export interface Emitted {
  /** The app-mode the change belongs to. */
  appModeId: string;
  /** The contact it is about, when it names one (an erase then removes it). */
  externalId?: string | null;
  data: Record<string, unknown>;
}

/** Writes the outbox row and wakes every process's dispatcher, both in the caller's transaction. */
export const emit = (ctx: TxCtx, topic: string, change: Emitted): Promise<void> => emitMany(ctx, topic, [change]);

/** Writes one row per change (a batch's) and wakes every process's dispatcher, in one statement of the caller's transaction. */
export async function emitMany(ctx: TxCtx, topic: string, changes: readonly Emitted[]): Promise<void> {
  if (changes.length) await exec(ctx, emitting(ctx, topic, changes), { prepare: true });
}

/**
 * The statement that writes one outbox row per change and wakes every process's dispatcher, with
 * other writes of the caller's beside it (`also`: CTEs, `name AS (INSERT/UPDATE/DELETE …)`, which
 * run in the same snapshot): a hot path's whole transaction in one round trip. Run it in the
 * caller's transaction.
 */
export function emitting(ctx: TxCtx, topic: string, changes: readonly Emitted[], also: readonly Sql[] = []): Sql {
  answerFirst(ctx);
  // Arrays of columns rather than a row of parameters each: one short statement for hundreds of rows.
  // NOTIFY is delivered at commit, and folds repeats within one transaction into one.
  return sql`
    WITH ${join([
      ...also,
      sql`written AS (
        INSERT INTO outbox_event (app_mode_id, topic, external_id, data, created_at)
        SELECT x.app_mode_id, ${topic}, x.external_id, x.data::jsonb, ${ctx.clock.now()}
        FROM unnest(${changes.map((c) => c.appModeId)}::text[], ${changes.map((c) => c.externalId ?? null)}::text[], ${changes.map((c) => JSON.stringify(c.data))}::text[])
          AS x(app_mode_id, external_id, data))`,
    ])}
    SELECT pg_notify(${OUTBOX_CHANNEL}, '')`;
}

/** A request's changes reach this process's live subscribers once its own answer has gone (for rows written by a statement of its own). */
export const answerFirst = (ctx: Ctx) => ctx.answered && ctx.svc.outbox.holdFor(ctx.answered);

/**
 * Called first in a transaction (before it writes anything) that changes one thing whose rows
 * subscribers take as its state: one such transaction at a time, so the rows' outbox positions
 * follow the order the changes commit. (A transaction's position is its id, given at its first
 * write: transactions waiting for the same row lock would otherwise commit out of that order.)
 */
export async function inOrder(tx: TxCtx, topic: string, key: string): Promise<void> {
  await lock(tx, 'outbox', `${topic}:${key}`);
}

/** The app-mode id of rows about no app-mode: staff sessions and memberships, heard by every live subscription of a process. */
export const SERVICE_WIDE = '00000000-0000-0000-0000-000000000000';

/** Internal topics (SERVICE_WIDE) that end or narrow live subscriptions: a session signed out, a membership changed or ended. */
export const SESSION_ENDED = 'staff.session_ended';
export const MEMBERSHIP_CHANGED = 'staff.membership_changed';

/** Forgets rows older than OUTBOX_KEEP_DAYS that no consumer still has to read. */
export async function purgeOutbox(ctx: Ctx): Promise<void> {
  const before = new Date(ctx.clock.now().getTime() - OUTBOX_KEEP_DAYS * 86_400_000);
  await exec(
    ctx,
    sql`
    DELETE FROM outbox_event e WHERE e.created_at < ${before}
      AND NOT EXISTS (SELECT 1 FROM outbox_consumer c WHERE (c.tx_id, c.last_id) < (e.tx_id, e.id))`,
  );
}
