import type { Notice } from '../../generated/prisma/client.js';
import { transaction, type Ctx, type GuestCaller } from '../context.js';
import { invalidField } from '../errors.js';
import { decodeCursor, encodeCursor } from '../paging.js';

// The person's notice inbox: their own notices only, in the caller's app-mode, newest first, with
// how many they have not read. Marking read takes `all`, or the ids read: ids that are not the
// person's own notices (unknown, another person's, another mode's) are passed over without a word,
// so the answer never tells whether such a notice exists.

export const DEFAULT_NOTICES = 20;
export const MAX_NOTICES = 100;
export const MAX_READ_IDS = 200;

export interface NoticePage {
  notices: Notice[];
  unread: number;
  /** The cursor of the next (older) page; null on the last page. */
  nextBefore: string | null;
}

const contactIdOf = async (ctx: Ctx<GuestCaller>) => {
  const { appModeId, externalId } = ctx.caller;
  return (await ctx.db.contact.findUnique({ where: { appModeId_externalId: { appModeId, externalId } }, select: { id: true } }))?.id;
};

/** The person's notices not read yet (what a check-in's unreadNotices says). */
export const unreadNotices = (ctx: Ctx, appModeId: string, contactId: string): Promise<number> =>
  ctx.db.notice.count({ where: { appModeId, contactId, readAt: null } });

/** A page of the person's notices, newest first; `before` is the previous page's cursor. */
export async function listNotices(ctx: Ctx<GuestCaller>, opts: { before?: string; limit?: number }): Promise<NoticePage> {
  const limit = opts.limit ?? DEFAULT_NOTICES;
  const [at, id] = opts.before ? (decodeCursor(opts.before, 'before', ['time', 'text']) as [string, string]) : [];
  const { appModeId } = ctx.caller;
  const contactId = await contactIdOf(ctx);
  if (!contactId) return { notices: [], unread: 0, nextBefore: null };
  const older = at === undefined ? {} : { OR: [{ createdAt: { lt: new Date(at) } }, { createdAt: new Date(at), id: { lt: id! } }] };
  const [rows, unread] = await Promise.all([
    ctx.db.notice.findMany({
      where: { appModeId, contactId, ...older },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit + 1,
    }),
    unreadNotices(ctx, appModeId, contactId),
  ]);
  const notices = rows.slice(0, limit);
  const last = notices[notices.length - 1];
  return { notices, unread, nextBefore: rows.length > limit && last ? encodeCursor([last.createdAt.toISOString(), last.id]) : null };
}

/** The person has read all their notices (`all`), or these (`ids`); answers how many they have not read. */
export async function markNoticesRead(ctx: Ctx<GuestCaller>, read: { all?: boolean; ids?: string[] }): Promise<number> {
  if (read.all !== true && read.ids === undefined) throw invalidField('ids', 'name the notices read, or send all: true');
  const { appModeId } = ctx.caller;
  return transaction(ctx, async (tx) => {
    const contactId = await contactIdOf(tx);
    if (!contactId) return 0;
    const which = read.all === true ? {} : { id: { in: read.ids! } };
    await tx.db.notice.updateMany({ where: { appModeId, contactId, readAt: null, ...which }, data: { readAt: tx.clock.now() } });
    return unreadNotices(tx, appModeId, contactId);
  });
}
