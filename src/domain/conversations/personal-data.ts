import type { Conversation, ConversationPart } from '../../generated/prisma/client.js';
import type { Ctx } from '../context.js';
import { keyset, pagedEntries, pagedMember, pagedRows, type PersonalDataArea } from '../personal-data/registry.js';

// A person's conversations: each with the parts they may see (never a team's note), the values
// the help bot collected in them, how far they read, and their idempotency keys. Conversations,
// each one's parts and the collected values are read a page at a time while the export is written:
// a person with thousands of long messages costs one page of memory, never their whole history.

/** What the export says of a part (its words as text: never the blocks, which repeat them). */
const PART = {
  id: true,
  seq: true,
  kind: true,
  authorKind: true,
  authorName: true,
  text: true,
  attachmentIds: true,
  button: true,
  event: true,
  createdAt: true,
} as const;

const exportedPart = (p: Pick<ConversationPart, keyof typeof PART>) => ({
  id: p.id,
  seq: p.seq,
  kind: p.kind,
  author: { kind: p.authorKind, name: p.authorName },
  text: p.text,
  attachmentIds: p.attachmentIds,
  ...(p.button ? { button: p.button } : {}),
  ...(p.event ? { event: p.event } : {}),
  createdAt: p.createdAt.toISOString(),
});

/** The parts of one conversation the person may see, oldest first, read by seq a page at a time. */
const partsOf = ({ db }: Ctx, c: Conversation) =>
  pagedRows(
    (last: { seq: number } | undefined, take) =>
      db.conversationPart.findMany({
        where: { conversationId: c.id, appModeId: c.appModeId, internal: false, seq: { gt: last?.seq ?? 0 } },
        orderBy: { seq: 'asc' },
        select: PART,
        take,
      }),
    exportedPart,
  );

const ORDER = [{ createdAt: 'asc' as const }, { id: 'asc' as const }];

export const conversationData: PersonalDataArea = {
  name: 'conversations',
  tables: ['conversation', 'conversation_part', 'conversation_read', 'collected_value', 'idempotency_key'],
  async exportOf(ctx, { appModeId, externalId }) {
    const { db } = ctx;
    const person = { appModeId, contact: { appModeId, externalId } };
    const conversations = await pagedMember(
      (last: Conversation | undefined, take) =>
        db.conversation.findMany({ where: person, orderBy: ORDER, ...keyset(last && { id: last.id }, take) }),
      (c) => ({
        id: c.id,
        state: c.state === 'snoozed' ? 'open' : c.state,
        createdAt: c.createdAt.toISOString(),
        closedAt: c.closedAt?.toISOString() ?? null,
        rating: c.rating === null ? null : { value: c.rating, remark: c.ratingRemark, ratedAt: c.ratedAt?.toISOString() ?? null },
        parts: partsOf(ctx, c),
      }),
    );
    if (!conversations) return undefined;
    // The values of each page of conversations, in the conversations' order.
    const collected = pagedEntries(
      (last: { id: string } | undefined, take) =>
        db.conversation.findMany({
          where: person,
          orderBy: ORDER,
          select: { id: true, collected: { orderBy: [{ createdAt: 'asc' }, { key: 'asc' }] } },
          ...keyset(last && { id: last.id }, take),
        }),
      (page) => page.flatMap((c) => c.collected.map((v) => ({ conversationId: c.id, key: v.key, value: v.value }))),
    );
    return { conversations, collected };
  },
  async erase({ db: tx }, { externalId, appModeIds }) {
    const of = { appModeId: { in: appModeIds }, contact: { appModeId: { in: appModeIds }, externalId } };
    const conversations = await tx.conversation.findMany({ where: of, select: { id: true } });
    const ids = conversations.map((c) => c.id);
    // Parts, read marks and collected values go with their conversation; counted first for the record.
    const { count: collectedValues } = await tx.collectedValue.deleteMany({ where: { conversationId: { in: ids } } });
    const { count: conversationReads } = await tx.conversationRead.deleteMany({ where: { conversationId: { in: ids } } });
    const { count: conversationParts } = await tx.conversationPart.deleteMany({ where: { conversationId: { in: ids } } });
    const { count: removed } = await tx.conversation.deleteMany({ where: { id: { in: ids } } });
    const { count: idempotencyKeys } = await tx.idempotencyKey.deleteMany({ where: of });
    return { conversations: removed, conversationParts, conversationReads, collectedValues, idempotencyKeys };
  },
};
