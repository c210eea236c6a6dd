import { randomUUID } from 'node:crypto';
import type { WebhookDelivery, WebhookEndpoint, WebhookTry } from '../../generated/prisma/client.js';
import { throughCuts } from '../../db/lost-connection.js';
import type { PostResult, TestTrust } from '../../lib/outbound/index.js';
import { transaction, type Ctx, type TxCtx } from '../context.js';
import { emit } from '../outbox.js';
import { postSigned } from './post.js';
import { LOG_TRIES, MAX_TRIES, refusedForGood, SWITCH_OFF_AFTER_MS, SWITCH_OFF_FAILURES } from './schedule.js';
import { triedRow, WEBHOOK_TRIED } from './tries-live.js';
import { webhookDeliveries } from '../../lib/process-metrics.js';
import { exec, sql } from '../../db/sql.js';
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
  const delivery = await ctx.db.webhookDelivery.findUnique({ where: { id: deliveryId }, include: { endpoint: true } });
  if (!delivery) return { outcome: 'final' }; // its endpoint was removed
  if (delivery.state !== 'pending') return { outcome: delivery.state === 'delivered' ? 'delivered' : 'final' };
  // A try already logged (the step ran before a crash): never posted twice.
  if (delivery.tries >= attempt) return { outcome: delivery.tries >= MAX_TRIES ? 'final' : 'retry' };
  const { endpoint } = delivery;
  if (!endpoint.enabled) {
    await ctx.db.webhookDelivery.update({ where: { id: deliveryId }, data: { state: 'failed', finishedAt: ctx.clock.now() } });
    return { outcome: 'final' };
  }

  const { result, delivered } = await postSigned(ctx, endpoint, delivery.id, delivery.body, opts);
  const final =
    delivered || attempt >= MAX_TRIES || (result.failure === undefined && refusedForGood(result.status)) || result.failure === 'redirect';
  const outcome: TryOutcome = delivered ? 'delivered' : final ? 'final' : 'retry';
  webhookDeliveries.inc({ outcome });

  // The post was made: its log is written again when the connection was cut, rather than the try being made twice.
  return throughCuts((again) => logged(ctx, delivery, attempt, { result, delivered, final, outcome }, again));
}

async function logged(
  ctx: Ctx,
  delivery: WebhookDelivery & { endpoint: WebhookEndpoint },
  attempt: number,
  { result, delivered, final, outcome }: { result: PostResult; delivered: boolean; final: boolean; outcome: TryOutcome },
  again: boolean,
): Promise<Tried> {
  const { endpoint } = delivery;
  const deliveryId = delivery.id;
  return transaction(ctx, async (tx) => {
    // Written again: the cut may have come after the first write's commit, which then stands.
    if (again) {
      const current = await tx.db.webhookDelivery.findUnique({ where: { id: deliveryId } });
      if (!current || current.tries >= attempt) return { outcome };
    }
    const at = tx.clock.now();
    await logTry(tx, {
      appModeId: endpoint.appModeId,
      endpointId: endpoint.id,
      deliveryId,
      topic: delivery.topic,
      attempt,
      delivered,
      result,
      at,
    });
    await tx.db.webhookDelivery.update({
      where: { id: deliveryId },
      data: { tries: attempt, ...(final ? { state: delivered ? 'delivered' : 'failed', finishedAt: at } : {}) },
    });
    const switchedOff = await countTry(tx, endpoint.id, delivered, at);
    return { outcome, ...(switchedOff ? { switchedOff: { endpointId: endpoint.id, at: at.toISOString() } } : {}) };
  });
}

/** Keeps the try in the endpoint's log, and only the last LOG_TRIES of them; its live subscribers hear of it at commit. */
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
): Promise<WebhookTry> {
  const { result } = t;
  // Tries of one endpoint are logged one after the other: each trim sees every try before it, so the log holds LOG_TRIES, never more.
  await lock(tx, 'webhook-tries', t.endpointId);
  const row = await tx.db.webhookTry.create({
    data: {
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
    },
  });
  await exec(
    tx,
    sql`
    DELETE FROM webhook_try WHERE endpoint_id = ${t.endpointId} AND id NOT IN (
      SELECT id FROM webhook_try WHERE endpoint_id = ${t.endpointId} ORDER BY at DESC, id DESC LIMIT ${LOG_TRIES})`,
  );
  await emit(tx, WEBHOOK_TRIED, { appModeId: t.appModeId, data: triedRow(row) });
  return row;
}

/**
 * Counts a try against the endpoint's run of failures (a delivered post ends the run), and
 * switches it off when every post has failed for 24 hours, at least 5 of them. Whether it did.
 */
async function countTry(tx: TxCtx, endpointId: string, delivered: boolean, at: Date): Promise<boolean> {
  if (delivered) {
    // Only a row in a run of failures is written (and so locked): deliveries to a healthy endpoint do not queue on it.
    await tx.db.webhookEndpoint.updateMany({
      where: { id: endpointId, OR: [{ failures: { gt: 0 } }, { failingSince: { not: null } }] },
      data: { failures: 0, failingSince: null },
    });
    return false;
  }
  // The increment locks the row: tries of several deliveries count one after the other.
  let row = await tx.db.webhookEndpoint.update({ where: { id: endpointId }, data: { failures: { increment: 1 } } });
  if (!row.failingSince) row = await tx.db.webhookEndpoint.update({ where: { id: endpointId }, data: { failingSince: at } });
  if (!row.enabled || row.failures < SWITCH_OFF_FAILURES || at.getTime() - row.failingSince!.getTime() < SWITCH_OFF_AFTER_MS) return false;
  await tx.db.webhookEndpoint.update({ where: { id: endpointId }, data: { enabled: false, switchedOffAt: at } });
  return true;
}
