import { type Conversation, type ConversationPart } from '../../generated/prisma/client.js';
import type { AppCaller, Ctx, GuestCaller, TxCtx } from '../context.js';
import { notFound } from '../errors.js';
import { decodeCursor, encodeCursor } from '../paging.js';
import { latestVisibleParts, type ShownPart } from './parts.js';
import { requireMessenger } from './settings.js';
import { empty, raw, rows, sql, type Sql } from '../../db/sql.js';

// Reading conversations as the person sees them: only their own, in the caller's app-mode; never a
// note or an internal line. Another person's conversation, or another mode's, is not found.

/** A conversation with a page of the parts the person may see (the newest MAX_PARTS) and how many of them are unread. */
export interface SeenConversation {
  conversation: Conversation;
  /** Oldest first. */
  parts: ShownPart[];
  /** The seq to read the older parts `before`; null when `parts` starts at the first part the person may see. */
  partsBefore: number | null;
  unread: number;
}

export const DEFAULT_LIST = 20;
export const MAX_LIST = 100;

/** The conversation if it is the caller's own, in the caller's app-mode (404 otherwise). */
export async function ownConversation(ctx: Ctx<GuestCaller>, conversationId: string): Promise<Conversation> {
  const found = await ctx.db.conversation.findFirst({
    where: {
      id: conversationId,
      appModeId: ctx.caller.appModeId,
      contact: { appModeId: ctx.caller.appModeId, externalId: ctx.caller.externalId },
    },
  });
  if (!found) throw notFound('No such conversation.');
  return found;
}

/**
 * A conversation held for a write until the transaction ends, or 404 when it or its person is gone
 * (or being erased: beingErased).
 * The person's contact is held first (FOR KEY SHARE: their own requests still update it), then the
 * conversation's row (FOR UPDATE): the order an erase takes them in, since erasePerson holds the
 * person's contacts before it removes anything. A write racing an erase so either commits first,
 * and the erase then removes everything it wrote, or waits for the erase and finds nothing; never
 * a deadlock between the two.
 */
export async function holdConversation(tx: TxCtx, conversationId: string): Promise<Conversation> {
  const [person] = await rows<{ id: string }>(
    tx,
    sql`SELECT ct.id FROM conversation c JOIN contact ct ON ct.id = c.contact_id
        WHERE c.id = ${conversationId} AND ct.erase_requested_at IS NULL FOR KEY SHARE OF ct`,
  );
  const [held] = person ? await rows<{ id: string }>(tx, sql`SELECT id FROM conversation WHERE id = ${conversationId} FOR UPDATE`) : [];
  const found = held && (await tx.db.conversation.findUnique({ where: { id: held.id } }));
  if (!found) throw notFound('No such conversation.');
  return found;
}

/** A conversation of one app-mode, for callers who checked their right to the app-mode (staff, the service). */
export async function conversationIn(ctx: Ctx, appModeId: string, conversationId: string): Promise<Conversation> {
  // Not of a person being erased (beingErased).
  const found = await ctx.db.conversation.findFirst({ where: { id: conversationId, appModeId, contact: { eraseRequestedAt: null } } });
  if (!found) throw notFound('No such conversation.');
  return found;
}

/** The external id of a conversation's person, for the outbox rows of its webhook topics. */
export const externalIdOf = async (ctx: Ctx, conversation: Pick<Conversation, 'contactId'>): Promise<string> =>
  (await ctx.db.contact.findUniqueOrThrow({ where: { id: conversation.contactId }, select: { externalId: true } })).externalId;

/** Unread parts of one conversation for its person: parts they may see, by others, after what they read. */
export const UNREAD = (c: Sql) => sql`(
  SELECT count(*)::int FROM conversation_part p
  WHERE p.conversation_id = ${c}.id AND NOT p.internal AND p.author_kind <> 'contact'
    AND p.seq > coalesce((SELECT r.last_read_seq FROM conversation_read r
                          WHERE r.conversation_id = ${c}.id AND r.reader_kind = 'contact' AND r.reader_id = ${c}.contact_id), 0))`;

export async function unreadOf(ctx: Ctx, conversationId: string): Promise<number> {
  const [row] = await rows<{ unread: number }>(
    ctx,
    sql`SELECT ${UNREAD(raw('c'))} AS unread FROM conversation c WHERE c.id = ${conversationId}`,
  );
  return row?.unread ?? 0;
}

/** Unread parts over all of the caller's conversations. */
export async function totalUnread(ctx: Ctx<AppCaller>, externalId: string): Promise<number> {
  const [row] = await rows<{ total: number }>(
    ctx,
    sql`
    SELECT coalesce(sum(${UNREAD(raw('c'))}), 0)::int AS total
    FROM conversation c JOIN contact k ON k.id = c.contact_id
    WHERE c.app_mode_id = ${ctx.caller.appModeId} AND k.app_mode_id = ${ctx.caller.appModeId} AND k.external_id = ${externalId}`,
  );
  return row?.total ?? 0;
}

/**
 * One conversation of the caller's with the newest MAX_PARTS parts they may see, or those before
 * `before` (a seq): every part stays reachable page by page, and no answer grows with the conversation.
 */
export async function getConversation(
  ctx: Ctx<GuestCaller>,
  conversationId: string,
  opts: { before?: number } = {},
): Promise<SeenConversation> {
  requireMessenger(ctx);
  const conversation = await ownConversation(ctx, conversationId);
  const { parts, partsBefore } = await latestVisibleParts(ctx, conversation, opts.before);
  return { conversation, parts, partsBefore, unread: await unreadOf(ctx, conversation.id) };
}

export interface ListedConversation {
  id: string;
  preview: string;
  unread: number;
  state: Conversation['state'];
  visibleSeq: number;
  visibleActivityAt: Date;
}

/** The caller's conversations, the latest activity they may see first, in keyset pages. */
export async function listConversations(
  ctx: Ctx<GuestCaller>,
  opts: { before?: string; limit?: number; /** Only those open to the person (snoozed ones too). */ open?: boolean },
): Promise<{ items: ListedConversation[]; nextBefore: string | null }> {
  requireMessenger(ctx);
  const limit = opts.limit ?? DEFAULT_LIST;
  const [at, id] = opts.before ? (decodeCursor(opts.before, 'before', ['time', 'text']) as [string, string]) : [];
  const after = at === undefined ? empty : sql`AND (c.visible_activity_at, c.id) < (${new Date(at)}::timestamp, ${id})`;
  const open = opts.open ? sql`AND c.state <> 'closed'` : empty;
  const found = await rows<Omit<ListedConversation, 'visibleActivityAt'> & { visibleActivityAt: Date }>(
    ctx,
    sql`
    SELECT c.id, c.preview, c.state::text AS state, c.visible_seq AS "visibleSeq", c.visible_activity_at AS "visibleActivityAt", ${UNREAD(raw('c'))} AS unread
    FROM conversation c JOIN contact k ON k.id = c.contact_id
    WHERE c.app_mode_id = ${ctx.caller.appModeId} AND k.app_mode_id = ${ctx.caller.appModeId} AND k.external_id = ${ctx.caller.externalId} ${after} ${open}
    ORDER BY c.visible_activity_at DESC, c.id DESC
    LIMIT ${limit + 1}`,
  );
  const items = found.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextBefore: found.length > limit && last ? encodeCursor([last.visibleActivityAt.toISOString(), last.id]) : null };
}
