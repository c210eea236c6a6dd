import type { PushSend } from '../../generated/prisma/client.js';
import type { PushOutcome } from '../../lib/push/outcome.js';
import { transaction, type Ctx, type TxCtx } from '../context.js';
import { forgetGoneToken, type PushDevice } from '../devices/devices.js';
import { addNotices } from '../notices/add.js';
import { emitMany } from '../outbox.js';
import { MAX_TRIES, WRITE_AT } from './schedule.js';
import { retriedInParts } from '../../db/retried.js';
import { exec, rows, sql } from '../../db/sql.js';
import { OUTBOX_CHANNEL } from '../../db/outbox-dispatcher.js';

// What pushes came to, written as the providers answer, a few hundred at a time (fewer while the
// database connection is being cut: recordInParts), each part in one transaction: each device's row
// (only rows still claimed: a part written twice, its first commit's answer lost, writes nothing the
// second time), the send's counts, gone devices forgotten, and for each person reached for the first
// time by this send one notice and one message.sent. A throttled device is tried again after the wait
// the provider asked for (at least a backoff that doubles with each try), MAX_TRIES times in all. A
// device claimed by a step that stopped (killed, its lease lost) before writing its answer, and whose
// push had left, counts as sent, with its person's notice and message.sent (settleInterrupted).

/** The least wait before the n-th try again: 1 s, 2 s, 4 s, … */
const backoffMs = (tries: number) => 1000 * 2 ** (tries - 1);

export interface Tried {
  device: PushDevice;
  tries: number;
  outcome: PushOutcome;
}

type Kept = { state: 'sent' | 'gone' | 'failed' | 'retry'; detail: string | null; retryAt: string | null };

function kept({ outcome, tries }: Tried, now: Date): Kept {
  switch (outcome.kind) {
    case 'sent':
      return { state: 'sent', detail: null, retryAt: null };
    case 'gone':
      return { state: 'gone', detail: outcome.reason, retryAt: null };
    case 'failed':
      return { state: 'failed', detail: outcome.reason, retryAt: null };
    case 'retry':
      if (tries >= MAX_TRIES) return { state: 'failed', detail: `gave up after ${tries} tries: ${outcome.reason}`, retryAt: null };
      return {
        state: 'retry',
        detail: outcome.reason,
        retryAt: new Date(now.getTime() + Math.max(outcome.afterMs, backoffMs(tries))).toISOString(),
      };
  }
}

/** Writes what the pushes came to; answers until when a provider asked for a pause, if one did. */
export async function recordOutcomes(ctx: Ctx, send: PushSend, tried: Tried[]): Promise<string | null> {
  if (!tried.length) return null;
  const now = ctx.clock.now();
  const pairs = tried.map((t) => ({ t, k: kept(t, now) }));
  const pauses = tried.flatMap((t) => (t.outcome.kind === 'retry' && t.outcome.provider ? [now.getTime() + t.outcome.afterMs] : []));
  const paused = pauses.length ? new Date(Math.max(...pauses)).toISOString() : null;
  // Without a device to forget (the common case), one statement: one round trip, whatever the batch.
  if (!tried.some((t) => t.outcome.kind === 'gone')) {
    await recordInOne(ctx, send, pairs, now);
    return paused;
  }
  await transaction(ctx, async (tx) => {
    const written = await rows<{ device_id: string; contact_id: string; state: Kept['state'] }>(
      tx,
      sql`
      UPDATE push_delivery p SET state = x.state::"PushDeliveryState", detail = x.detail, retry_at = (x.retry_at::timestamptz AT TIME ZONE 'UTC'), at = ${now}
      FROM unnest(${pairs.map((r) => r.t.device.id)}::text[], ${pairs.map((r) => r.k.state)}::text[], ${pairs.map((r) => r.k.detail)}::text[], ${pairs.map((r) => r.k.retryAt)}::text[])
        AS x(device_id, state, detail, retry_at)
      WHERE p.send_id = ${send.id} AND p.device_id = x.device_id AND p.state = 'sending'
      RETURNING p.device_id, p.contact_id, p.state`,
    );
    const mine = new Set(written.map((w) => w.device_id));
    for (const { t } of pairs) {
      if (t.outcome.kind === 'gone' && mine.has(t.device.id)) await forgetGoneToken(tx, send.appModeId, t.device.token, t.outcome.since);
    }
    await counted(tx, send, written, now);
  });
  return paused;
}

