import type pg from 'pg';
import type { NoticeSource } from '../services.js';
import { rows } from '../../db/sql.js';
import { CONVERSATION_CHANNEL, MAX_PARTS, VISIBLE_PARTS_AFTER, visiblePartsAfter, type ShownPart } from './parts.js';

// Long polls held in memory, per process, by conversation. A part added to a conversation NOTIFYs
// CONVERSATION_CHANNEL with its id at commit (parts.ts); every process hears it on its one LISTEN
// connection (the outbox dispatcher's) and reads what is new in that conversation once, on a
// connection kept for waits (never one of the pool the writes hold), then hands it to every wait
// on it: however many people wait on a conversation, a change costs one statement. While nothing
// changes a wait costs no database work at all. When notices may have been missed (the LISTEN
// connection dropped, and again once it listens anew), or the read failed, every wait looks itself.
// One per process (Services.caches.conversationWaits), built by openServices on the outbox
// dispatcher before its connection starts. A held wait is one small object (updates.ts): the
// waits end by one timer for all of them (their deadlines in a list, soonest first), not one each.

declare module '../services.js' {
  interface Caches {
    conversationWaits: ConversationWaits;
  }
}

/** A wait held on a conversation (updates.ts): what it is after, and how it is told. */
export interface Waiter {
  /** The seq the person holds: the wait answers the parts they may see after it. */
  readonly after: number;
  /** The conversation's app-mode, once the wait has found the conversation theirs; until then it only hears that something changed. */
  readonly appModeId: string | undefined;
  /**
   * Something changed: `parts` are the parts the person may see after `after` as read after the
   * change (oldest first, at most MAX_PARTS), or undefined when the wait must read them itself.
   */
  heard(parts: ShownPart[] | undefined): void;
}

/** A wait with a deadline: kept in the list of deadlines, soonest first, and told when its time is over. */
export interface Expiring extends Waiter {
  readonly deadline: number;
  /** Links of the deadline list (ConversationWaits only). */
  prev: Expiring | undefined;
  next: Expiring | undefined;
  /** The time is over, or the process stops: answer with nothing new. */
  expire(): void;
}

export class ConversationWaits {
  /** The waits on each conversation: the one wait itself (most conversations have one), or a set of them. */
  private readonly waiting = new Map<string, Waiter | Set<Waiter>>();
  private count = 0;
  /** The deadline list, soonest first, and the one timer set for its first. */
  private first: Expiring | undefined;
  private last: Expiring | undefined;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  /** Conversations read now, and whether another change came meanwhile (read again once it is done). */
  private readonly reading = new Map<string, boolean>();
  private stopped = false;

  /** `reads`: the connections kept for the waits' reads (without them, each wait reads on its own). */
  constructor(
    source: Pick<NoticeSource, 'onNotice'>,
    readonly reads?: pg.Pool,
  ) {
    source.onNotice(CONVERSATION_CHANNEL, (conversationId) => (conversationId ? this.changed(conversationId) : this.wakeAll()));
  }

  /** Tells `waiter` of every change of the conversation until `unwatch`, and calls its `expire` at its deadline. */
  watch(conversationId: string, waiter: Waiter | Expiring): void {
    const held = this.waiting.get(conversationId);
    if (held === undefined) this.waiting.set(conversationId, waiter);
    else if (held instanceof Set) held.add(waiter);
    else this.waiting.set(conversationId, new Set([held, waiter]));
    this.count++;
    if ('expire' in waiter) this.schedule(waiter);
  }

  /** Lets go of a wait (answered, or its client gone); nothing when it is not held. */
  unwatch(conversationId: string, waiter: Waiter | Expiring): void {
    const held = this.waiting.get(conversationId);
    if (held === waiter) this.waiting.delete(conversationId);
    else if (held instanceof Set && held.delete(waiter)) {
      if (held.size === 1) this.waiting.set(conversationId, held.values().next().value!);
    } else return;
    this.count--;
    if ('expire' in waiter) this.unschedule(waiter);
  }

  /** Waits held now (tests, metrics). */
  get size(): number {
    return this.count;
  }

