import { isConnectionLost } from '../../db/lost-connection.js';
import type { Ctx, GuestCaller } from '../context.js';
import { ownConversation } from './conversations.js';
import { visibleParts, type ShownPart } from './parts.js';
import { requireMessenger } from './settings.js';
import type { ConversationWaits, Expiring } from './waits.js';

// GET /conversations/{id}/wait: the parts newer than the version the person holds, as soon as
// there are any, or nothing once the wait is over (about 25 s). Woken by the conversation's
// notices (waits.ts), which hand it the parts read once for every wait on the conversation; a wake
// that brings nothing the person may see (a note) waits on.
//
// What is new now is answered at once; otherwise the wait is held as one small object (what it is
// after, its deadline, how it answers) and the request's own work is over: holding thousands keeps
// no call chain, timer or signal per wait.

export interface ConversationUpdate {
  /** At most MAX_PARTS: `lastSeq` is then the last of them, and the client asks again at once. */
  parts: ShownPart[];
  /** The version the answer brings the client to: its last part's seq, or the conversation's when nothing is new. */
  lastSeq: number;
}

/** What a wait comes to: an answer now, or one later (`answer` is called once), held until then unless `cancel`led. */
export type WaitOutcome = { now: ConversationUpdate } | { held: HeldWait };

export interface HeldWait {
  /** The client went away: the wait lets go now and never answers (a function of its own: pass it as it is). */
  cancel(): void;
}

/** How a held wait answers: with the update, or with what failed when it read the parts itself. */
export type Answer = (update: ConversationUpdate | undefined, failed?: unknown) => void;

/** One held wait: what it is after, what it heard, how it answers; also its place in the deadline list. */
class Wait implements Expiring, HeldWait {
  appModeId: string | undefined;
  lastSeq = 0;
  prev: Expiring | undefined;
  next: Expiring | undefined;
  /** Heard since it last looked: with the parts read for it, or undefined (it reads them itself). */
  private woken = false;
  private parts: ShownPart[] | undefined;
  private looking = false;
  /** Its time ran out before it was held: answered with nothing new once it is. */
  private expired = false;
  /** Until answered or cancelled. */
  private answer: Answer | undefined;

  constructor(
    readonly after: number,
    readonly deadline: number,
    private readonly conversationId: string,
    private readonly ctx: Ctx<GuestCaller>,
    private readonly waits: ConversationWaits,
  ) {
    this.cancel = this.cancel.bind(this);
  }

  heard(parts: ShownPart[] | undefined): void {
    // Parts read after a later change supersede those of an earlier one; a wake to look itself supersedes both.
    this.parts = this.woken && this.parts === undefined ? undefined : parts;
    this.woken = true;
    if (this.answer) void this.look();
  }

  /** Held from now on, answering through `answer`; looks at once if it heard something meanwhile. */
  hold(conversation: { appModeId: string; visibleSeq: number }, answer: Answer): void {
    this.appModeId = conversation.appModeId;
    this.lastSeq = conversation.visibleSeq;
    this.answer = answer;
    if (this.expired) this.expire();
    else if (this.woken) void this.look();
  }

  expire(): void {
    if (!this.answer) return void (this.expired = true);
    this.finish({ parts: [], lastSeq: this.lastSeq });
  }

  cancel(): void {
    this.answer = undefined;
    this.waits.unwatch(this.conversationId, this);
  }

  /** What it heard, or the parts read now when it was only told something changed; answers when the person may see any. */
  private async look(): Promise<void> {
    if (this.looking) return;
    this.looking = true;
    try {
      while (this.woken && this.answer) {
        const heard = this.parts;
        this.woken = false;
        this.parts = undefined;
        const parts = heard ?? (await this.read());
        if (parts.length) return this.finish({ parts, lastSeq: parts[parts.length - 1]!.seq });
      }
    } catch (err) {
      this.finish(undefined, err);
    } finally {
      this.looking = false;
    }
  }

  /** The parts after `after`, tried once more on a fresh connection when the first is cut. */
  private async read(): Promise<ShownPart[]> {
    const conversation = { id: this.conversationId, appModeId: this.appModeId! };
    try {
      return await visibleParts(this.ctx, conversation, this.after);
    } catch (err) {
      if (!isConnectionLost(err)) throw err;
      return visibleParts(this.ctx, conversation, this.after);
    }
  }

  private finish(update: ConversationUpdate | undefined, failed?: unknown): void {
    const answer = this.answer;
    if (!answer) return;
    this.cancel();
    answer(update, failed);
  }
}

/**
 * The person's wait on their conversation: `now` when there is something to answer at once (a part
 * after `after`, a version the service never gave, the process stopping), else `held`, and `answer`
 * is called once: with the parts as soon as there are any, with nothing new at `timeoutMs`.
 */
export async function waitForUpdate(
  ctx: Ctx<GuestCaller>,
  conversationId: string,
  after: number,
  opts: { timeoutMs: number; answer: Answer },
): Promise<WaitOutcome> {
  requireMessenger(ctx);
  const waits = ctx.svc.caches.conversationWaits;
  const wait = new Wait(after, Date.now() + opts.timeoutMs, conversationId, ctx, waits);
  // Watching before the first read: a part committed between the read and the wait still wakes it.
  waits.watch(conversationId, wait);
  let held = false;
  try {
    const conversation = await ownConversation(ctx, conversationId);
    // A version the service never gave (ahead of the conversation): answered at once with the real one.
    if (after >= conversation.visibleSeq) {
      if (after > conversation.visibleSeq || waits.stopping) return { now: { parts: [], lastSeq: conversation.visibleSeq } };
    } else {
      const parts = await visibleParts(ctx, conversation, after);
      if (parts.length) return { now: { parts, lastSeq: parts[parts.length - 1]!.seq } };
      if (waits.stopping) return { now: { parts: [], lastSeq: conversation.visibleSeq } };
    }
    // From here on a change's parts may be read for it (it is the person's conversation, in this app-mode).
    wait.hold(conversation, opts.answer);
    held = true;
    return { held: wait };
  } finally {
    if (!held) wait.cancel();
  }
}
