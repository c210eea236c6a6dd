import type { NoticeSource } from '../services.js';

// Long polls held in memory, per process, by conversation. A part added to a conversation NOTIFYs
// CONVERSATION_CHANNEL with its id at commit (parts.ts); every process hears it on its one LISTEN
// connection (the outbox dispatcher's) and wakes the waits on that conversation, which then read
// what is new. While nothing changes a wait costs no database work at all. When notices may have
// been missed (the LISTEN connection dropped, and again once it listens anew) every wait looks.
// One per process (Services.caches.conversationWaits), built by openServices on the outbox
// dispatcher before its connection starts.

export const CONVERSATION_CHANNEL = 'crm_conversation';

declare module '../services.js' {
  interface Caches {
    conversationWaits: ConversationWaits;
  }
}

export class ConversationWaits {
  private readonly waiting = new Map<string, Set<() => void>>();
  private stopped = false;

  constructor(source: Pick<NoticeSource, 'onNotice'>) {
    source.onNotice(CONVERSATION_CHANNEL, (conversationId) => (conversationId ? this.wake(conversationId) : this.wakeAll()));
  }

  /** Calls `woken` at every change of the conversation until the answer is called. */
  watch(conversationId: string, woken: () => void): () => void {
    let set = this.waiting.get(conversationId);
    if (!set) this.waiting.set(conversationId, (set = new Set()));
    set.add(woken);
    return () => {
      set.delete(woken);
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

  private wake(conversationId: string): void {
    for (const woken of this.waiting.get(conversationId) ?? []) woken();
  }

  private wakeAll(): void {
    for (const set of [...this.waiting.values()]) for (const woken of [...set]) woken();
  }
}
