import { isConnectionLost } from './lost-connection.js';

// Group commit, the pattern of the guest events' groups (src/domain/events/guest-events.ts): a write
// goes at once while fewer than `inFlight` groups are being written; else it waits for one of them
// to return, and the writes that waited meanwhile (at most `max`, no two with the same key) go
// together, in one statement or one transaction: one commit, one flush to disk, one round trip or
// few. A write alone (nothing else waiting) is written as it always was. A group that fails is
// written again one write at a time, each failing or not on its own, unless its connection was cut
// (it may have committed: each write is refused as unavailable, as it would be alone).

export interface GroupOptions<I, O> {
  /** Writes in one group at most. */
  max: number;
  /** Groups being written at once. */
  inFlight: number;
  /** Writes with the same key never share a group (a later one waits for the next). */
  key?: (item: I) => string;
  /** One write, alone. */
  alone: (item: I) => Promise<O>;
  /** Two or more writes together: their outcomes in the same order. */
  together: (items: I[]) => Promise<O[]>;
}

interface Waiting<I, O> {
  item: I;
  resolve: (o: O) => void;
  reject: (err: unknown) => void;
}

export class WriteGroups<I, O> {
  private waiting: Waiting<I, O>[] = [];
  private inFlight = 0;
  constructor(private readonly opts: GroupOptions<I, O>) {}

  /** Writes waiting for a group (what a test or a gauge may read). */
  get waitingCount(): number {
    return this.waiting.length;
  }

  write(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      this.next();
    });
  }

  private next(): void {
    while (this.inFlight < this.opts.inFlight && this.waiting.length) {
      const group = this.take();
      this.inFlight++;
      void this.writeGroup(group).finally(() => {
        this.inFlight--;
        this.next();
      });
    }
  }

  /** The first `max` waiting writes with distinct keys, in the order they came. */
  private take(): Waiting<I, O>[] {
    const { key, max } = this.opts;
    if (!key) return this.waiting.splice(0, max);
    const keys = new Set<string>();
    const group: Waiting<I, O>[] = [];
    const left: Waiting<I, O>[] = [];
    for (const w of this.waiting) {
      const k = key(w.item);
      if (group.length < max && !keys.has(k)) {
        keys.add(k);
        group.push(w);
      } else left.push(w);
    }
    this.waiting = left;
    return group;
  }

  private async writeGroup(group: Waiting<I, O>[]): Promise<void> {
    if (group.length > 1) {
      let outcome: O[] | undefined;
      let lost: unknown;
      try {
        outcome = await this.opts.together(group.map((g) => g.item));
      } catch (err) {
        if (isConnectionLost(err)) lost = err;
      }
      if (lost) return group.forEach((g) => g.reject(lost));
      if (outcome && outcome.length === group.length) {
        group.forEach((g, i) => g.resolve(outcome[i]!));
        return;
      }
    }
    await Promise.all(group.map((g) => this.opts.alone(g.item).then(g.resolve, g.reject)));
  }
}
