import type { EventDailyCount } from '../../generated/prisma/client.js';
import type { Ctx } from '../context.js';
import { invalidField } from '../errors.js';

// Daily counts per event and platform (server, ios, android, web), so staff see web apart; each
// day's count of a name and platform is the sum of its slots (rows written by different connections).

export const DEFAULT_COUNT_DAYS = 30;
export const MAX_COUNT_DAYS = 366;
const DAY_MS = 86_400_000;

/** The counts of the last `days` UTC days, today included, for each name; oldest day first. */
export async function dailyCounts(
  ctx: Ctx,
  appModeId: string,
  names: readonly string[],
  given?: number | null,
): Promise<Map<string, EventDailyCount[]>> {
  const days = given ?? DEFAULT_COUNT_DAYS;
  if (!Number.isInteger(days) || days < 1 || days > MAX_COUNT_DAYS) throw invalidField('days', `must be 1 to ${MAX_COUNT_DAYS}`);
  const today = Math.floor(ctx.clock.now().getTime() / DAY_MS) * DAY_MS;
  const rows = await ctx.db.eventDailyCount.findMany({
    where: { appModeId, name: { in: [...names] }, day: { gte: new Date(today - (days - 1) * DAY_MS) } },
    orderBy: [{ day: 'asc' }, { platform: 'asc' }],
  });
  // A day's count is kept in up to 8 slots (by the connection that wrote it): answered as their sum.
  const byName = new Map<string, EventDailyCount[]>(names.map((n) => [n, []]));
  for (const row of rows) {
    const days = byName.get(row.name)!;
    const last = days.at(-1);
    if (last && last.day.getTime() === row.day.getTime() && last.platform === row.platform) last.count += row.count;
    else days.push({ ...row, slot: 0 });
  }
  return byName;
}