/** What recordInParts came to: the pause a provider asked for, if one did; and when the database stayed away, what is left unwritten. */
export type Recorded = { ok: true; pause: string | null } | { ok: false; pause: string | null; left: Tried[]; failure: unknown };

/**
 * Writes what the pushes came to in parts (retriedInParts: WRITE_AT at most, fewer while connections
 * are cut), each part its own transaction: a batch too long to fit between cuts is written in
 * shorter ones, and what went through stays written when the database then stays away.
 */
export async function recordInParts(ctx: Ctx, send: PushSend, tried: Tried[]): Promise<Recorded> {
  let done = 0;
  let paused: number | null = null;
  const pause = () => (paused === null ? null : new Date(paused).toISOString());
  try {
    await retriedInParts(WRITE_AT, async (most) => {
      const part = tried.slice(done, done + most);
      const asked = await recordOutcomes(ctx, send, part);
      if (asked) paused = Math.max(paused ?? 0, Date.parse(asked));
      done += part.length;
      return done < tried.length;
    });
    return { ok: true, pause: pause() };
  } catch (failure) {
    return { ok: false, pause: pause(), left: tried.slice(done), failure };
  }
}

/**
 * What recordOutcomes writes, in one statement (so one transaction): the rows still claimed, the
 * people reached for the first time with their notices and message.sent (as addNotices and
 * emitMany write them), the send's counts, and the outbox's wake-up.
 */
async function recordInOne(ctx: Ctx, send: PushSend, pairs: { t: Tried; k: Kept }[], now: Date): Promise<void> {
  const at = sql`(${now.toISOString()}::timestamptz AT TIME ZONE 'UTC')`;
  await exec(
    ctx,
    sql`
    WITH written AS (
      UPDATE push_delivery p SET state = x.state::"PushDeliveryState", detail = x.detail, retry_at = (x.retry_at::timestamptz AT TIME ZONE 'UTC'), at = ${now}
      FROM unnest(${pairs.map((r) => r.t.device.id)}::text[], ${pairs.map((r) => r.k.state)}::text[], ${pairs.map((r) => r.k.detail)}::text[], ${pairs.map((r) => r.k.retryAt)}::text[])
        AS x(device_id, state, detail, retry_at)
      WHERE p.send_id = ${send.id} AND p.device_id = x.device_id AND p.state = 'sending'
      RETURNING p.contact_id, p.state::text AS state),
    added AS (
      INSERT INTO push_recipient (send_id, contact_id, at) SELECT DISTINCT ${send.id}, contact_id, ${at} FROM written WHERE state = 'sent'
      ON CONFLICT DO NOTHING RETURNING contact_id),
    first AS (SELECT a.contact_id, k.external_id FROM added a JOIN contact k ON k.id = a.contact_id),
    notices AS (
      INSERT INTO notice (id, app_mode_id, contact_id, title, body, link, topic_key, source, send_key, posted_by, created_at)
      SELECT gen_random_uuid()::text, ${send.appModeId}, contact_id, ${send.title}, ${send.body}, ${send.link}, ${send.topicKey}, 'push'::"NoticeSource", ${send.id}, ${send.sentBy}, ${at}
      FROM first
      ON CONFLICT DO NOTHING),
    events AS (
      INSERT INTO outbox_event (app_mode_id, topic, external_id, data, created_at)
      SELECT ${send.appModeId}, ${MESSAGE_SENT}, external_id, jsonb_build_object('message_id', ${send.id}::text, 'channel', 'push'), ${at} FROM first
      RETURNING 1),
    counts AS (
      UPDATE push_send SET
        sent = sent + (SELECT count(*) FROM written WHERE state = 'sent'),
        failed = failed + (SELECT count(*) FROM written WHERE state = 'failed'),
        people = people + (SELECT count(*) FROM first)
      WHERE id = ${send.id} AND EXISTS (SELECT 1 FROM written))
    SELECT pg_notify(${OUTBOX_CHANNEL}, '') FROM (SELECT count(*) AS n FROM events) e WHERE e.n > 0`,
  );
}

