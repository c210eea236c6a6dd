import type { PersonalDataArea } from '../personal-data/registry.js';

// A person's conversations: each with the parts they may see (never a team's note), the values
// the help bot collected in them, how far they read, and their idempotency keys.

export const conversationData: PersonalDataArea = {
  name: 'conversations',
  tables: ['conversation', 'conversation_part', 'conversation_read', 'collected_value', 'idempotency_key'],
  async exportOf({ db }, { appModeId, externalId }) {
    const conversations = await db.conversation.findMany({
      where: { appModeId, contact: { appModeId, externalId } },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      include: {
        parts: { where: { internal: false }, orderBy: { seq: 'asc' } },
        collected: { orderBy: [{ createdAt: 'asc' }, { key: 'asc' }] },
      },
    });
    if (!conversations.length) return undefined;
    return {
      conversations: conversations.map((c) => ({
        id: c.id,
        state: c.state === 'snoozed' ? 'open' : c.state,
        createdAt: c.createdAt.toISOString(),
        closedAt: c.closedAt?.toISOString() ?? null,
        rating: c.rating === null ? null : { value: c.rating, remark: c.ratingRemark, ratedAt: c.ratedAt?.toISOString() ?? null },
        parts: c.parts.map((p) => ({
          id: p.id,
          seq: p.seq,
          kind: p.kind,
          author: { kind: p.authorKind, name: p.authorName },
          text: p.text,
          attachmentIds: p.attachmentIds,
          ...(p.button ? { button: p.button } : {}),
          ...(p.event ? { event: p.event } : {}),
          createdAt: p.createdAt.toISOString(),
        })),
      })),
      collected: conversations.flatMap((c) => c.collected.map((v) => ({ conversationId: c.id, key: v.key, value: v.value }))),
    };
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
