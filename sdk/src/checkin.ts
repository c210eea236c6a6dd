import { backoff } from './waiting.js';

/** What the guest API answers when none is given: the soonest to check in again. */
export const DEFAULT_CHECKIN_SECONDS = 20;

/**
 * When to check in: at sign-in, when the page comes to the front and after events are sent, but never
 * sooner than the last answer's `nextCheckinSeconds` allows. A check-in asked for too soon is made
 * once, when it is allowed; several asked for meanwhile are one.
 */
export class CheckinSchedule {
  private allowedAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private failures = 0;
  private stopped = false;

  /** `send` checks in and answers the seconds the service asks to wait (undefined when it could not check in). */
  constructor(
    private readonly send: () => Promise<number | undefined>,
    private readonly now: () => number = Date.now,
  ) {}

  /** Asks for a check-in: now if allowed, else once when it is. */
  request(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    const wait = this.allowedAt - this.now();
    if (wait > 0) {
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        this.request();
      }, wait);
      return;
    }
    this.running = this.run().finally(() => {
      this.running = undefined;
      if (this.again) {
        this.again = false;
        this.request();
      }
    });
  }

  /** The check-in under way, if any (tests and sign-out wait for it). */
  settled(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private async run(): Promise<void> {
    const seconds = await this.send().catch(() => undefined);
    if (seconds === undefined) {
      this.failures++;
      this.allowedAt = this.now() + backoff(this.failures);
      this.again = true;
      return;
    }
    this.failures = 0;
    this.allowedAt = this.now() + Math.max(0, seconds) * 1000;
  }
}
