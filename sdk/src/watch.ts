import { isHidden, pageDocument } from './browser.js';
import { backoff, sleep } from './waiting.js';

/** What one long poll answers: the parts newer than `after` (none when it ran out), and the version they bring. */
export interface WaitAnswer<Part> {
  parts: Part[];
  last_seq: number;
}

export interface WatchOptions<Part> {
  /** The version already held (the conversation's `last_seq`). */
  after: number;
  /** One long poll; rejects with `{ status }` for an answer that is not 200. */
  wait(after: number, signal: AbortSignal): Promise<WaitAnswer<Part>>;
  onParts(parts: Part[], lastSeq: number): void;
  /** The conversation is gone or may not be seen any more (404, 403): watching stops. */
  onEnd?(status: number): void;
}

/** Statuses after which waiting again cannot help. */
const FINAL = new Set([400, 401, 403, 404]);

/**
 * Follows a conversation while it is on screen: waits (the guest API's long poll), and waits again at
 * once after each answer. While the page is hidden it pauses, and it catches up as soon as the page is
 * shown again. A failure waits a growing pause before the next try. `stop()` ends it and aborts the
 * poll under way.
 */
export function watchConversation<Part>(options: WatchOptions<Part>): { stop(): void } {
  const stopped = new AbortController();
  let after = options.after;
  let failures = 0;
  const visible = () => !isHidden();
  let shown: (() => void) | undefined;
  const onVisibility = () => visible() && shown?.();
  const document = pageDocument();
  document?.addEventListener('visibilitychange', onVisibility);

  void (async () => {
    while (!stopped.signal.aborted) {
      if (!visible()) {
        await new Promise<void>((resolve) => {
          shown = resolve;
          stopped.signal.addEventListener('abort', () => resolve(), { once: true });
        });
        shown = undefined;
        continue;
      }
      try {
        const answer = await options.wait(after, stopped.signal);
        failures = 0;
        if (answer.last_seq > after || answer.parts.length) {
          after = Math.max(after, answer.last_seq);
          options.onParts(answer.parts, answer.last_seq);
        }
      } catch (error) {
        if (stopped.signal.aborted) break;
        const status = (error as { status?: unknown }).status;
        if (typeof status === 'number' && FINAL.has(status)) {
          options.onEnd?.(status);
          break;
        }
        failures++;
        await sleep(backoff(failures), stopped.signal).catch(() => undefined);
      }
    }
    document?.removeEventListener('visibilitychange', onVisibility);
  })();

  return { stop: () => stopped.abort() };
}
