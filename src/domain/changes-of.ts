import { setTimeout as sleep } from 'node:timers/promises';

// A live answer read again on a pace rather than told by outbox rows: for counters that move with
// every step of thousands of runs, where a row per change would cost more than the read. The value
// now, then each time a read differs from the last, until the signal aborts.

export async function* changesOf<T>(read: () => Promise<T>, everyMs: number, signal: AbortSignal): AsyncGenerator<T> {
  let last: string | undefined;
  while (!signal.aborted) {
    const value = await read();
    const seen = JSON.stringify(value);
    if (seen !== last) {
      last = seen;
      yield value;
    }
    await sleep(everyMs, undefined, { signal }).catch(() => {});
  }
}
