import type { Ctx, StaffCaller } from '../context.js';
import { invalidField } from '../errors.js';
import { forgetLive } from './live-messages.js';

// An app-mode's in-app settings: the per-person daily cap (how many messages one person is
// answered a day, counted in their own time zone; when it is reached, the messages first in the
// answer order win: higher priority, then the earliest to go live).

export const MAX_DAILY_CAP = 100;

export async function setInAppSettings(
  ctx: Ctx<StaffCaller>,
  appModeId: string,
  input: { dailyCap: number | null },
): Promise<{ appModeId: string; dailyCap: number | null }> {
  const { dailyCap } = input;
  if (dailyCap !== null && (!Number.isInteger(dailyCap) || dailyCap < 1 || dailyCap > MAX_DAILY_CAP))
    throw invalidField('dailyCap', `must be a whole number from 1 to ${MAX_DAILY_CAP}, or null for no cap`);
  const now = ctx.clock.now();
  await ctx.db.inAppSettings.upsert({
    where: { appModeId },
    create: { appModeId, dailyCap, updatedAt: now },
    update: { dailyCap, updatedAt: now },
  });
  forgetLive(ctx, appModeId);
  return { appModeId, dailyCap };
}
