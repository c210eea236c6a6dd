import type { Ctx } from '../context.js';

// A send stops before its end when its process gives up (its steps kept failing) or is cancelled:
// what was sent stays sent and counted, nothing more goes out.

export async function stopPushSend(ctx: Ctx, sendId: string, reason: string): Promise<void> {
  await ctx.db.pushSend.updateMany({
    where: { id: sendId, state: 'sending' },
    data: { state: 'stopped', stopReason: reason, finishedAt: ctx.clock.now() },
  });
}
