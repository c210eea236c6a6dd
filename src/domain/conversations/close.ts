import type { Conversation } from '../../generated/prisma/client.js';
import { transaction, type Ctx } from '../context.js';
import { emit } from '../outbox.js';
import type { Author } from './authors.js';
import { externalIdOf, holdConversation } from './conversations.js';
import { addPart } from './parts.js';

// Closing a conversation (a team member, or the service): a line saying so, seen by the person,
// which tells their messenger whether to ask for a rating. Closing a closed one does nothing.

export const CLOSED = 'conversation.closed';

/**
 * Closes the conversation, asking the person for a rating when `askRating` (and they have not
 * rated it before). The caller found the conversation in an app-mode it may act in.
 */
export async function closeConversation(
  ctx: Ctx,
  conversation: Conversation,
  by: Author,
  opts: { askRating?: boolean } = {},
): Promise<Conversation> {
  return transaction(ctx, async (tx) => {
    // Held as every write about the person is, the person first (an erase racing it waits, or has left nothing: 404).
    const held = await holdConversation(tx, conversation.id);
    const now = tx.clock.now();
    const askRating = opts.askRating === true && held.rating === null;
    const { count } = await tx.db.conversation.updateMany({
      where: { id: conversation.id, appModeId: conversation.appModeId, state: { not: 'closed' } },
      data: { state: 'closed', closedAt: now, snoozedUntil: null, ratingAsked: askRating, updatedAt: now },
    });
    if (count === 1) {
      const part = await addPart(tx, conversation, {
        kind: 'event',
        event: 'closed',
        author: by,
        text: `${by.name} closed the conversation`,
        data: { rating_asked: askRating },
        preview: null,
      });
      await emit(tx, CLOSED, {
        appModeId: conversation.appModeId,
        externalId: await externalIdOf(tx, conversation),
        data: { conversation_id: conversation.id, part_id: part.id },
      });
    }
    return tx.db.conversation.findUniqueOrThrow({ where: { id: conversation.id } });
  });
}
