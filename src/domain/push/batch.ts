import { randomUUID } from 'node:crypto';
import type { PushSend } from '../../generated/prisma/client.js';
import { DEFAULT_RETRY_MS, type PushOutcome } from '../../lib/push/outcome.js';
import { retried, retriedInParts } from '../../db/retried.js';
import type { Ctx } from '../context.js';
import { devicesOf, type PushDevice } from '../devices/devices.js';
import { whoHear } from '../preferences/hears.js';
import { audienceSql, type SendAudience } from '../audiences/send-audience.js';
import { openCredentials } from './credentials.js';
import { recordInParts, settleInterrupted, type Tried } from './record.js';
import { BATCH_DEVICES, CLAIM_DEVICES, PUSHES_AT_ONCE, WRITE_AT, WRITE_MS, WRITERS } from './schedule.js';
import { pushSends } from '../../lib/process-metrics.js';
import { PLATFORM_PROVIDER, type PushSenders } from './senders.js';
import { exec, one, rows, sql } from '../../db/sql.js';

// One step of a send: the throttled devices now due again, then the next page of the audience
// (about BATCH_DEVICES devices, whole people only, in contact order from the cursor). Each device is
// claimed by a push_delivery row before its push goes out, CLAIM_DEVICES at a time a chunk ahead of
// the posts (PUSHES_AT_ONCE in flight); once posts have left, their rows say so (posted), one
// statement for the posts of each turn of the event loop; each answer is written as it comes, a few
// hundred at a time (record.ts). A device
// already claimed is never claimed again, so a step run twice sends nothing twice, and what a step
// did is kept as it goes. A step that stops (a kill, a lost lease) leaves claimed without an answer
// only the devices whose posts were in flight or not yet made: the next step counts those posted as
// sent (record.ts settleInterrupted) and sends those not posted. People who do not hear of the
// topic by push are claimed as skipped. A provider that refuses the credentials or asks for a pause
// is not sent anything more this step.
//
// Each attempt of a step claims under an id of its own, so it knows its claims again when the answer
// to one is lost (a cut connection). Every write of a step is short and stands alone, so that it fits
// between cuts of its connection and what it did outlasts the attempt: the claims, the answers and
// the settling of an interrupted step's devices are each written in parts of their own
// (retriedInParts), a part cut short tried again at half its size, so a write too long to fit between
// cuts (hundreds of answers with their notices, on a busy machine) gets short enough to fit rather
// than being cut again at every try. An attempt that fails (the database away) still waits for every
// post it made and keeps, in this server process, the answers it could not write (StepMemory): the
// next attempt here writes them first, in parts, keeping for the attempt after it only what it could
// not write either, so none of those is sent again or counted without its answer. Its claims stay in
// the rows: the next attempt, from the same cursor, leaves out the devices claimed already and takes
// up those claimed and not posted.
//
// What is left open: a kill in the moment between posts leaving and their rows saying so (one
// statement's time, for the posts of one turn of the event loop, a few devices) sends those devices
// again in the next step; a device in flight at a kill counts as sent though the provider might have
// refused it; and the first posts of a process, made while its connection to the provider is being
// opened, are marked posted a moment before they leave.

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
  /** Devices claimed at once, just before their posts leave. */
  claimSize?: number;
}

interface Work {
  device: PushDevice;
  tries: number;
}

/**
 * What one server process keeps of a send's steps between attempts: the answers an attempt could
 * not write. One attempt of a send at a time in a process.
 */
export class StepMemory {
  private readonly running = new Map<string, Promise<unknown>>();
  private readonly unwritten = new Map<string, Tried[]>();

  /** Runs `fn` once no other attempt of the send runs in this process. */
  async alone<T>(sendId: string, fn: () => Promise<T>): Promise<T> {
    for (let before = this.running.get(sendId); before; before = this.running.get(sendId)) await before.catch(() => undefined);
    const mine = fn();
    this.running.set(sendId, mine);
    try {
      return await mine;
    } finally {
      if (this.running.get(sendId) === mine) this.running.delete(sendId);
    }
  }

