import { exec, sql } from '../../db/sql.js';
import type { Ctx, StaffCaller } from '../context.js';
import { conversationById } from './conversation.js';
import { PRESENCE_CHANNEL, type PresenceState } from './presence.js';

// A team member viewing a conversation, as every console open on it sees (presence.ts keeps it):
// a heartbeat while it is open (typing or not), a leave when it closes, and the viewers live.
// The caller checked the member may read the conversation (the staff API's `read` on it).

const notify = (ctx: Ctx, notice: string) => exec(ctx, sql`SELECT pg_notify(${PRESENCE_CHANNEL}, ${notice})`);

/** Says the member is viewing (and typing or not); false when the conversation has as many viewers as are kept. */
export async function viewConversation(ctx: Ctx<StaffCaller>, conversationId: string, typing: boolean): Promise<boolean> {
  const presence = ctx.svc.caches.presence;
  presence.take(ctx.caller.sessionId);
  // Not of a person being erased, as every read of it.
  await conversationById(ctx, conversationId);
  const { id, name } = ctx.caller.staffUser;
  const notice = presence.heartbeat(conversationId, id, name, typing);
  if (!notice) return false;
  await notify(ctx, notice);
  return true;
}

/** Says the member no longer views it: every console stops showing them at once. */
export async function leaveConversation(ctx: Ctx<StaffCaller>, conversationId: string): Promise<void> {
  const presence = ctx.svc.caches.presence;
  presence.take(ctx.caller.sessionId);
  await notify(ctx, presence.leave(conversationId, ctx.caller.staffUser.id));
}

/**
 * The conversation's viewers now, then after each change, until the signal aborts. A console
 * follows them while the conversation is open: when it stops (the conversation closed, the socket
 * gone, the right to read it taken away) and the member has no other such stream in this process,
 * they have left.
 */
export async function* presenceChanges(ctx: Ctx<StaffCaller>, conversationId: string, signal: AbortSignal): AsyncGenerator<PresenceState> {
  const presence = ctx.svc.caches.presence;
  let latest: PresenceState | undefined = presence.now(conversationId);
  let wake: (() => void) | undefined;
  const stop = presence.watch(conversationId, ctx.caller.staffUser.id, (state) => {
    latest = state;
    wake?.();
  });
  const aborted = () => wake?.();
  signal.addEventListener('abort', aborted);
  try {
    while (!signal.aborted) {
      if (latest) {
        const state = latest;
        latest = undefined;
        yield state;
        continue;
      }
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  } finally {
    signal.removeEventListener('abort', aborted);
    if (stop()) await notify(ctx, presence.leave(conversationId, ctx.caller.staffUser.id)).catch(() => {});
  }
}
