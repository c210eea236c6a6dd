import { randomUUID } from 'node:crypto';
import type { WebhookTry } from '../../generated/prisma/client.js';
import { throughCuts } from '../../db/lost-connection.js';
import type { PostResult, TestTrust } from '../../lib/outbound/index.js';
import { sqlTransaction, type Ctx, type TxCtx } from '../context.js';
import { emitting } from '../outbox.js';
import { postSigned } from './post.js';
import { lastTry, LOG_TRIES, MAX_TRIES, SWITCH_OFF_AFTER_MS, SWITCH_OFF_FAILURES } from './schedule.js';
import { triedRow, WEBHOOK_TRIED } from './tries-live.js';
import { webhookDeliveries } from '../../lib/process-metrics.js';
import { exec, one, sql, type Sql } from '../../db/sql.js';
import { lock } from '../locks.js';

// One try of one delivery: the body as made, posted signed (post.ts: public https addresses only,
// no redirect, 10 s). The try is logged (status, code, duration; never a body) and told to live
// subscribers in the same transaction, the endpoint's failure run counted, and the endpoint
// switched off after 24 hours of failures.

export type TryOutcome =
  /** A 2xx came back. */
  | 'delivered'
  /** Failed; worth another try after the wait. */
  | 'retry'
  /** Nothing more to do: refused for good, tries spent, the endpoint off or gone, or done before. */
  | 'final';

export interface Tried {
  outcome: TryOutcome;
  /** Set when this try switched the endpoint off: its owners are to be told. */
  switchedOff?: { endpointId: string; at: string };
}

export interface DeliveryOptions {
  /** Tests only: the receivers a post may reach though private (OUTBOUND_TEST_TRUST). */
  testTrust?: TestTrust;
}

export async function tryDelivery(ctx: Ctx, deliveryId: string, attempt: number, opts: DeliveryOptions = {}): Promise<Tried> {
  const delivery = await one<Delivery>(
    ctx,
    sql`
    SELECT d.id, d.topic, d.body, d.state, d.tries,
      e.id AS "endpointId", e.app_mode_id AS "appModeId", e.url, e.secret_enc AS "secretEnc", e.enabled
    FROM webhook_delivery d JOIN webhook_endpoint e ON e.id = d.endpoint_id
    WHERE d.id = ${deliveryId}`,
    { prepare: 'crm_webhook_delivery_try' },
  );
  if (!delivery) return { outcome: 'final' }; // its endpoint was removed
  if (delivery.state !== 'pending') return { outcome: delivery.state === 'delivered' ? 'delivered' : 'final' };
  // A try already logged (the step ran before a crash): never posted twice.
  if (delivery.tries >= attempt) return { outcome: delivery.tries >= MAX_TRIES ? 'final' : 'retry' };
  if (!delivery.enabled) {
    await ctx.db.webhookDelivery.update({ where: { id: deliveryId }, data: { state: 'failed', finishedAt: ctx.clock.now() } });
    return { outcome: 'final' };
  }

  const { result, delivered } = await postSigned(ctx, delivery, delivery.id, delivery.body, opts);
  const final = delivered || lastTry(result, attempt);
  const outcome: TryOutcome = delivered ? 'delivered' : final ? 'final' : 'retry';
  webhookDeliveries.inc({ outcome });

  // The post was made: its log is written again when the connection was cut, rather than the try being made twice.
  return throughCuts((again) => logged(ctx, delivery, attempt, { result, delivered, final, outcome }, again));
}

/** A delivery as a try reads it, with what it needs of its endpoint: one statement. */
interface Delivery {
  id: string;
  topic: string;
  body: string;
  state: string;
  tries: number;
  endpointId: string;
  appModeId: string;
  url: string;
  secretEnc: string;
  enabled: boolean;
}

