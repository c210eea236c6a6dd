import type { PostResult } from '../../lib/outbound/index.js';

// When a failed post is tried again: 10 tries in all, the waits growing, about twenty minutes
// from the first try to the last.

export const MAX_TRIES = 10;
/** The wait after try n (1-based) fails, for n = 1 … 9. */
export const RETRY_WAITS_MS = [5, 15, 30, 60, 120, 180, 240, 240, 300].map((s) => s * 1000);
/** An endpoint whose posts have all failed this long, with at least SWITCH_OFF_FAILURES of them, is switched off. */
export const SWITCH_OFF_AFTER_MS = 24 * 3_600_000;
export const SWITCH_OFF_FAILURES = 5;
/** The log keeps this many tries per endpoint. */
export const LOG_TRIES = 50;

/** Whether an answer is final though not delivered: a 4xx other than 408, 425 and 429. (Redirects are failures of their own kind.) */
export const refusedForGood = (status: number) => status >= 400 && status < 500 && ![408, 425, 429].includes(status);

/** Whether a failed try is the last: the tries spent, a redirect, or an answer refused for good. */
export const lastTry = (result: PostResult, attempt: number) =>
  attempt >= MAX_TRIES || result.failure === 'redirect' || (result.failure === undefined && refusedForGood(result.status));
