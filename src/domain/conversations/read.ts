import type { Conversation, ConversationReaderKind } from '../../generated/prisma/client.js';
import { touchContact } from '../contacts/contacts.js';
import { transaction, type Ctx, type GuestCaller, type TxCtx } from '../context.js';
import { ownConversation, totalUnread, unreadOf } from './conversations.js';
import { requireMessenger } from './settings.js';
import { exec, sql } from '../../db/sql.js';

// How far someone has read a conversation. It only moves forward: a read up to an earlier part, or
// one that arrives late, changes nothing. A read beyond the last part the person may see counts as
// a read up to it.

export interface UnreadCount {
  /** Unread parts of this conversation. */
  unread: number;
  /** Unread parts over all of the person's conversations. */
  total: number;
}

/** Moves a reader's mark up to `seq` (never back), in the caller's transaction. */
export async function markReadTo(
  tx: TxCtx,
  conversation: Pick<Conversation, 'id'>,
  reader: { kind: ConversationReaderKind; id: string },
  seq: number,
): Promise<void> {
  const now = tx.clock.now();
  await exec(
    tx,
    sql`
    INSERT INTO conversation_read (conversation_id, reader_kind, reader_id, last_read_seq, read_at)
    VALUES (${conversation.id}, ${reader.kind}::"ConversationReaderKind", ${reader.id}, ${seq}, ${now})
    ON CONFLICT (conversation_id, reader_kind, reader_id) DO UPDATE
      SET last_read_seq = EXCLUDED.last_read_seq, read_at = EXCLUDED.read_at
      WHERE conversation_read.last_read_seq < EXCLUDED.last_read_seq`,
  );
}

/** POST /conversations/{id}/read: the person has read up to `seq`. */
export async function markRead(ctx: Ctx<GuestCaller>, conversationId: string, seq: number): Promise<UnreadCount> {
  requireMessenger(ctx);
  return transaction(ctx, async (tx) => {
    const { contact } = await touchContact(tx, ctx.caller.externalId, { sdk: ctx.caller.sdk });
    const conversation = await ownConversation(tx, conversationId);
    await markReadTo(tx, conversation, { kind: 'contact', id: contact.id }, Math.min(seq, conversation.visibleSeq));
    const [unread, total] = [await unreadOf(tx, conversation.id), await totalUnread(tx, ctx.caller.externalId)];
    return { unread, total };
  });
}
