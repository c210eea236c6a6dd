import type { PushSend } from '../../generated/prisma/client.js';
import type { PushOutcome } from '../../lib/push/outcome.js';
import { transaction, type Ctx } from '../context.js';
import { devicesOf, type PushDevice } from '../devices/devices.js';
import { whoHear } from '../preferences/hears.js';
import { audienceSql, type PushAudience } from './audience.js';
import { openCredentials } from './credentials.js';
import { recordOutcomes, type Tried } from './record.js';
import { BATCH_DEVICES, BATCH_TIMEOUT_MS, PUSHES_AT_ONCE } from './schedule.js';
import { pushSends } from '../../lib/process-metrics.js';
import { PLATFORM_PROVIDER, type PushSenders } from './senders.js';
import { one, rows, sql } from '../../db/sql.js';

// One step of a send: the throttled devices now due again, then the next page of the audience
// (about BATCH_DEVICES devices, whole people only, in contact order from the cursor), each device
// claimed by a push_delivery row before its push goes out. A device already claimed is never sent
// again, so a step run twice (a crash, a lost lease, a restart) sends nothing twice. People who do
// not hear of the topic by push are claimed as skipped. Pushes go out PUSHES_AT_ONCE at a time; a
// provider that refuses the credentials or asks for a pause is not sent anything more this step.

export interface BatchInput {
  sendId: string;
  /** The last contact id paged; null at the start. */
  after: string | null;
}

export interface BatchResult {
  after: string | null;
  /** The send is over (done or stopped): nothing more to do. */
  finished: boolean;
  /** When to take the next step (a provider's pause, the next throttled device due); null: at once. */
  waitUntil: string | null;
}

export interface BatchOptions {
  batchSize?: number;
}

interface Work {
  device: PushDevice;
  tries: number;
}

export async function sendPushBatch(ctx: Ctx, senders: PushSenders, input: BatchInput, opts: BatchOptions = {}): Promise<BatchResult> {
  const size = opts.batchSize ?? BATCH_DEVICES;
  const send = await ctx.db.pushSend.findUnique({ where: { id: input.sendId } });
  if (!send || send.state !== 'sending') return { after: input.after, finished: true, waitUntil: null };
  const now = ctx.clock.now();
  const work = await dueAgain(ctx, send, now, size);
  const page = await nextPage(ctx, send, input.after, size);
  work.push(...(await claim(ctx, send, page.devices, now)));

  const creds = await openCredentials(ctx, send.appModeId);
  const content = { sendId: send.id, title: send.title, body: send.body, link: send.link };
  const tried = await sendAll(work, (device) => senders.send(device, creds, content, ctx.clock.now()));
  const pause = await recordOutcomes(ctx, send, tried);

  if (!page.done) return { after: page.after, finished: false, waitUntil: pause };
  return { after: page.after, ...(await afterLastPage(ctx, send, pause)) };
}

/** Throttled devices of the send due again, claimed for this step. */
async function dueAgain(ctx: Ctx, send: PushSend, now: Date, size: number): Promise<Work[]> {
  const found = await rows<{ device_id: string; contact_id: string; tries: number }>(
    ctx,
    sql`
    UPDATE push_delivery SET state = 'sending', tries = tries + 1, at = ${now}
    WHERE send_id = ${send.id} AND device_id IN (
      SELECT device_id FROM push_delivery WHERE send_id = ${send.id} AND state = 'retry' AND retry_at <= ${now}
      ORDER BY retry_at, device_id LIMIT ${size} FOR UPDATE SKIP LOCKED)
    RETURNING device_id, contact_id, tries`,
  );
  if (!found.length) return [];
  const devices = new Map((await devicesOf(ctx, send.appModeId, [...new Set(found.map((r) => r.contact_id))])).map((d) => [d.id, d]));
  // A device forgotten meanwhile (signed out, moved to another person) stands for a failure of its own.
  return found.map((r) => ({ device: devices.get(r.device_id) ?? forgotten(r.device_id, r.contact_id), tries: r.tries }));
}

const forgotten = (id: string, contactId: string): PushDevice => ({
  id,
  contactId,
  platform: 'ios',
  token: '',
  appVersion: null,
  locale: null,
  lastSeenAt: new Date(0),
});

/** The devices of the next people of the audience after `after`, about `size` of them, and the new cursor. */
async function nextPage(
  ctx: Ctx,
  send: PushSend,
  after: string | null,
  size: number,
): Promise<{ devices: PushDevice[]; after: string | null; done: boolean }> {
  const found = await rows<{ contact_id: string }>(
    ctx,
    sql`
    SELECT d.contact_id FROM device d JOIN contact k ON k.id = d.contact_id
    WHERE d.app_mode_id = ${send.appModeId} AND k.app_mode_id = ${send.appModeId} AND d.contact_id > ${after ?? ''}
      AND ${audienceSql(send.audience as PushAudience)}
    ORDER BY d.contact_id LIMIT ${size}`,
  );
  const contactIds = [...new Set(found.map((r) => r.contact_id))];
  // Every device of each person on the page, also those past `size`: the cursor moves past whole people.
  return {
    devices: await devicesOf(ctx, send.appModeId, contactIds),
    after: contactIds[contactIds.length - 1] ?? after,
    done: found.length < size,
  };
}

