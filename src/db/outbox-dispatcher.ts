import { EventEmitter, on } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';

// Reads the outbox in order and hands each row to what listens:
// - in this process, live subscriptions and long-poll wakes (`watch`, `hear`), from a cursor that
//   starts at the head when the process starts; a live subscriber that names a version it saw
//   (`follow`) first gets the kept rows after it, read from the table;
// - once in the whole cluster, consumers such as "start the processes these rows ask for" and
//   webhook delivery (`consume`), from a cursor kept in outbox_consumer and advanced under its
//   row's lock, so one process at a time serves a consumer and a crash re-delivers, never skips.
// Rows are taken in (tx_id, id) order, only below the oldest transaction still running in this
// database (crm_outbox_horizon, in the reading statement's own snapshot): a row
// whose transaction commits late has a lower position than anything read after it, so none is
// ever passed over. Every emit NOTIFYs; a pass also runs every POLL_MS, which covers a LISTEN
// connection lost for a while.

/** Every commit that wrote outbox rows NOTIFYs this channel (emit, src/domain/outbox.ts): each process's dispatcher wakes. */
export const OUTBOX_CHANNEL = 'crm_outbox';

/** How long rows are kept once every cluster-wide consumer has passed them (live subscribers may resume from them). */
export const OUTBOX_KEEP_DAYS = 7;

export interface OutboxRow {
  id: bigint;
  txId: bigint;
  appModeId: string;
  topic: string;
  externalId: string | null;
  data: Record<string, unknown>;
  createdAt: Date;
}

/** Where a row sits in the outbox: rows are read, and live subscribers served, in this order. */
export interface Position {
  txId: bigint;
  id: bigint;
}

/**
 * What a live subscriber is handed (`follow`): each change after the last it had, as its row, or
 * `reload`: what it had may be stale (it named nothing to resume from, its version is older than
 * the outbox keeps, or it fell too far behind), so it reads the whole state again. The version is
 * what it names to resume from; versions of one subscription increase (as strings too).
 */
export type FollowStep = { version: string; row: OutboxRow } | { version: string; reload: true };

/** A version: the position (fixed-width hex, so versions compare as strings) and the time of the row or read it stands for. */
export const versionOf = (at: Position, time: Date): string =>
  `${at.txId.toString(16).padStart(16, '0')}${at.id.toString(16).padStart(16, '0')}-${time.getTime().toString(36)}`;

/** The position and time a version names, or undefined when it is not one this service gave. */
export function parseVersion(version: string): { at: Position; time: Date } | undefined {
  const m = /^([0-9a-f]{16})([0-9a-f]{16})-([0-9a-z]{1,11})$/.exec(version);
  if (!m) return undefined;
  return { at: { txId: BigInt(`0x${m[1]}`), id: BigInt(`0x${m[2]}`) }, time: new Date(parseInt(m[3]!, 36)) };
}

const versions = new WeakMap<OutboxRow, string>();
/** A row's version, made once for all its followers in the process. */
function rowVersion(row: OutboxRow): string {
  let version = versions.get(row);
  if (!version) versions.set(row, (version = versionOf(row, row.createdAt)));
  return version;
}

const after = (a: Position, b: Position) => a.txId > b.txId || (a.txId === b.txId && a.id > b.id);

/**
 * Whether a transaction's changes were visible in a snapshot (`pg_current_snapshot()::text`,
 * `xmin:xmax:xip,…`): a state read in that snapshot already shows that transaction's rows.
 */
export function seenBy(snapshot: string): (txId: bigint) => boolean {
  const [xmin, xmax, xip] = snapshot.split(':').map((part, i) => (i < 2 ? BigInt(part) : part)) as [bigint, bigint, string | undefined];
  const running = new Set((xip ?? '').split(',').filter(Boolean));
  return (txId) => txId < xmin || (txId < xmax && !running.has(String(txId)));
}

/** Versions older than this before the keep time runs out are not resumed: a transaction can write a row with an earlier time than a row placed before it. */
const RESUME_MARGIN_MS = 3_600_000;
/** Live subscribers woken per turn of the event loop: requests (the change's own answer among them) are served between turns. */
const WAKE_AT_ONCE = 500;
/** At most how long this process's live subscribers wait for the answer of a request that emitted (holdFor). */
const HOLD_MS = 50;
/** A live subscriber this many rows behind (a stalled socket) is told to reload rather than held in memory. */
const MAX_BEHIND = 10_000;