/** What the devices of an interrupted step whose pushes had left are counted as: sent, and never sent again. */
export const INTERRUPTED = 'its step stopped before the answer was written: counted as sent, not sent again';

/**
 * Devices of the send still claimed by another attempt than `claim` (a step that stopped before
 * writing their answers) whose pushes had left are counted as sent: each person reached gets the
 * notice and a message.sent. In parts (retriedInParts: WRITE_AT at most, fewer while connections are
 * cut), each its own transaction, so a part settled stays settled. Answers how many devices.
 */
export async function settleInterrupted(ctx: Ctx, send: PushSend, claim: string): Promise<number> {
  let settled = 0;
  await retriedInParts(WRITE_AT, async (most) => {
    const n = await settleSome(ctx, send, claim, most);
    settled += n;
    return n === most;
  });
  return settled;
}

/** Settles at most `most` of the devices settleInterrupted settles, in one transaction; answers how many. */
async function settleSome(ctx: Ctx, send: PushSend, claim: string, most: number): Promise<number> {
  const now = ctx.clock.now();
  return transaction(ctx, async (tx) => {
    const written = await rows<{ device_id: string; contact_id: string; state: Kept['state'] }>(
      tx,
      sql`
      UPDATE push_delivery SET state = 'sent', detail = ${INTERRUPTED}, retry_at = NULL, at = ${now}
      WHERE send_id = ${send.id} AND state = 'sending' AND posted AND claim IS DISTINCT FROM ${claim}
        AND device_id IN (
          SELECT device_id FROM push_delivery
          WHERE send_id = ${send.id} AND state = 'sending' AND posted AND claim IS DISTINCT FROM ${claim}
          LIMIT ${most})
      RETURNING device_id, contact_id, 'sent' AS state`,
    );
    if (written.length) await counted(tx, send, written, now);
    return written.length;
  });
}

/** The send's counts for rows just written, and the people reached for the first time. */
async function counted(tx: TxCtx, send: PushSend, written: { contact_id: string; state: Kept['state'] }[], now: Date): Promise<void> {
  const count = (state: Kept['state']) => written.filter((w) => w.state === state).length;
  const people = await reached(tx, send, [...new Set(written.filter((w) => w.state === 'sent').map((w) => w.contact_id))], now);
  if (!written.length) return;
  await tx.db.pushSend.update({
    where: { id: send.id },
    data: {
      sent: { increment: count('sent') },
      gone: { increment: count('gone') },
      failed: { increment: count('failed') },
      people: { increment: people },
    },
  });
}

/** People reached for the first time by this send: each gets the notice and a message.sent. Answers how many. */
async function reached(tx: TxCtx, send: PushSend, contactIds: string[], now: Date): Promise<number> {
  if (!contactIds.length) return 0;
  const first = await rows<{ contact_id: string; external_id: string }>(
    tx,
    sql`
    WITH added AS (
      INSERT INTO push_recipient (send_id, contact_id, at) SELECT ${send.id}, unnest(${contactIds}::text[]), ${now}
      ON CONFLICT DO NOTHING RETURNING contact_id)
    SELECT a.contact_id, k.external_id FROM added a JOIN contact k ON k.id = a.contact_id`,
  );
  if (!first.length) return 0;
  await addNotices(
    tx,
    send.appModeId,
    first.map((p) => ({
      contactId: p.contact_id,
      title: send.title,
      body: send.body,
      link: send.link,
      topicKey: send.topicKey,
      source: 'push' as const,
      sendKey: send.id,
      postedBy: send.sentBy,
    })),
  );
  await emitMany(
    tx,
    MESSAGE_SENT,
    first.map((p) => ({ appModeId: send.appModeId, externalId: p.external_id, data: { message_id: send.id, channel: 'push' } })),
  );
  return first.length;
}

/** The webhook topic of a message that reached someone. */
export const MESSAGE_SENT = 'message.sent';
