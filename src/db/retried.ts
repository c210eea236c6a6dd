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

/**
 * Work done in parts, each part its own statement (or short transaction) tried again through a cut
 * connection like `retried`: `part(n)` does at most `n` of what is left and answers whether any is
 * left after it. A part that fails is tried again at half its size (down to one), and the parts grow
 * back to `most` as they go through: a write too long to fit between cuts gets short enough to fit,
 * and each part that went through stays done when a later one fails. `part` must be safe to repeat.
 */
export async function retriedInParts(most: number, part: (n: number) => Promise<boolean>): Promise<void> {
  let size = Math.max(1, most);
  for (let failed = 0; ;) {
    let more: boolean;
    try {
      more = await part(size);
    } catch (err) {
      if (++failed >= DB_TRIES) throw err;
      size = Math.max(1, Math.ceil(size / 2));
      await sleep(50 * 2 ** failed);
      continue;
    }
    if (!more) return;
    failed = 0;
    size = Math.min(most, size * 2);
  }
}
