import type { Conversation, ConversationPart } from '../../generated/prisma/client.js';
import { usePictures } from '../attachments/use.js';
import { transaction, type Ctx, type StaffCaller, type TxCtx } from '../context.js';
import { requireContent } from '../conversations/content.js';
import { externalIdOf } from '../conversations/conversations.js';
import { conversationForWrite } from './conversation.js';
import { holdIfUnseen, type SeenParts } from './held-reply.js';
import { REPLIED, reopen } from '../conversations/messages.js';
import { addPart } from '../conversations/parts.js';
import { markReadTo } from '../conversations/read.js';
import { invalidField } from '../errors.js';
import { emit } from '../outbox.js';
import { authorOf } from './staff-author.js';

// A team member writes in a conversation: a reply the person sees, or an internal note they never
// do. A reply to a closed conversation opens it again with a line saying so by the replier; a reply
// to a snoozed one wakes it (its timer then finds it awake and does nothing). Either may say the
// last part its writer saw, and is then held when someone else wrote since (held-reply.ts): a held
// one adds nothing and uses none of its pictures. Either may carry up to four pictures the writer
// made for the conversation (createConversationPicture), used once.

export const MAX_STAFF_TEXT = 10_000;

/** What a reply or note may hold: words, and up to four pictures the writer made for this conversation. */
export interface StaffWriting extends SeenParts {
  text: string;
  /** Pictures of createConversationPicture, uploaded, in the order shown. */
  attachmentIds?: string[] | null;
}

function staffText(input: StaffWriting): string {
  const { text } = input;
  if (text.length > MAX_STAFF_TEXT) throw invalidField('text', `must be at most ${MAX_STAFF_TEXT} characters`);
  if (input.attachmentIds?.length) return text;
  requireContent(text, []);
  return text;
}

/** Makes the writer's pictures the part's (422 naming `attachmentIds.<i>`, or `attachmentIds` for more than four). */
async function attachStaffPictures(tx: TxCtx<StaffCaller>, conversation: Conversation, part: ConversationPart, ids: string[]) {
  const owner = { appModeId: conversation.appModeId, staffUserId: tx.caller.staffUser.id, conversationId: conversation.id };
  await usePictures(tx, owner, { ids, partId: part.id, field: 'attachmentIds' });
}

export async function replyAsStaff(ctx: Ctx<StaffCaller>, conversationId: string, input: StaffWriting): Promise<ConversationPart> {
  const text = staffText(input);
  const attachmentIds = input.attachmentIds ?? [];
  const author = authorOf(ctx);
  return transaction(ctx, async (tx) => {
    const conversation = await conversationForWrite(tx, conversationId);
    await holdIfUnseen(tx, conversation, input);
    const wasClosed = conversation.state === 'closed';
    if (await reopen(tx, conversation)) {
      if (wasClosed)
        await addPart(tx, conversation, {
          kind: 'event',
          event: 'reopened',
          author,
          text: `${author.name} reopened the conversation`,
          preview: null,
        });
    }
    const part = await addPart(tx, conversation, { kind: 'message', author, text, attachmentIds });
    await attachStaffPictures(tx, conversation, part, attachmentIds);
    await markReadTo(tx, conversation, { kind: 'staff', id: author.id! }, part.seq);
    await emit(tx, REPLIED, {
      appModeId: conversation.appModeId,
      externalId: await externalIdOf(tx, conversation),
      data: { conversation_id: conversation.id, part_id: part.id },
    });
    return part;
  });
}

export async function addNote(ctx: Ctx<StaffCaller>, conversationId: string, input: StaffWriting): Promise<ConversationPart> {
  const text = staffText(input);
  const attachmentIds = input.attachmentIds ?? [];
  const author = authorOf(ctx);
  return transaction(ctx, async (tx) => {
    const conversation = await conversationForWrite(tx, conversationId);
    await holdIfUnseen(tx, conversation, input);
    const part = await addPart(tx, conversation, { kind: 'note', author, text, attachmentIds });
    await attachStaffPictures(tx, conversation, part, attachmentIds);
    await markReadTo(tx, conversation, { kind: 'staff', id: author.id! }, part.seq);
    return part;
  });
}