  keep(sendId: string, unwritten: Tried[]): void {
    if (unwritten.length) this.unwritten.set(sendId, [...(this.unwritten.get(sendId) ?? []), ...unwritten]);
  }

  /** The answers kept for the send, no longer kept. */
  take(sendId: string): Tried[] {
    const kept = this.unwritten.get(sendId) ?? [];
    this.unwritten.delete(sendId);
    return kept;
  }

  forget(sendId: string): void {
    this.unwritten.delete(sendId);
  }
}

export async function sendPushBatch(
  ctx: Ctx,
  senders: PushSenders,
  input: BatchInput,
  opts: BatchOptions = {},
  memory: StepMemory = new StepMemory(),
): Promise<BatchResult> {
  return memory.alone(input.sendId, () => step(ctx, senders, input, opts, memory));
}

async function step(ctx: Ctx, senders: PushSenders, input: BatchInput, opts: BatchOptions, memory: StepMemory): Promise<BatchResult> {
  const size = opts.batchSize ?? BATCH_DEVICES;
  const send = await retried(() => ctx.db.pushSend.findUnique({ where: { id: input.sendId } }));
  if (!send || send.state !== 'sending') {
    memory.forget(input.sendId);
    return { after: input.after, finished: true, waitUntil: null };
  }
  const claim = randomUUID();
  const now = ctx.clock.now();
  // What an earlier attempt in this process left: its answers first.
  const held = memory.take(send.id);
  const heldWritten = await recordInParts(ctx, send, held);
  if (!heldWritten.ok) {
    memory.keep(send.id, heldWritten.left);
    throw heldWritten.failure;
  }
  // Claimed by an attempt that stopped: posted, counted as sent; not posted, sent now.
  await settleInterrupted(ctx, send, claim);
  const due = await retried(() => dueAgain(ctx, send, now, size, claim));
  const carried = await retried(() => takeUp(ctx, send, now, claim));

  const work = [...new Map([...due, ...carried].map((w) => [w.device.id, w])).values()];
  const page = await retried(() => nextPage(ctx, send, input.after, size));
  const taken = new Set(work.map((w) => w.device.id));
  const fresh = page.devices.filter((d) => !taken.has(d.id));
  const hearing = fresh.length
    ? await retried(() => whoHear(ctx, send.appModeId, send.topicKey, 'push', [...new Set(fresh.map((d) => d.contactId))]))
    : new Set<string>();

  const creds = await retried(() => openCredentials(ctx, send.appModeId));
  const content = { sendId: send.id, title: send.title, body: send.body, link: send.link };
  const sent = await sendAll(ctx, send, {
    work,
    fresh,
    hearing,
    claim,
    claimSize: opts.claimSize ?? CLAIM_DEVICES,
    post: (device) => senders.send(device, creds, content, ctx.clock.now()),
    memory,
  });

  const pause = later(heldWritten.pause, sent);
  if (!page.done) return { after: page.after, finished: false, waitUntil: pause };
  return { after: page.after, ...(await retried(() => afterLastPage(ctx, send, pause))) };
}

/** The later of two times (ISO strings), either of which may be missing. */
const later = (a: string | null, b: string | null) => (a && b ? (a > b ? a : b) : (a ?? b));

/** Devices claimed by an attempt that stopped before their posts left: claimed for this one (with those it took up already, when the answer to that was lost). */
async function takeUp(ctx: Ctx, send: PushSend, now: Date, claim: string): Promise<Work[]> {
  const found = await rows<{ device_id: string; contact_id: string; tries: number }>(
    ctx,
    sql`
    UPDATE push_delivery SET claim = ${claim}, at = ${now}
    WHERE send_id = ${send.id} AND state = 'sending' AND NOT posted
    RETURNING device_id, contact_id, tries`,
  );
  return worksOf(ctx, send, found);
}

