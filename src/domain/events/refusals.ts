import type { RefusedEvent } from '../../generated/prisma/client.js';
import type { Ctx } from '../context.js';
import { decodeCursor, pageOf, pageSize, type Page } from '../paging.js';

// The app's Data page: events refused from batches, newest batch first and each batch in the
// order it was sent.

export async function refusedEvents(
  ctx: Ctx,
  appModeId: string,
  paging: { first?: number | null; before?: string | null },
): Promise<Page<RefusedEvent>> {
  const size = pageSize(paging.first);
  let after = {};
  if (paging.before) {
    const [at, index, id] = decodeCursor(paging.before, 'before', ['time', 'int', 'text']) as [string, number, string];
    const receivedAt = new Date(at);
    after = { OR: [{ receivedAt: { lt: receivedAt } }, { receivedAt, index: { gt: index } }, { receivedAt, index, id: { gt: id } }] };
  }
  const rows = await ctx.db.refusedEvent.findMany({
    where: { appModeId, ...after },
    orderBy: [{ receivedAt: 'desc' }, { index: 'asc' }, { id: 'asc' }],
    take: size + 1,
  });
  return pageOf(rows, size, (r) => [r.receivedAt.toISOString(), r.index, r.id]);
}
