// How a sending goes out: the size of a step, how many emails are with the mail server at once, how
// long a step may take, and how an email the server put off is tried again. Plain constants: the
// sending's decide function (which the Temporal bundle takes in) reads some of them too.

/** People a step takes from the audience. */
export const STEP_PEOPLE = 500;
/** Emails handed to the mail server at once (its connections are pooled). */
export const EMAILS_AT_ONCE = 20;
/** Emails marked posted in one statement at least (fewer only at a step's end): each is marked just before it is handed over. */
export const MARK_AT = 5;
/** Answers written at once at most, and the longest an answer waits for others before it is written. */
export const WRITE_AT = 100;
export const WRITE_MS = 50;
/** How long the process gives one step. */
export const STEP_TIMEOUT_MS = 300_000;
/** Tries of an email the mail server puts off (a 4yz answer), and the waits before each next try. */
export const MAX_TRIES = 5;
export const RETRY_WAITS_MS = [60_000, 300_000, 1_800_000, 7_200_000];
/** A step that keeps failing (the database or the mail server away) is tried again after this rest, this many rounds, before the sending is stopped. */
export const REST_MS = 60_000;
export const ROUNDS = 10;
