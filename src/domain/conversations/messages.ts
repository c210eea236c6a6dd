import type { Conversation, ConversationPart } from '../../generated/prisma/client.js';
import { touchContact } from '../contacts/contacts.js';
import { transaction, type Ctx, type GuestCaller, type TxCtx } from '../context.js';
import { emit } from '../outbox.js';
import { attachPictures } from './attachments.js';
import { contactAuthor } from './authors.js';
import { requireContent } from './content.js';
import { ownConversation } from './conversations.js';
import { claimKey, fingerprintOf, settleKey, type KeyClaim } from './idempotency.js';
import { addPart } from './parts.js';
import { markReadTo } from './read.js';
import { requireMessenger } from './settings.js';

// POST /conversations/{id}/messages: the person writes in one of their conversations. A closed or
// snoozed conversation is open again from that message (as a team member's reply reopens it); a
// rating the team asked for and did not get is no longer asked. An Idempotency-Key sent again
// answers the part the first request made.

export const REPLIED = 'conversation.replied';

export interface MessageInput {
  text: string;
  attachmentIds: string[];
  idempotencyKey?: string;
}

/** Opens a closed or snoozed conversation again, in the caller's transaction; whether it was. */
export async function reopen(tx: TxCtx, conversation: Pick<Conversation, 'id' | 'appModeId'>): Promise<boolean> {
  const { count } = await tx.db.conversation.updateMany({
    where: { id: conversation.id, appModeId: conversation.appModeId, state: { not: 'open' } },
    data: { state: 'open', snoozedUntil: null, closedAt: null, ratingAsked: false, updatedAt: tx.clock.now() },
  });
  return count === 1;
}

export async function sendMessage(ctx: Ctx<GuestCaller>, conversationId: string, input: MessageInput): Promise<ConversationPart> {
  requireMessenger(ctx);
  requireContent(input.text, input.attachmentIds);
  const { appModeId, externalId, sdk } = ctx.caller;
  return transaction(ctx, async (tx) => {
    const { contact } = await touchContact(tx, externalId, { sdk });
    const conversation = await ownConversation(tx, conversationId);
    const { idempotencyKey: key, ...request } = input;
    const claim: KeyClaim | undefined = key
      ? { contactId: contact.id, scope: conversation.id, key, fingerprint: fingerprintOf(request) }
      : undefined;
    const earlier = claim && (await claimKey(tx, appModeId, claim));
    if (earlier) return tx.db.conversationPart.findFirstOrThrow({ where: { id: earlier, appModeId, conversationId: conversation.id } });

    await reopen(tx, conversation);
    const part = await addPart(tx, conversation, {
      kind: 'message',
      author: contactAuthor(contact),
      text: input.text,
      attachmentIds: input.attachmentIds,
    });
    await attachPictures(tx, part, input.attachmentIds);
    await markReadTo(tx, conversation, { kind: 'contact', id: contact.id }, part.seq);
    await emit(tx, REPLIED, { appModeId, externalId, data: { conversation_id: conversation.id, part_id: part.id } });
    if (claim) await settleKey(tx, appModeId, claim, part.id);
    return part;
  });
}
