import type { ConversationPart } from '../../generated/prisma/client.js';
import { touchContact } from '../contacts/contacts.js';
import { transaction, type Ctx, type GuestCaller } from '../context.js';
import { conflict } from '../errors.js';
import { emit } from '../outbox.js';
import { contactAuthor } from './authors.js';
import { ownConversation } from './conversations.js';
import { addPart } from './parts.js';
import { requireMessenger } from './settings.js';

// POST /conversations/{id}/rating: once, on a closed conversation whose closing asked for one
// (behaviour 5). The conversation stays closed, now rated; the rating is a part of it.

export const MAX_RATING = 5;
export const MAX_REMARK = 1_000;
export const RATED = 'conversation.rated';

export async function rateConversation(
  ctx: Ctx<GuestCaller>,
  conversationId: string,
  input: { rating: number; remark: string | null },
): Promise<ConversationPart> {
  requireMessenger(ctx);
  const { appModeId, externalId, sdk } = ctx.caller;
  return transaction(ctx, async (tx) => {
    const { contact } = await touchContact(tx, externalId, { sdk });
    const conversation = await ownConversation(tx, conversationId);
    const now = tx.clock.now();
    // One statement decides: of ratings sent at once, exactly one finds the conversation unrated.
    const { count } = await tx.db.conversation.updateMany({
      where: { id: conversation.id, appModeId, state: 'closed', ratingAsked: true, rating: null },
      data: { rating: input.rating, ratingRemark: input.remark, ratedAt: now, updatedAt: now },
    });
    if (count === 0) {
      const now = await tx.db.conversation.findUniqueOrThrow({ where: { id: conversation.id } });
      if (now.rating !== null) throw conflict('already_rated', 'This conversation has been rated; a rating is given once.');
      if (now.state !== 'closed') throw conflict('conversation_not_closed', 'Only a closed conversation can be rated.');
      throw conflict('rating_not_asked', 'The team did not ask for a rating of this conversation.');
    }
    const remark = input.remark ?? '';
    const part = await addPart(tx, conversation, {
      kind: 'rating',
      author: contactAuthor(contact),
      text: remark,
      data: { rating: input.rating, remark: input.remark },
      preview: remark ? remark : null,
    });
    await emit(tx, RATED, { appModeId, externalId, data: { conversation_id: conversation.id, part_id: part.id, rating: input.rating } });
    return part;
  });
}
