// A costly read many callers want fresh (a survey's results, folded over all its responses) shared
// within a process and paced: each caller gets the answer of a read that started after it asked,
// so the answer holds everything committed before then, but callers share reads. While one read of
// a key runs, those who ask wait for one more read after it, all together; so at most one read of a
// key runs at a time and at most one waits, however many ask and however often. A read starts no
// sooner than `everyMs` after the one before started, nor sooner after the one before ended than
// that one took (a slow read leaves the database as long again before the next).

export interface Timing {
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** Wall time: the pace of reads is the process's own concern, never the domain clock's. */
export const REAL_TIMING: Timing = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms).unref()),
};

interface Slot<T> {
  /** The read every new caller joins: it has not started yet. */
  waiting?: Promise<T>;
  /** The read running now (or the last one). */
  running?: Promise<T>;
  /** No read starts before this. */
  nextAt: number;
}

const settled = (p: Promise<unknown> | undefined) =>
  p?.then(
    () => {},
    () => {},
  );

export class CoalescedReads<K, T> {
  private readonly slots = new Map<K, Slot<T>>();

  constructor(
    private readonly everyMs: number,
    private readonly timing: Timing = REAL_TIMING,
  ) {}

  /** Reads started so far, for tests and metrics. */
  started = 0;

  /** The answer of a read of `key` that starts after this call (`read` is the first asker's: joiners share it). */
  latest(key: K, read: () => Promise<T>): Promise<T> {
    let slot = this.slots.get(key);
    if (!slot) this.slots.set(key, (slot = { nextAt: 0 }));
    if (slot.waiting) return slot.waiting;
    const s = slot;
    const before = s.running;
    const answer: Promise<T> = (async () => {
      // Awaited even with nothing before it: `waiting` is set below before anything here runs on.
      await settled(before);
      const wait = s.nextAt - this.timing.now();
      if (wait > 0) await this.timing.sleep(wait);
      // From here a new caller asks for the read after this one: this one may have begun before what it must see.
      s.running = s.waiting;
      s.waiting = undefined;
      this.started++;
      const startedAt = this.timing.now();
      try {
        return await read();
      } finally {
        const endedAt = this.timing.now();
        s.nextAt = Math.max(startedAt + this.everyMs, endedAt + (endedAt - startedAt));
        void this.forgetWhenIdle(key, s);
      }
    })();
    s.waiting = answer;
    return answer;
  }

  /** Drops an idle key's slot once its pace no longer holds a read back, so keys read once are not kept. */
  private async forgetWhenIdle(key: K, s: Slot<T>): Promise<void> {
    const wait = s.nextAt - this.timing.now();
    if (wait > 0) await this.timing.sleep(wait);
    if (!s.waiting && this.slots.get(key) === s && s.nextAt <= this.timing.now()) this.slots.delete(key);
  }

  /** How many keys are kept (idle ones go once their pace has passed). */
  get size(): number {
    return this.slots.size;
  }
}
