import { backoff } from './waiting.js';

/** One product event as the guest API takes it (`EventBody`). */
export interface GuestEvent {
  id: string;
  name: string;
  occurred_at: string;
  props: Record<string, string>;
}

/** What became of one batch sent: kept (some may be refused one by one), to send again later, or refused whole. */
export type BatchOutcome = 'sent' | 'again' | 'refused';

/** The guest API's largest batch. */
export const MAX_BATCH = 50;
/** Events held at most while they cannot be sent; beyond it the oldest go (an event older than a week is refused anyway). */
export const MAX_HELD = 1000;
/** A batch is sent this long after its first event, unless it fills first. */
export const BATCH_DELAY_MS = 2000;
/** A keepalive request may carry this much (browsers allow 64 KiB for all of a page's at once). */
const KEEPALIVE_BYTES = 60_000;

export interface EventQueueOptions {
  /** Sends one batch, oldest first; keepalive when the page is being hidden. */
  post(events: GuestEvent[], keepalive: boolean): Promise<BatchOutcome>;
  /** After a batch is kept (the SDK checks in then). */
  sent?(): void;
  now?: () => Date;
  uuid?: () => string;
}

/**
 * Product events, held in the order they happened and sent in batches of at most 50, oldest first,
 * each with a UUID drawn when it happened so a batch sent twice is kept once.
 */
export class EventQueue {
  private held: GuestEvent[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private sending: Promise<void> | undefined;
  private failures = 0;
  /** Events let go because more than MAX_HELD waited. */
  dropped = 0;

  constructor(private readonly options: EventQueueOptions) {}

  get waiting(): number {
    return this.held.length;
  }

  track(name: string, props: Record<string, string> = {}): GuestEvent {
    const now = this.options.now?.() ?? new Date();
    const event = { id: (this.options.uuid ?? (() => crypto.randomUUID()))(), name, occurred_at: now.toISOString(), props };
    this.held.push(event);
    if (this.held.length > MAX_HELD) this.dropped += this.held.splice(0, this.held.length - MAX_HELD).length;
    if (this.held.length >= MAX_BATCH) void this.flush();
    else this.later(BATCH_DELAY_MS);
    return event;
  }

  /** Sends every held event now, a batch at a time; resolves when the queue is empty or a batch must wait. */
  flush(): Promise<void> {
    this.sending ??= this.sendAll().finally(() => (this.sending = undefined));
    return this.sending;
  }

  /**
   * The page is being hidden and may be gone soon: every held batch goes at once with keepalive, so it
   * is sent even if the page is closed. They stay held until kept, in case the page stays; one also
   * under way in an ordinary send is kept once by its id.
   */
  flushOnHide(): void {
    for (let i = 0; i < this.held.length; i += MAX_BATCH) {
      const batch = this.held.slice(i, i + MAX_BATCH);
      const keepalive = JSON.stringify(batch).length < KEEPALIVE_BYTES;
      void this.options.post(batch, keepalive).then((outcome) => outcome !== 'again' && this.forget(batch));
    }
  }

  private async sendAll(): Promise<void> {
    this.cancelTimer();
    while (this.held.length) {
      const batch = this.held.slice(0, MAX_BATCH);
      const outcome = await this.options.post(batch, false).catch((): BatchOutcome => 'again');
      if (outcome === 'again') {
        this.failures++;
        this.later(backoff(this.failures));
        return;
      }
      this.failures = 0;
      this.forget(batch);
      if (outcome === 'sent') this.options.sent?.();
    }
  }

  private forget(batch: GuestEvent[]): void {
    const ids = new Set(batch.map((e) => e.id));
    this.held = this.held.filter((e) => !ids.has(e.id));
  }

  private later(ms: number): void {
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, ms);
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Stops the timer (sign-out, or the client closed); what is held is kept. */
  stop(): void {
    this.cancelTimer();
  }
}