/** Throttled devices of the send due again, claimed for this attempt (and those it claimed already, when the answer to that was lost). */
async function dueAgain(ctx: Ctx, send: PushSend, now: Date, size: number, claim: string): Promise<Work[]> {
  const found = await rows<{ device_id: string; contact_id: string; tries: number }>(
    ctx,
    sql`
    WITH due AS (
      SELECT device_id FROM push_delivery WHERE send_id = ${send.id} AND state = 'retry' AND retry_at <= ${now}
      ORDER BY retry_at, device_id LIMIT ${size} FOR UPDATE SKIP LOCKED),
    taken AS (
      UPDATE push_delivery SET state = 'sending', tries = tries + 1, at = ${now}, claim = ${claim}, posted = false
      WHERE send_id = ${send.id} AND device_id IN (SELECT device_id FROM due)
      RETURNING device_id, contact_id, tries)
    SELECT device_id, contact_id, tries FROM taken
    UNION ALL
    SELECT device_id, contact_id, tries FROM push_delivery WHERE send_id = ${send.id} AND state = 'sending' AND claim = ${claim} AND NOT posted`,
  );
  return worksOf(ctx, send, found);
}

async function worksOf(ctx: Ctx, send: PushSend, found: { device_id: string; contact_id: string; tries: number }[]): Promise<Work[]> {
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
      AND ${audienceSql(send.audience as SendAudience)}
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

/**
 * Claims some of the page's devices: skipped for people who do not hear of the topic by push, else
 * to send. Devices claimed before (by another attempt) are left out; those this attempt claimed
 * already (the answer to an earlier try of this statement was lost) are answered again.
 */
async function claimSome(ctx: Ctx, send: PushSend, devices: PushDevice[], hearing: Set<string>, claim: string): Promise<Work[]> {
  const now = ctx.clock.now();
  const state = (d: PushDevice) => (hearing.has(d.contactId) ? 'sending' : 'skipped');
  const claimed = await rows<{ device_id: string; state: string }>(
    ctx,
    sql`
    WITH claimed AS (
      INSERT INTO push_delivery (send_id, device_id, contact_id, state, tries, detail, at, claim)
      SELECT ${send.id}, x.device_id, x.contact_id, x.state::"PushDeliveryState", CASE WHEN x.state = 'sending' THEN 1 ELSE 0 END, x.detail, ${now}, ${claim}
      FROM unnest(${devices.map((d) => d.id)}::text[], ${devices.map((d) => d.contactId)}::text[], ${devices.map(state)}::text[],
                  ${devices.map((d) => (state(d) === 'skipped' ? 'does not hear of the topic by push' : null))}::text[]) AS x(device_id, contact_id, state, detail)
      ON CONFLICT (send_id, device_id) DO UPDATE SET claim = EXCLUDED.claim
        WHERE push_delivery.claim = EXCLUDED.claim AND push_delivery.state IN ('sending', 'skipped')
      RETURNING device_id, state::text AS state, xmax = 0 AS inserted),
    counted AS (
      UPDATE push_send SET skipped = skipped + (SELECT count(*) FROM claimed WHERE state = 'skipped' AND inserted)
      WHERE id = ${send.id} AND EXISTS (SELECT 1 FROM claimed WHERE state = 'skipped' AND inserted))
    SELECT device_id, state FROM claimed`,
  );
  const toSend = new Set(claimed.filter((c) => c.state === 'sending').map((c) => c.device_id));
  return devices.filter((d) => toSend.has(d.id)).map((device) => ({ device, tries: 1 }));
}

interface Sending {
  /** Devices claimed already (due again, taken up from an earlier attempt). */
  work: Work[];
  /** The page's devices, claimed as there is room for their posts. */
  fresh: PushDevice[];
  hearing: Set<string>;
  claim: string;
  claimSize: number;
  post: (device: PushDevice) => Promise<PushOutcome>;
  memory: StepMemory;
}

/**
 * Sends each device's push, PUSHES_AT_ONCE at a time, claiming the page's devices as room comes,
 * and writes the answers as they come. Once a provider refuses the credentials or asks for a pause,
 * its other devices in this step are not sent: they take the same outcome. Answers until when a
 * provider asked for a pause, if one did. When the database stays away, claims no more, waits for
 * the posts made, keeps what it could not write for the next attempt, and fails.
 */
async function sendAll(ctx: Ctx, send: PushSend, s: Sending): Promise<string | null> {
  const writer = new AnswerWriter(ctx, send);
  const marks = new PostedMarks(ctx, send, s.claim);
  const halted = new Map<string, PushOutcome>();
  const inFlight = new Set<Promise<void>>();
  let freed: (() => void) | undefined;
  const room = async (n: number) => {
    while (inFlight.size > PUSHES_AT_ONCE - n) await new Promise<void>((resolve) => (freed = resolve));
  };
  const start = (item: Work) => {
    const provider = PLATFORM_PROVIDER[item.device.platform];
    const settled = item.device.token
      ? halted.get(provider)
      : { kind: 'failed' as const, reason: 'the device was forgotten before it was sent again' };
    if (settled) {
      pushSends.inc({ provider, outcome: settled.kind });
      return writer.add({ ...item, outcome: settled });
    }
    const posting: Promise<void> = s
      .post(item.device)
      .catch((err: unknown): PushOutcome => ({
        kind: 'retry',
        reason: `not sent: ${(err as Error).message}`,
        afterMs: DEFAULT_RETRY_MS,
        provider: false,
      }))
      .then((outcome) => {
        if ((outcome.kind === 'failed' && outcome.systemic) || (outcome.kind === 'retry' && outcome.provider))
          halted.set(provider, outcome);
        pushSends.inc({ provider, outcome: outcome.kind });
        writer.add({ ...item, outcome });
      })
      .finally(() => {
        inFlight.delete(posting);
        freed?.();
      });
    inFlight.add(posting);
    marks.add(item.device.id);
  };

  // The page's devices are claimed a chunk ahead of the posts (a claimed device not yet posted is
  // sent by the next step if this one stops), so the posts never wait for a claim.
  let failure: unknown;
  const chunk = Math.max(1, s.claimSize);
  const claimed: Work[] = [];
  let claiming = true;
  const waiting: (() => void)[] = [];
  const change = () => new Promise<void>((resolve) => waiting.push(resolve));
  const notify = () => waiting.splice(0).forEach((wake) => wake());
  const claimer = (async () => {
    try {
      // A chunk is claimed in parts, fewer devices at a time while connections are cut (retriedInParts).
      for (let i = 0; i < s.fresh.length;) {
        while (claimed.length >= chunk && failure === undefined) await change();
        if (failure !== undefined) return;
        if (writer.failure !== undefined) throw writer.failure;
        const end = Math.min(s.fresh.length, i + chunk);
        await retriedInParts(chunk, async (most) => {
          const part = s.fresh.slice(i, Math.min(end, i + most));
          claimed.push(...(await claimSome(ctx, send, part, s.hearing, s.claim)));
          i += part.length;
          notify();
          return i < end;
        });
      }
    } catch (err) {
      failure ??= err;
    } finally {
      claiming = false;
      notify();
    }
  })();
  try {
    for (const item of s.work) {
      await room(1);
      start(item);
    }
    while (failure === undefined && (claimed.length || claiming)) {
      if (!claimed.length) {
        await change();
        continue;
      }
      await room(1);
      start(claimed.shift()!);
      if (claimed.length < chunk) notify();
    }
  } catch (err) {
    failure ??= err;
  }
  notify();
  await claimer;
  while (inFlight.size) await Promise.all([...inFlight]);
  await marks.close();
  const written = await writer.close();
  if (!written.ok) {
    s.memory.keep(send.id, written.unwritten);
    throw failure ?? written.failure;
  }
  if (failure !== undefined) {
    throw failure;
  }
  return written.pause;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Says in the rows which pushes have left, as soon as they have: HTTP/2 writes a request's frames
 * to its connection at the end of the event loop's turn the request was made in, before the
 * callbacks of setImmediate, so the mark goes out then, one statement for the posts started
 * meanwhile, without waiting for the marks before it. A mark that fails is not tried again: the
 * answers written later say more.
 */
class PostedMarks {
  private pending: string[] = [];
  private waiting = false;
  private readonly marking = new Set<Promise<void>>();

  constructor(
    private readonly ctx: Ctx,
    private readonly send: PushSend,
    private readonly claim: string,
  ) {}

  add(deviceId: string): void {
    this.pending.push(deviceId);
    if (this.waiting) return;
    this.waiting = true;
    setImmediate(() => {
      this.waiting = false;
      const marking: Promise<void> = this.mark(this.pending.splice(0))
        .catch(() => undefined)
        .finally(() => this.marking.delete(marking));
      this.marking.add(marking);
    });
  }

  async close(): Promise<void> {
    while (this.waiting) await nextTurn();
    await Promise.all([...this.marking]);
  }

  private async mark(ids: string[]): Promise<void> {
    await exec(
      this.ctx,
      sql`
      UPDATE push_delivery SET posted = true
      WHERE send_id = ${this.send.id} AND device_id = ANY(${ids}::text[]) AND claim = ${this.claim} AND state = 'sending'`,
    );
  }
}

/**
 * Writes answers as they come: whatever gathered while the last write ran (at most WRITE_AT at
 * once, and waiting up to WRITE_MS for a few), WRITERS writes at a time. A write that keeps failing stops
 * the writer: the answers not written are handed back at close.
 */
class AnswerWriter {
  private buffer: Tried[] = [];
  private readonly unwritten: Tried[] = [];
  private pause: number | null = null;
  private closing = false;
  private waking: (() => void)[] = [];
  failure: unknown;
  private readonly loops: Promise<void>[];

  constructor(
    private readonly ctx: Ctx,
    private readonly send: PushSend,
  ) {
    this.loops = Array.from({ length: WRITERS }, () => this.run());
  }

  add(tried: Tried): void {
    this.buffer.push(tried);
    if (this.buffer.length >= WRITE_AT) this.wake();
  }

  private wake(): void {
    for (const wake of this.waking.splice(0)) wake();
  }

  async close(): Promise<{ ok: true; pause: string | null } | { ok: false; failure: unknown; unwritten: Tried[] }> {
    this.closing = true;
    this.wake();
    await Promise.all(this.loops);
    if (this.failure !== undefined) return { ok: false, failure: this.failure, unwritten: this.unwritten };
    return { ok: true, pause: this.pause === null ? null : new Date(this.pause).toISOString() };
  }

  private async run(): Promise<void> {
    for (;;) {
      if (!this.closing && this.buffer.length < WRITE_AT) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, WRITE_MS);
          this.waking.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      if (!this.buffer.length) {
        if (this.closing) return;
        continue;
      }
      const batch = this.buffer.splice(0, WRITE_AT);
      if (this.failure !== undefined) {
        this.unwritten.push(...batch);
        continue;
      }
      const written = await recordInParts(this.ctx, this.send, batch);
      if (written.pause) this.pause = Math.max(this.pause ?? 0, Date.parse(written.pause));
      if (!written.ok) {
        this.failure = written.failure;
        this.unwritten.push(...written.left);
      }
    }
  }
}

/** Past the last page: wait for the next throttled device due; else the send is done. */
async function afterLastPage(ctx: Ctx, send: PushSend, pause: string | null): Promise<Omit<BatchResult, 'after'>> {
  const now = ctx.clock.now();
  const left = (await one<{ retry_at: Date | null; claimed: boolean }>(
    ctx,
    sql`
    SELECT min(retry_at) FILTER (WHERE state = 'retry') AS retry_at, bool_or(state = 'sending') AS claimed
    FROM push_delivery WHERE send_id = ${send.id} AND state IN ('retry', 'sending')`,
  ))!;
  // Still claimed (by an attempt that was not this one): the next step settles them, at once.
  if (left.claimed) return { finished: false, waitUntil: null };
  const next = [left.retry_at, pause && new Date(pause)].filter((d): d is Date => !!d);
  if (next.length) {
    const at = new Date(Math.min(...next.map((d) => d.getTime())));
    return { finished: false, waitUntil: at > now ? at.toISOString() : null };
  }
  await ctx.db.pushSend.updateMany({ where: { id: send.id, state: 'sending' }, data: { state: 'done', finishedAt: now } });
  return { finished: true, waitUntil: null };
}
