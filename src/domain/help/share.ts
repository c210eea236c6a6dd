import type pg from 'pg';
import { DomainError } from '../errors.js';

// Help searches read more than any other public request, and anyone may send them. So they run on
// connections of their own (the database's search pool, a few per process), never taking one of the
// main pool from other requests, each statement there stopped after SEARCH_TIMEOUT_MS; and one
// app-mode's searches must not take every one of those from the other apps: in each process an
// app-mode runs at most `running` searches at once, more wait in line (at most `waiting`, each at
// most WAIT_MS) for their turn, and beyond the line, or past the wait or the time, they are
// answered 503 `unavailable` with Retry-After.

/** The longest a statement of a search may run (a search takes milliseconds): past it, 503 `unavailable`. */
export const SEARCH_TIMEOUT_MS = 2_000;

/** How long a search waits in line for its turn. */
export const WAIT_MS = 2_000;
/** Searches of one app-mode waiting in line in one process. */
export const WAITING = 50;
/** Seconds a refused search is told to wait. */
export const RETRY_AFTER_SECONDS = 1;

declare module '../services.js' {
  interface Caches {
    /** Help searches running and waiting, per app-mode, in this process. */
    helpSearches: HelpSearchShares;
  }
}

export const searchBusy = (
  detail = 'Too many searches of this help center are running; nothing was done. Send it again after Retry-After.',
) => new DomainError(503, 'unavailable', 'Try again', detail, [], { 'Retry-After': String(RETRY_AFTER_SECONDS) });

interface Share {
  running: number;
  line: { go: () => void; timer: NodeJS.Timeout }[];
}

export class HelpSearchShares {
  private readonly shares = new Map<string, Share>();
  /**
   * @param pool the search pool, which searches run on
   * @param running searches one app-mode runs at once (a share of the search pool)
   * @param waiting searches of one app-mode that wait in line, beyond those running
   */
  constructor(
    readonly pool: pg.Pool,
    readonly running: number,
    readonly waiting: number,
  ) {}

  /**
   * The search pool's size for a main pool of `size`: 4, or two fifths of a larger one. An app-mode
   * runs on half of it at once. Waiting holds no connection, so the line is long (a burst of searches
   * as people type is served in turn): what bounds it is the wait.
   */
  static poolSize = (size: number) => Math.max(4, Math.ceil(size * 0.4));
  static over(pool: pg.Pool, poolSize: number): HelpSearchShares {
    return new HelpSearchShares(pool, Math.max(1, Math.floor(poolSize / 2)), WAITING);
  }

  /** Runs `search` in the app-mode's turn: at once, after waiting in line, or never (503). */
  async run<T>(appModeId: string, search: () => Promise<T>): Promise<T> {
    let share = this.shares.get(appModeId);
    if (!share) this.shares.set(appModeId, (share = { running: 0, line: [] }));
    if (share.running < this.running) share.running++;
    else if (share.line.length >= this.waiting) throw searchBusy();
    else await this.queue(share);
    try {
      return await search();
    } finally {
      // The turn passes to the first in line, else it is given back.
      const next = share.line.shift();
      if (next) {
        clearTimeout(next.timer);
        next.go();
      } else if (--share.running === 0 && !share.line.length) this.shares.delete(appModeId);
    }
  }

  /** Waits for a turn handed over by a search that ends; refused after WAIT_MS. */
  private queue(share: Share): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const place = {
        go: resolve,
        timer: setTimeout(() => {
          share.line.splice(share.line.indexOf(place), 1);
          reject(searchBusy());
        }, WAIT_MS),
      };
      share.line.push(place);
    });
  }
}