async function logged(
  ctx: Ctx,
  delivery: Delivery,
  attempt: number,
  { result, delivered, final, outcome }: { result: PostResult; delivered: boolean; final: boolean; outcome: TryOutcome },
  again: boolean,
): Promise<Tried> {
  const { endpointId } = delivery;
  const deliveryId = delivery.id;
  return sqlTransaction(ctx, async (tx) => {
    // Written again: the cut may have come after the first write's commit, which then stands.
    if (again) {
      const current = await one<{ tries: number }>(tx, sql`SELECT tries FROM webhook_delivery WHERE id = ${deliveryId}`);
      if (!current || current.tries >= attempt) return { outcome };
    }
    const at = tx.clock.now();
    const state = final ? (delivered ? 'delivered' : 'failed') : 'pending';
    const counted = sql`counted AS (
      UPDATE webhook_delivery SET tries = ${attempt}, state = ${state}, finished_at = ${final ? at : null} WHERE id = ${deliveryId})`;
    // A delivered post ends the endpoint's run of failures. Only a row in such a run is written (and so
    // locked): deliveries to a healthy endpoint do not queue on it.
    const healthy = sql`healthy AS (
      UPDATE webhook_endpoint SET failures = 0, failing_since = NULL
      WHERE id = ${endpointId} AND (failures > 0 OR failing_since IS NOT NULL))`;
    const t = { appModeId: delivery.appModeId, endpointId, deliveryId, topic: delivery.topic, attempt, delivered, result, at };
    await logTry(tx, t, delivered ? [counted, healthy] : [counted]);
    if (delivered) return { outcome };
    const switchedOff = await countFailure(tx, endpointId, at);
    return { outcome, ...(switchedOff ? { switchedOff: { endpointId, at: at.toISOString() } } : {}) };
  });
}

/**
 * Keeps the try in the endpoint's log, and only the last LOG_TRIES of them; its live subscribers hear
 * of it at commit. `also`: the caller's other writes (CTEs), made by the same statement.
 */
export async function logTry(
  tx: TxCtx,
  t: {
    appModeId: string;
    endpointId: string;
    deliveryId: string;
    topic: string;
    attempt: number;
    delivered: boolean;
    result: PostResult;
    at: Date;
  },
  also: readonly Sql[] = [],
): Promise<WebhookTry> {
  const { result } = t;
  const row: WebhookTry = {
    id: randomUUID(),
    endpointId: t.endpointId,
    deliveryId: t.deliveryId,
    topic: t.topic,
    attempt: t.attempt,
    delivered: t.delivered,
    statusCode: result.status ?? null,
    failure: result.failure ?? null,
    durationMs: result.ms,
    at: t.at,
  };
  // Tries of one endpoint are logged one after the other: each trim sees every try before it, so the log
  // holds LOG_TRIES, never more. The trim runs beside the insert (it cannot see the new try): it keeps
  // the newest LOG_TRIES - 1 before it.
  await lock(tx, 'webhook-tries', t.endpointId);
  const added = sql`added AS (
    INSERT INTO webhook_try (id, endpoint_id, delivery_id, topic, attempt, delivered, status_code, failure, duration_ms, at)
    VALUES (${row.id}, ${row.endpointId}, ${row.deliveryId}, ${row.topic}, ${row.attempt}, ${row.delivered}, ${row.statusCode},
      ${row.failure}, ${row.durationMs}, ${row.at}))`;
  const trimmed = sql`trimmed AS (
    DELETE FROM webhook_try WHERE endpoint_id = ${t.endpointId} AND id IN (
      SELECT id FROM webhook_try WHERE endpoint_id = ${t.endpointId} ORDER BY at DESC, id DESC OFFSET ${LOG_TRIES - 1}))`;
  await exec(tx, emitting(tx, WEBHOOK_TRIED, [{ appModeId: t.appModeId, data: triedRow(row) }], [added, trimmed, ...also]));
  return row;
}

/**
 * Counts a failed try against the endpoint's run of failures, and switches it off when every post
 * has failed for 24 hours, at least 5 of them. Whether it did.
 */
async function countFailure(tx: TxCtx, endpointId: string, at: Date): Promise<boolean> {
  // The increment locks the row: tries of several deliveries count one after the other.
  const row = await one<{ enabled: boolean; failures: number; failingSince: Date }>(
    tx,
    sql`
    UPDATE webhook_endpoint SET failures = failures + 1, failing_since = coalesce(failing_since, ${at})
    WHERE id = ${endpointId} RETURNING enabled, failures, failing_since AS "failingSince"`,
  );
  if (!row?.enabled || row.failures < SWITCH_OFF_FAILURES || at.getTime() - row.failingSince.getTime() < SWITCH_OFF_AFTER_MS) return false;
  await exec(tx, sql`UPDATE webhook_endpoint SET enabled = false, switched_off_at = ${at} WHERE id = ${endpointId}`);
  return true;
}
