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
// dispatcher before its connection starts.

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

export class ConversationWaits {
  private readonly waiting = new Map<string, Set<Waiter>>();
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

  /** Tells `waiter` of every change of the conversation until the answer is called. */
  watch(conversationId: string, waiter: Waiter): () => void {
    let set = this.waiting.get(conversationId);
    if (!set) this.waiting.set(conversationId, (set = new Set()));
    set.add(waiter);
    return () => {
      set.delete(waiter);
      if (!set.size && this.waiting.get(conversationId) === set) this.waiting.delete(conversationId);
    };
  }

  /** Waits held now (tests, metrics). */
  get size(): number {
    let n = 0;
    for (const set of this.waiting.values()) n += set.size;
    return n;
  }

  /** The process is stopping: every wait answers now, and new ones answer at once. */
  stop(): void {
    this.stopped = true;
    this.wakeAll();
  }

  get stopping(): boolean {
    return this.stopped;
  }

  private changed(conversationId: string): void {
    if (!this.waiting.has(conversationId)) return;
    if (!this.reads) return this.wake([...this.waiting.get(conversationId)!]);
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
    const held = [...(this.waiting.get(conversationId) ?? [])];
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
    for (const set of [...this.waiting.values()]) for (const w of [...set]) w.heard(undefined);
  }
}
