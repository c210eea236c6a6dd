import { randomUUID } from 'node:crypto';
import { Prisma, type Conversation, type ConversationPart, type PartKind } from '../../generated/prisma/client.js';
import type { Ctx, TxCtx } from '../context.js';
import type { Author } from './authors.js';
import { paragraphs, previewOf, type Block } from './blocks.js';
import { inboxChanged } from '../inbox/live.js';
import { notFound } from '../errors.js';
import { empty, exec, rows, sql, type Sql } from '../../db/sql.js';

// Adding a part is the one way a conversation grows, for every author (the person, a team member,
// the bot, the service): it takes the next seq under the conversation's row lock, moves the
// conversation's activity (and, for what the person may see, their seq, activity and preview),
// wakes the long polls waiting on it and tells the staff inbox (inbox.changed), all in the caller's
// transaction. The caller emits the webhook topic the change means (conversation.started, …).

/** Every part added NOTIFYs this channel with its conversation's id at commit: the long polls on it wake (waits.ts). */
export const CONVERSATION_CHANNEL = 'crm_conversation';

export interface NewPart {
  kind: PartKind;
  author: Author;
  /** The words as plain text; blocks default to its paragraphs. */
  text?: string;
  blocks?: Block[] | Prisma.InputJsonValue[];
  attachmentIds?: string[];
  button?: string | null;
  /** For an event line: what happened (`reopened`, `closed`, …). */
  event?: string | null;
  data?: Prisma.InputJsonValue;
  /** The conversation's preview after it: the text's start by default; null keeps the one it has. */
  preview?: string | null;
  /** Kept from the person (an event line staff keep to themselves). Notes are internal whatever this says. */
  internal?: boolean;
}

export async function addPart(tx: TxCtx, conversation: Pick<Conversation, 'id' | 'appModeId'>, input: NewPart): Promise<ConversationPart> {
  const internal = input.kind === 'note' || input.internal === true;
  const now = tx.clock.now();
  const text = input.text ?? '';
  // Every SET expression reads the row as it was: last_seq + 1 is the new part's seq throughout.
  const preview = input.preview === null ? empty : sql`, preview = ${previewOf(input.preview ?? text)}`;
  const seen = internal ? empty : sql`, visible_seq = last_seq + 1, visible_activity_at = ${now} ${preview}`;
  // A teammate's reply ends the help bot's turn: its question is answered by people now.
  const teamTakes = input.kind === 'message' && input.author.kind === 'staff' ? sql`, bot_part_id = NULL` : empty;
  const [row] = await rows<{ seq: number }>(
    tx,
    sql`
    UPDATE conversation SET last_seq = last_seq + 1, last_activity_at = ${now}, updated_at = ${now} ${seen} ${teamTakes}
    WHERE id = ${conversation.id} AND app_mode_id = ${conversation.appModeId} RETURNING last_seq AS seq`,
  );
  // Gone meanwhile (an erase), or never in this mode: writers hold it first (holdConversation), so this is the last guard.
  if (!row) throw notFound('No such conversation.');
  const part = await tx.db.conversationPart.create({
    data: {
      id: randomUUID(),
      appModeId: conversation.appModeId,
      conversationId: conversation.id,
      seq: row.seq,
      kind: input.kind,
      internal,
      authorKind: input.author.kind,
      authorId: input.author.id,
      authorName: input.author.name,
      authorAvatarUrl: input.author.avatarUrl ?? null,
      text,
      blocks: (input.blocks ?? paragraphs(text)) as Prisma.InputJsonValue,
      attachmentIds: input.attachmentIds ?? [],
      button: input.button ?? null,
      event: input.event ?? null,
      data: input.data ?? Prisma.DbNull,
      createdAt: now,
    },
  });
  // Heard at commit by every process's long polls on this conversation (internal parts wake them
  // too, and they find nothing new to answer).
  await exec(tx, sql`SELECT pg_notify(${CONVERSATION_CHANNEL}, ${conversation.id})`);
  // And by the staff inbox, with the conversation as this part leaves it.
  const { contact, ...grown } = await tx.db.conversation.findUniqueOrThrow({
    where: { id: conversation.id },
    include: { contact: { select: { externalId: true } } },
  });
  await inboxChanged(tx, grown, part, contact.externalId);
  return part;
}

/**
 * Parts one answer carries at most: a conversation read (GET /conversations/{id}, a ticket's
 * conversation) answers the newest this many, a wait's update the next this many. The staff
 * inbox pages parts by as many (MAX_PAGE).
 */
export const MAX_PARTS = 200;

/**
 * The statement reading the parts the person may see after a seq, oldest first, at most `limit`
 * (notes and internal lines never), as they are shown (ShownPart): a wait's read, on its own
 * connection or the pool. One text for every call, so it is planned once a connection.
 */
export const visiblePartsAfter = (conversationId: string, appModeId: string, afterSeq: number, limit: number): Sql => sql`
  SELECT id, app_mode_id AS "appModeId", conversation_id AS "conversationId", seq, kind, internal, author_kind AS "authorKind",
         author_id AS "authorId", author_name AS "authorName", author_avatar_url AS "authorAvatarUrl", blocks,
         attachment_ids AS "attachmentIds", button, event, data, created_at AS "createdAt"
  FROM conversation_part
  WHERE conversation_id = ${conversationId} AND app_mode_id = ${appModeId} AND internal = false AND seq > ${afterSeq}
  ORDER BY seq LIMIT ${limit}`;

/** The name visiblePartsAfter's statement is prepared under. */
export const VISIBLE_PARTS_AFTER = 'conversation_visible_parts_after';

/** The parts the person may see after a seq, oldest first, at most MAX_PARTS (notes and internal lines never). */
export function visibleParts(ctx: Ctx, conversation: Pick<Conversation, 'id' | 'appModeId'>, afterSeq = 0): Promise<ShownPart[]> {
  return rows<ShownPart>(ctx, visiblePartsAfter(conversation.id, conversation.appModeId, afterSeq, MAX_PARTS), {
    prepare: VISIBLE_PARTS_AFTER,
  });
}

/** A part as the person is shown it: its blocks, never the plain text (which they repeat), so a page reads half the bytes. */
export type ShownPart = Omit<ConversationPart, 'text'>;

/** A page of the parts the person may see, and where the parts older than it start. */
export interface PartsPage {
  /** The newest MAX_PARTS the person may see before `before` (every part when left out), oldest first. */
  parts: ShownPart[];
  /** The seq to ask `before` with for the parts older than these (the first one's seq); null when there are none. */
  partsBefore: number | null;
}

/** The newest parts the person may see, older than `before` when given (notes and internal lines never). */
export async function latestVisibleParts(
  ctx: Ctx,
  conversation: Pick<Conversation, 'id' | 'appModeId'>,
  before?: number,
): Promise<PartsPage> {
  const found = await ctx.db.conversationPart.findMany({
    where: {
      conversationId: conversation.id,
      appModeId: conversation.appModeId,
      internal: false,
      ...(before === undefined ? {} : { seq: { lt: before } }),
    },
    orderBy: { seq: 'desc' },
    omit: { text: true },
    take: MAX_PARTS + 1,
  });
  const parts = found.slice(0, MAX_PARTS).reverse();
  return { parts, partsBefore: found.length > MAX_PARTS ? parts[0]!.seq : null };
}
