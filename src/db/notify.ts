import { EventEmitter, on } from 'node:events';
import pg from 'pg';

// Live fan-out between server processes through PostgreSQL LISTEN/NOTIFY. A change publishes
// inside its own transaction, so listeners hear of it only once it is committed. Payloads carry
// a topic and an id; subscribers read what they need from the database.

export interface Notice {
  topic: string;
  id: string;
}

const CHANNEL = 'crm_events';
type Tx = { $executeRaw(query: TemplateStringsArray, ...values: unknown[]): Promise<number> };

export class Notifier {
  private readonly local = new EventEmitter();
  private client: pg.Client | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(private readonly url: string) {
    this.local.setMaxListeners(0);
  }

  /** Publishes within the caller's transaction (or on its own when given the client itself). */
  async publish(tx: Tx, notice: Notice): Promise<void> {
    await tx.$executeRaw`SELECT pg_notify(${CHANNEL}, ${JSON.stringify(notice)})`;
  }

  async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    client.on('notification', (msg) => {
      if (!msg.payload) return;
      const notice = JSON.parse(msg.payload) as Notice;
      this.local.emit(key(notice.topic, notice.id), notice);
    });
    client.on('error', () => this.reconnect());
    client.on('end', () => this.reconnect());
    await client.connect();
    await client.query(`LISTEN ${CHANNEL}`);
    this.client = client;
  }

  private reconnect(): void {
    if (this.closed || this.retry) return;
    this.client = undefined;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.listen().catch(() => this.reconnect());
    }, 1000);
  }

  /** Notices of one topic and id, for as long as the signal is not aborted. */
  async *watch(topic: string, id: string, signal?: AbortSignal): AsyncGenerator<Notice> {
    try {
      for await (const [notice] of on(this.local, key(topic, id), { signal })) yield notice as Notice;
    } catch (err) {
      if ((err as Error).name !== 'AbortError') throw err;
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    await this.client?.end().catch(() => {});
  }
}

const key = (topic: string, id: string) => `${topic}:${id}`;
