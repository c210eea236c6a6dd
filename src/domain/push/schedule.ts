// How a send goes out: the size of a step, how many pushes are in flight at once, how long a step
// may take, and how often a throttled device is tried. Plain constants: the send's decide function
// (which the Temporal bundle takes in) reads them too.

/** Devices a step takes from the audience (whole people: a little more when a person's devices straddle the edge). */
export const BATCH_DEVICES = 500;
/** Pushes in flight at once in a step. */
export const PUSHES_AT_ONCE = 100;
/** Devices claimed at once, a chunk ahead of their posts. */
export const CLAIM_DEVICES = 100;
/** Answers written in one transaction at most, and the longest a written answer waits for others. */
export const WRITE_AT = 500;
export const WRITE_MS = 20;
/** Answer writes at once in a step. */
export const WRITERS = 1;
/** How long the process gives one step; a device claimed longer ago than this by a step that never came back is written off. */
export const BATCH_TIMEOUT_MS = 120_000;
/** Tries per device when it is throttled or the provider is unavailable. */
export const MAX_TRIES = 5;
/** A step that keeps failing (the database away) is tried again after this rest, this many rounds, before the send is stopped. */
export const REST_MS = 60_000;
export const ROUNDS = 10;