/** Claims the page's devices: skipped for people who do not hear of the topic by push, else to send. Devices claimed before are left out. */
async function claim(ctx: Ctx, send: PushSend, devices: PushDevice[], now: Date): Promise<Work[]> {
  if (!devices.length) return [];
  const hearing = await whoHear(ctx, send.appModeId, send.topicKey, 'push', [...new Set(devices.map((d) => d.contactId))]);
  const state = (d: PushDevice) => (hearing.has(d.contactId) ? 'sending' : 'skipped');
  return transaction(ctx, async (tx) => {
    const claimed = await rows<{ device_id: string; state: string }>(
      tx,
      sql`
      INSERT INTO push_delivery (send_id, device_id, contact_id, state, tries, detail, at)
      SELECT ${send.id}, x.device_id, x.contact_id, x.state::"PushDeliveryState", CASE WHEN x.state = 'sending' THEN 1 ELSE 0 END, x.detail, ${now}
      FROM unnest(${devices.map((d) => d.id)}::text[], ${devices.map((d) => d.contactId)}::text[], ${devices.map(state)}::text[],
                  ${devices.map((d) => (state(d) === 'skipped' ? 'does not hear of the topic by push' : null))}::text[]) AS x(device_id, contact_id, state, detail)
      ON CONFLICT DO NOTHING
      RETURNING device_id, state`,
    );
    const skipped = claimed.filter((c) => c.state === 'skipped').length;
    if (skipped) await tx.db.pushSend.update({ where: { id: send.id }, data: { skipped: { increment: skipped } } });
    const toSend = new Set(claimed.filter((c) => c.state === 'sending').map((c) => c.device_id));
    return devices.filter((d) => toSend.has(d.id)).map((device) => ({ device, tries: 1 }));
  });
}

/**
 * Sends each device's push, PUSHES_AT_ONCE at a time. Once a provider refuses the credentials or
 * asks for a pause, its other devices in this step are not sent: they take the same outcome.
 */
async function sendAll(work: Work[], send: (device: PushDevice) => Promise<PushOutcome>): Promise<Tried[]> {
  const tried: Tried[] = [];
  const halted = new Map<string, PushOutcome>();
  let next = 0;
  const worker = async () => {
    while (next < work.length) {
      const item = work[next++]!;
      const provider = PLATFORM_PROVIDER[item.device.platform];
      let outcome = item.device.token
        ? halted.get(provider)
        : { kind: 'failed' as const, reason: 'the device was forgotten before it was sent again' };
      if (!outcome) {
        outcome = await send(item.device);
        if ((outcome.kind === 'failed' && outcome.systemic) || (outcome.kind === 'retry' && outcome.provider))
          halted.set(provider, outcome);
      }
      pushSends.inc({ provider, outcome: outcome.kind });
      tried.push({ ...item, outcome });
    }
  };
  await Promise.all(Array.from({ length: Math.min(PUSHES_AT_ONCE, work.length) }, worker));
  return tried;
}

/**
 * Past the last page: wait for the next throttled device due, or for a step that never came back to
 * be written off; else the send is done.
 */
async function afterLastPage(ctx: Ctx, send: PushSend, pause: string | null): Promise<Omit<BatchResult, 'after'>> {
  const now = ctx.clock.now();
  const stale = new Date(now.getTime() - BATCH_TIMEOUT_MS);
  // Claimed by a step that never came back: whether its push went out is not known, and it is never sent again.
  await transaction(ctx, async (tx) => {
    const lost = await tx.db.pushDelivery.updateMany({
      where: { sendId: send.id, state: 'sending', at: { lt: stale } },
      data: { state: 'failed', detail: 'interrupted: not known whether it went out; not sent again', at: now },
    });
    if (lost.count) await tx.db.pushSend.update({ where: { id: send.id }, data: { failed: { increment: lost.count } } });
  });
  const left = (await one<{ retry_at: Date | null; claimed_at: Date | null }>(
    ctx,
    sql`
    SELECT min(retry_at) FILTER (WHERE state = 'retry') AS retry_at, min(at) FILTER (WHERE state = 'sending') AS claimed_at
    FROM push_delivery WHERE send_id = ${send.id} AND state IN ('retry', 'sending')`,
  ))!;
  const next = [left.retry_at, left.claimed_at && new Date(left.claimed_at.getTime() + BATCH_TIMEOUT_MS), pause && new Date(pause)].filter(
    (d): d is Date => !!d,
  );
  if (next.length) {
    const at = new Date(Math.min(...next.map((d) => d.getTime())));
    return { finished: false, waitUntil: at > now ? at.toISOString() : null };
  }
  await ctx.db.pushSend.updateMany({ where: { id: send.id, state: 'sending' }, data: { state: 'done', finishedAt: now } });
  return { finished: true, waitUntil: null };
}
