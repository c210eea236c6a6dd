import type { ConversationPart } from '../../generated/prisma/client.js';
import type { Ctx, GuestCaller } from '../context.js';
import { ownConversation } from './conversations.js';
import { MAX_PARTS, visibleParts } from './parts.js';
import { requireMessenger } from './settings.js';

// GET /conversations/{id}/wait: the parts newer than the version the person holds, as soon as
// there are any, or nothing once the wait is over (about 25 s). Woken by the conversation's
// notices (waits.ts); a wake that brings nothing the person may see (a note) waits on.

export interface ConversationUpdate {
  /** At most MAX_PARTS: `lastSeq` is then the last of them, and the client asks again at once. */
  parts: ConversationPart[];
  /** The version the answer brings the client to: its last part's seq, or the conversation's when nothing is new. */
  lastSeq: number;
}

export async function waitForUpdate(
  ctx: Ctx<GuestCaller>,
  conversationId: string,
  after: number,
  opts: { timeoutMs: number; signal?: AbortSignal },
): Promise<ConversationUpdate> {
  requireMessenger(ctx);
  const waits = ctx.svc.caches.conversationWaits;
  let woken = false;
  let wake: (() => void) | undefined;
  // Watching before the first read: a part committed between the read and the wait still wakes it.
  const stop = waits.watch(conversationId, () => {
    woken = true;
    wake?.();
  });
  const onAbort = () => wake?.();
  opts.signal?.addEventListener('abort', onAbort);
  const deadline = Date.now() + opts.timeoutMs;
  try {
    const conversation = await ownConversation(ctx, conversationId);
    // A version the service never gave (ahead of the conversation): answered at once with the real one.
    if (after >= conversation.visibleSeq) {
      if (after > conversation.visibleSeq) return { parts: [], lastSeq: conversation.visibleSeq };
    } else {
      const parts = await visibleParts(ctx, conversation, after, MAX_PARTS);
      if (parts.length) return { parts, lastSeq: parts[parts.length - 1]!.seq };
    }
    let lastSeq = conversation.visibleSeq;
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0 || waits.stopping || opts.signal?.aborted) return { parts: [], lastSeq };
      if (!woken) {
        const timer = setTimeout(() => wake?.(), left);
        await new Promise<void>((resolve) => (wake = resolve));
        clearTimeout(timer);
        wake = undefined;
      }
      if (!woken) continue;
      woken = false;
      const parts = await visibleParts(ctx, conversation, after, MAX_PARTS);
      if (parts.length) return { parts, lastSeq: parts[parts.length - 1]!.seq };
    }
  } finally {
    stop();
    opts.signal?.removeEventListener('abort', onAbort);
  }
}