/** Handles rows at least once: a failure re-delivers them on the next pass. */
export type OutboxConsumer = (rows: OutboxRow[]) => Promise<void>;

const POLL_MS = 1_000;
const BATCH = 500;

const READ = `
  SELECT id, tx_id AS "txId", app_mode_id AS "appModeId", topic, external_id AS "externalId", data, created_at AS "createdAt"
  FROM outbox_event
  WHERE (tx_id, id) > ($1::bigint, $2::bigint) AND tx_id < (SELECT crm_outbox_horizon())
  ORDER BY tx_id, id LIMIT ${BATCH}`;

const fromPg = (r: OutboxRow & { id: string; txId: string }): OutboxRow => ({ ...r, id: BigInt(r.id), txId: BigInt(r.txId) });

export class OutboxDispatcher {
  private readonly local = new EventEmitter();
  private readonly consumers = new Map<string, OutboxConsumer>();
  /** Consumers whose cursor's row this process has seen committed. */
  private readonly made = new Set<string>();
  private cursor: { txId: bigint; id: bigint } | undefined;
  private listener: pg.Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private closed = false;
  private readonly waking: (() => void)[] = [];
  private readonly notices = new Map<string, ((payload: string | undefined) => void)[]>();
  /** Requests of this process that emitted, until their answers have gone (at most HOLD_MS each). */
  private readonly answering = new Map<() => Promise<void>, Promise<unknown>>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly url: string,
    private readonly onError: (err: unknown) => void = () => {},
  ) {
    this.local.setMaxListeners(0);
  }

  /** Starts hearing the outbox: from its head now, woken by every commit that emitted. */
  async start(): Promise<void> {
    const { rows } = await this.pool.query<{ txId: string; id: string }>(
      `SELECT coalesce(max(tx_id), 0) AS "txId", coalesce(max(id), 0) AS id FROM outbox_event WHERE tx_id < (SELECT crm_outbox_horizon())`,
    );
    this.cursor = { txId: BigInt(rows[0]!.txId), id: BigInt(rows[0]!.id) };
    await this.listen();
    this.schedule();
  }

  /**
   * Another channel on the same LISTEN connection: `heard(payload)` for each NOTIFY on it, and
   * `heard(undefined)` when notices may have been missed (the connection dropped, and again once it
   * listens anew). Register before `start`.
   */
  onNotice(channel: string, heard: (payload: string | undefined) => void): void {
    if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
    const known = this.notices.get(channel);
    if (known) known.push(heard);
    else {
      this.notices.set(channel, [heard]);
      void this.listener?.query(`LISTEN ${channel}`).catch(() => {});
    }
  }

  /** Whether the LISTEN connection is up: notices are being heard. */
  get listening(): boolean {
    return this.listener !== undefined && !this.closed;
  }

  private missed(): void {
    for (const handlers of this.notices.values()) for (const heard of handlers) heard(undefined);
  }

  /**
   * A request of this process emitted: this process hands rows to its live subscribers and
   * long-poll waits once that request's answer has gone, or HOLD_MS after this, whichever is first.
   * Waking thousands of subscribers holds the event loop for tens of milliseconds; the change's
   * own answer goes first, not behind them. (Consumers, and other processes, do not wait.)
   */
  holdFor(answered: () => Promise<void>): void {
    if (this.answering.has(answered)) return;
    const gone = Promise.race([answered(), delay(HOLD_MS, undefined, { ref: false })]);
    this.answering.set(answered, gone);
    void gone.then(() => this.answering.delete(answered));
  }

  /** A consumer the whole cluster runs once per row; registered by name (its cursor's row). */
  consume(name: string, consumer: OutboxConsumer): void {
    this.consumers.set(name, consumer);
    this.wake();
  }

  /** Rows of a topic for one app-mode, as this process reads them, until the signal aborts. */
  async *watch(topic: string, appModeId: string, signal?: AbortSignal): AsyncGenerator<OutboxRow> {
    try {
      for await (const [row] of on(this.local, `${topic}:${appModeId}`, { signal })) yield row as OutboxRow;
    } catch (err) {
      if ((err as Error).name !== 'AbortError') throw err;
    }
  }

  /** Calls `handle` with each row of a topic for one app-mode as this process reads it; answers the way to stop. */
  hear(topic: string, appModeId: string, handle: (row: OutboxRow) => void): () => void {
    const key = `${topic}:${appModeId}`;
    this.local.on(key, handle);
    return () => void this.local.off(key, handle);
  }

  /**
   * A live subscriber's steps (FollowStep): the changes after `after` from the outbox, then each
   * new one as this process reads it, in outbox order, each once, until the signal aborts. Without
   * `after`, or with one older than the outbox keeps, a `reload` comes first. Changes heard while
   * the kept ones are read wait in memory, so none falls between the two.
   */
  async *follow(
    topic: string,
    appModeId: string,
    opts: { after?: { at: Position; time: Date }; now: Date; signal: AbortSignal },
  ): AsyncGenerator<FollowStep> {
    if (!this.cursor) throw new Error('the outbox is not being read: open the services with listen');
    let heard: OutboxRow[] = [];
    let wake: (() => void) | undefined;
    const stop = this.hear(topic, appModeId, (row) => {
      heard.push(row);
      if (wake) this.inTurn(wake);
      wake = undefined;
    });
    // Everything up to here was handed on before the listener came; everything after reaches it.
    const head = this.cursor;
    const onAbort = () => wake?.();
    opts.signal.addEventListener('abort', onAbort);
    try {
      let last = head;
      const keptSince = opts.now.getTime() - OUTBOX_KEEP_DAYS * 86_400_000 + RESUME_MARGIN_MS;
      if (!opts.after || opts.after.time.getTime() < keptSince) yield { version: versionOf(head, opts.now), reload: true };
      else if (after(head, opts.after.at)) {
        for await (const row of this.kept(topic, appModeId, opts.after.at, head)) {
          if (opts.signal.aborted) return;
          yield { version: rowVersion(row), row };
        }
      } else last = opts.after.at; // the subscriber was served by a process ahead of this one
      for (;;) {
        if (heard.length > MAX_BEHIND) {
          last = heard[heard.length - 1]!;
          heard = [];
          yield { version: versionOf(last, opts.now), reload: true };
        }
        const rows = heard;
        heard = [];
        for (const row of rows) {
          if (opts.signal.aborted) return;
          if (!after(row, last)) continue;
          last = row;
          yield { version: rowVersion(row), row };
        }
        if (opts.signal.aborted) return;
        if (!heard.length) await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
    } finally {
      stop();
      opts.signal.removeEventListener('abort', onAbort);
    }
  }

  /** Runs `fn` in a coming turn of the event loop, WAKE_AT_ONCE at a time. */
  private inTurn(fn: () => void): void {
    if (this.waking.push(fn) > 1) return;
    const turn = () =>
      setImmediate(() => {
        for (const next of this.waking.splice(0, WAKE_AT_ONCE)) next();
        if (this.waking.length) turn();
      });
    turn();
  }

  /** The kept rows of a topic for one app-mode in (from, to], in order. */
  private async *kept(topic: string, appModeId: string, from: Position, to: Position): AsyncGenerator<OutboxRow> {
    let at = from;
    for (;;) {
      const { rows } = await this.pool.query(
        `SELECT id, tx_id AS "txId", app_mode_id AS "appModeId", topic, external_id AS "externalId", data, created_at AS "createdAt"
         FROM outbox_event
         WHERE app_mode_id = $1 AND topic = $2 AND (tx_id, id) > ($3::bigint, $4::bigint) AND (tx_id, id) <= ($5::bigint, $6::bigint)
         ORDER BY tx_id, id LIMIT ${BATCH}`,
        [appModeId, topic, at.txId, at.id, to.txId, to.id],
      );
      for (const row of rows.map(fromPg)) yield (at = row);
      if (rows.length < BATCH) return;
    }
  }

  /** A pass now (and one more after it when one is running). */
  wake(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass()
      .catch(this.onError)
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.wake();
        }
      });
  }

  /** Until every row committed by now has been handed to every listener and consumer. */
  async drain(): Promise<void> {
    // A committed row waits while an older transaction of this database runs (READ takes rows only
    // below the oldest): wait until the rows there now are all below it, for at most 30 s.
    const { rows } = await this.pool.query<{ top: string }>('SELECT coalesce(max(tx_id), 0) AS top FROM outbox_event');
    const top = BigInt(rows[0]!.top);
    for (const until = Date.now() + 30_000; Date.now() < until; await new Promise((r) => setTimeout(r, 20))) {
      const { rows: now } = await this.pool.query<{ oldest: string }>('SELECT crm_outbox_horizon() AS oldest');
      if (BigInt(now[0]!.oldest) > top) break;
    }
    // A pass running now may have begun before those rows: wake() asks for one more after it.
    this.wake();
    while (this.running) await this.running;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    await this.running;
    await this.listener?.end().catch(() => {});
  }

  private async pass(): Promise<void> {
    if (this.cursor) await this.broadcast();
    for (const [name, consumer] of this.consumers) await this.serve(name, consumer);
  }

  private async broadcast(): Promise<void> {
    for (;;) {
      const { rows } = await this.pool.query({ name: 'crm_outbox_read', text: READ, values: [this.cursor!.txId, this.cursor!.id] });
      if (rows.length && this.answering.size) await Promise.all(this.answering.values());
      for (const row of rows.map(fromPg)) {
        this.cursor = { txId: row.txId, id: row.id };
        this.local.emit(`${row.topic}:${row.appModeId}`, row);
      }
      if (rows.length < BATCH) return;
    }
  }

  private async serve(name: string, consumer: OutboxConsumer): Promise<void> {
    const client = await this.pool.connect();
    // A connection cut while checked out would otherwise be an unhandled error; the query in flight fails instead.
    const cut = () => {};
    client.on('error', cut);
    let failed: unknown;
    try {
      await client.query('BEGIN');
      // Its cursor's row, made once: a pass of a busy process then costs a round trip less.
      if (!this.made.has(name)) await client.query('INSERT INTO outbox_consumer (name) VALUES ($1) ON CONFLICT (name) DO NOTHING', [name]);
      // Another process serving this consumer holds the row: it will hand the rows on.
      const held = await client.query<{ txId: string; lastId: string }>(
        'SELECT tx_id AS "txId", last_id AS "lastId" FROM outbox_consumer WHERE name = $1 FOR UPDATE SKIP LOCKED',
        [name],
      );
      if (!held.rows[0]) return void (await client.query('ROLLBACK'));
      this.made.add(name);
      let at = { txId: BigInt(held.rows[0].txId), id: BigInt(held.rows[0].lastId) };
      for (;;) {
        const rows = (await client.query({ name: 'crm_outbox_read', text: READ, values: [at.txId, at.id] })).rows.map(fromPg);
        if (rows.length) {
          await consumer(rows);
          const last = rows[rows.length - 1]!;
          at = { txId: last.txId, id: last.id };
          await client.query('UPDATE outbox_consumer SET tx_id = $2, last_id = $3, updated_at = now() WHERE name = $1', [
            name,
            at.txId,
            at.id,
          ]);
        }
        if (rows.length < BATCH) break;
      }
      await client.query('COMMIT');
    } catch (err) {
      failed = err;
      await client.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      client.off('error', cut);
      // A failed connection is dropped rather than handed out again.
      client.release(failed instanceof Error ? failed : undefined);
    }
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (msg) => {
      if (msg.channel === OUTBOX_CHANNEL) return this.wake();
      for (const heard of this.notices.get(msg.channel) ?? []) heard(msg.payload);
    });
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    await client.connect();
    await client.query([OUTBOX_CHANNEL, ...this.notices.keys()].map((channel) => `LISTEN ${channel};`).join(' '));
    this.listener = client;
  }

  /** The LISTEN connection dropped: listen again, then catch up with what was missed meanwhile. */
  private lost(client: pg.Client): void {
    if (this.closed || this.listener !== client) return;
    this.listener = undefined;
    this.missed();
    this.relisten();
  }

  private relisten(): void {
    setTimeout(
      () =>
        void this.listen().then(
          () => {
            this.missed();
            this.wake();
          },
          () => this.relisten(),
        ),
      POLL_MS,
    ).unref();
  }

  /** The safety net: a pass every POLL_MS whatever was heard. */
  private schedule(): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      this.wake();
      this.schedule();
    }, POLL_MS);
    this.timer.unref();
  }
}
