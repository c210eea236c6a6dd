import { setTimeout as sleep } from 'node:timers/promises';

// A statement (or transaction) of a long step tried again while its connection is cut: connections
// come back within a second or so, and a step of a send should not be lost for one. The statement must
// be safe to repeat.

/** Tries in all, waiting 100 ms, 200 ms, … between them (about 3 s). */
export const DB_TRIES = 6;

export async function retried<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt >= DB_TRIES) throw err;
      await sleep(50 * 2 ** attempt);
    }
  }
}
