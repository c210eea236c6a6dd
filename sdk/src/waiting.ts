/** Resolves after `ms`, or rejects with the signal's reason when it is aborted first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', aborted);
      resolve();
    }
    function aborted() {
      clearTimeout(timer);
      reject(signal!.reason);
    }
    signal?.addEventListener('abort', aborted, { once: true });
  });
}

/** The pause before the n-th try again (1 s, 2 s, 4 s … up to 30 s), with up to a quarter more at random. */
export function backoff(tries: number, random: () => number = Math.random): number {
  const base = Math.min(30_000, 1000 * 2 ** Math.max(0, tries - 1));
  return Math.round(base * (1 + random() / 4));
}

import { isOnline, pageWindow } from './browser.js';

/** Resolves at once when the browser believes it is online (or there is no browser), else when it comes back. */
export function untilOnline(signal?: AbortSignal): Promise<void> {
  const window = pageWindow();
  if (!window || isOnline()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const back = () => {
      signal?.removeEventListener('abort', aborted);
      resolve();
    };
    const aborted = () => {
      window.removeEventListener('online', back);
      reject(signal!.reason);
    };
    window.addEventListener('online', back, { once: true });
    signal?.addEventListener('abort', aborted, { once: true });
  });
}