  /** The process is stopping: every wait answers now (nothing new), and new ones answer at once. */
  stop(): void {
    this.stopped = true;
    for (const w of this.all()) if ('expire' in w) (w as Expiring).expire();
    this.wakeAll();
  }

  get stopping(): boolean {
    return this.stopped;
  }

  /** Into the deadline list, after every wait whose deadline is not later (the waits share one timeout: at the end). */
  private schedule(w: Expiring): void {
    let before = this.last;
    while (before && before.deadline > w.deadline) before = before.prev;
    w.prev = before;
    w.next = before ? before.next : this.first;
    if (w.next) w.next.prev = w;
    else this.last = w;
    if (before) before.next = w;
    else this.first = w;
    if (w.deadline < this.timerAt) this.arm();
  }

  private unschedule(w: Expiring): void {
    if (w.prev) w.prev.next = w.next;
    else if (this.first === w) this.first = w.next;
    else return;
    if (w.next) w.next.prev = w.prev;
    else this.last = w.prev;
    w.prev = w.next = undefined;
    // The timer stays set for the deadline it was set for: it finds nothing due then and is set for the next.
  }

  /** The one timer, for the soonest deadline. */
  private arm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
    if (!this.first) return;
    this.timerAt = this.first.deadline;
    this.timer = setTimeout(() => this.expireDue(), Math.max(0, this.timerAt - Date.now()));
    // A held wait keeps its connection open, which keeps the process running: the timer need not.
    this.timer.unref();
  }

  private expireDue(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = Date.now();
    // Each expire unwatches its wait, taking it off the front of the list.
    while (this.first && this.first.deadline <= now) {
      const w = this.first;
      w.expire();
      if (this.first === w) this.unschedule(w);
    }
    this.arm();
  }

  private waitersOf(conversationId: string): Waiter[] {
    const held = this.waiting.get(conversationId);
    return held === undefined ? [] : held instanceof Set ? [...held] : [held];
  }

  private all(): Waiter[] {
    const all: Waiter[] = [];
    for (const held of this.waiting.values()) held instanceof Set ? all.push(...held) : all.push(held);
    return all;
  }

  private changed(conversationId: string): void {
    if (!this.waiting.has(conversationId)) return;
    if (!this.reads) return this.wake(this.waitersOf(conversationId));
    if (this.reading.has(conversationId)) return void this.reading.set(conversationId, true);
    this.reading.set(conversationId, false);
    void this.readFor(conversationId).finally(() => {
      const again = this.reading.get(conversationId);
      this.reading.delete(conversationId);
      if (again) this.changed(conversationId);
    });
  }

  /** One read for every wait on the conversation: the parts after the earliest seq they hold. */
  private async readFor(conversationId: string): Promise<void> {
    // The waits held now; one that comes during the read reads for itself after the change.
    const held = this.waitersOf(conversationId);
    let appModeId: string | undefined;
    let from = Infinity;
    for (const w of held) {
      if (w.appModeId === undefined) continue;
      appModeId ??= w.appModeId;
      if (w.appModeId === appModeId && w.after < from) from = w.after;
    }
    // Nobody has found it theirs yet: they read once they have.
    if (appModeId === undefined) return this.wake(held);
    let found: ShownPart[] | undefined;
    try {
      found = await rows<ShownPart>({ pool: this.reads! }, visiblePartsAfter(conversationId, appModeId, from, MAX_PARTS), {
        prepare: VISIBLE_PARTS_AFTER,
      });
    } catch {
      found = undefined;
    }
    // A page cut at MAX_PARTS is every wait's answer only for those holding the earliest seq.
    const full = found !== undefined && found.length >= MAX_PARTS;
    for (const w of held) {
      if (found === undefined || w.appModeId !== appModeId || (full && w.after !== from)) w.heard(undefined);
      else w.heard(w.after === from ? found : found.filter((p) => p.seq > w.after));
    }
  }

  private wake(waiters: Waiter[]): void {
    for (const w of waiters) w.heard(undefined);
  }

  private wakeAll(): void {
    for (const w of this.all()) w.heard(undefined);
  }
}
