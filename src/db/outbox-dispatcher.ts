import { EventEmitter, on } from 'node:events';
import pg from 'pg';
import { OUTBOX_CHANNEL } from '../domain/outbox.js';

// Reads the outbox in order and hands each row to what listens:
// - in this process, live subscriptions and long-poll wakes (`watch`), from a cursor that starts
//   at the head when the process starts;
// - once in the whole cluster, consumers such as "start the processes these rows ask for" and
//   webhook delivery (`consume`), from a cursor kept in outbox_consumer and advanced under its
//   row's lock, so one process at a time serves a consumer and a crash re-delivers, never skips.
// Rows are taken in (tx_id, id) order, only below the oldest transaction still running: a row
// whose transaction commits late has a lower position than anything read after it, so none is
// ever passed over. Every emit NOTIFYs; a pass also runs every POLL_MS, which covers a LISTEN
// connection lost for a while.

export interface OutboxRow {
  id: bigint;
  txId: bigint;
  appModeId: string;
  topic: string;
  externalId: string | null;
  data: Record<string, unknown>;
  createdAt: Date;
}

/** Handles rows at least once: a failure re-delivers them on the next pass. */
export type OutboxConsumer = (rows: OutboxRow[]) => Promise<void>;

const POLL_MS = 1_000;
const BATCH = 500;

const READ = `
  SELECT id, tx_id AS "txId", app_mode_id AS "appModeId", topic, external_id AS "externalId", data, created_at AS "createdAt"
  FROM outbox_event
  WHERE (tx_id, id) > ($1::bigint, $2::bigint) AND tx_id < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
  ORDER BY tx_id, id LIMIT ${BATCH}`;

const fromPg = (r: OutboxRow & { id: string; txId: string }): OutboxRow => ({ ...r, id: BigInt(r.id), txId: BigInt(r.txId) });

export class OutboxDispatcher {
  private readonly local = new EventEmitter();
  private readonly consumers = new Map<string, OutboxConsumer>();
  private cursor: { txId: bigint; id: bigint } | undefined;
  private listener: pg.Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private closed = false;

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
      `SELECT coalesce(max(tx_id), 0) AS "txId", coalesce(max(id), 0) AS id FROM outbox_event WHERE tx_id < pg_snapshot_xmin(pg_current_snapshot())::text::bigint`,
    );
    this.cursor = { txId: BigInt(rows[0]!.txId), id: BigInt(rows[0]!.id) };
    await this.listen();
    this.schedule();
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

  /** Until every row visible now has been handed to every listener and consumer. */
  async drain(): Promise<void> {
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
      const { rows } = await this.pool.query(READ, [this.cursor!.txId, this.cursor!.id]);
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
      await client.query('INSERT INTO outbox_consumer (name) VALUES ($1) ON CONFLICT (name) DO NOTHING', [name]);
      // Another process serving this consumer holds the row: it will hand the rows on.
      const held = await client.query<{ txId: string; lastId: string }>(
        'SELECT tx_id AS "txId", last_id AS "lastId" FROM outbox_consumer WHERE name = $1 FOR UPDATE SKIP LOCKED',
        [name],
      );
      if (!held.rows[0]) return void (await client.query('ROLLBACK'));
      let at = { txId: BigInt(held.rows[0].txId), id: BigInt(held.rows[0].lastId) };
      for (;;) {
        const rows = (await client.query(READ, [at.txId, at.id])).rows.map(fromPg);
        if (rows.length) {
          await consumer(rows);
          const last = rows[rows.length - 1]!;
          at = { txId: last.txId, id: last.id };
          await client.query('UPDATE outbox_consumer SET tx_id = $2, last_id = $3, updated_at = now() WHERE name = $1', [name, at.txId, at.id]);
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
    client.on('notification', () => this.wake());
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    await client.connect();
    await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
    this.listener = client;
  }

  /** The LISTEN connection dropped: listen again, then catch up with what was missed meanwhile. */
  private lost(client: pg.Client): void {
    if (this.closed || this.listener !== client) return;
    this.listener = undefined;
    this.relisten();
  }

  private relisten(): void {
    setTimeout(() => void this.listen().then(() => this.wake(), () => this.relisten()), POLL_MS).unref();
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
