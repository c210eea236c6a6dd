import type { Ctx, GuestCaller } from '../context.js';
import { ownConversation } from './conversations.js';
import { MAX_PARTS, visibleParts, type ShownPart } from './parts.js';
import { requireMessenger } from './settings.js';
import type { Waiter } from './waits.js';

// GET /conversations/{id}/wait: the parts newer than the version the person holds, as soon as
// there are any, or nothing once the wait is over (about 25 s). Woken by the conversation's
// notices (waits.ts), which hand it the parts read once for every wait on the conversation; a wake
// that brings nothing the person may see (a note) waits on.

export interface ConversationUpdate {
  /** At most MAX_PARTS: `lastSeq` is then the last of them, and the client asks again at once. */
  parts: ShownPart[];
  /** The version the answer brings the client to: its last part's seq, or the conversation's when nothing is new. */
  lastSeq: number;
}

/** One held wait: a single object per request (what it is after, what it heard, how it is woken), so holding thousands costs little. */
class Wait implements Waiter {
  appModeId: string | undefined;
  /** Woken since it last looked: with the parts read for it, or undefined (it reads them itself). */
  woken = false;
  parts: ShownPart[] | undefined;
  wake: (() => void) | undefined;
  timer: NodeJS.Timeout | undefined;

  constructor(readonly after: number) {}

  heard(parts: ShownPart[] | undefined): void {
    // Parts read after a later change supersede those of an earlier one; a wake to look itself supersedes both.
    this.parts = this.woken && this.parts === undefined ? undefined : parts;
    this.woken = true;
    this.wake?.();
  }

  /** Until woken, the time left runs out or the signal aborts. */
  sleep(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      this.wake = resolve;
      this.timer = setTimeout(resolve, ms);
    }).finally(() => {
      clearTimeout(this.timer);
      this.wake = this.timer = undefined;
    });
  }
}

export async function waitForUpdate(
  ctx: Ctx<GuestCaller>,
  conversationId: string,
  after: number,
  opts: { timeoutMs: number; signal?: AbortSignal },
): Promise<ConversationUpdate> {
  requireMessenger(ctx);
  const waits = ctx.svc.caches.conversationWaits;
  const wait = new Wait(after);
  // Watching before the first read: a part committed between the read and the wait still wakes it.
  const stop = waits.watch(conversationId, wait);
  const onAbort = () => wait.wake?.();
  opts.signal?.addEventListener('abort', onAbort);
  const deadline = Date.now() + opts.timeoutMs;
  try {
    const conversation = await ownConversation(ctx, conversationId);
    // A version the service never gave (ahead of the conversation): answered at once with the real one.
    if (after >= conversation.visibleSeq) {
      if (after > conversation.visibleSeq) return { parts: [], lastSeq: conversation.visibleSeq };
    } else {
      const parts = await visibleParts(ctx, conversation, after);
      if (parts.length) return { parts, lastSeq: parts[parts.length - 1]!.seq };
    }
    // From here on a change's parts may be read for it (it is the person's conversation, in this app-mode).
    wait.appModeId = conversation.appModeId;
    const lastSeq = conversation.visibleSeq;
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0 || waits.stopping || opts.signal?.aborted) return { parts: [], lastSeq };
      if (!wait.woken) await wait.sleep(left);
      if (!wait.woken) continue;
      const heard = wait.parts;
      wait.woken = false;
      wait.parts = undefined;
      const parts = heard ?? (await visibleParts(ctx, conversation, after));
      if (parts.length) return { parts, lastSeq: parts[parts.length - 1]!.seq };
    }
  } finally {
    stop();
    opts.signal?.removeEventListener('abort', onAbort);
  }
}
