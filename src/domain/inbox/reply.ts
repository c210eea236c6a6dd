import type { ConversationPart } from '../../generated/prisma/client.js';
import { transaction, type Ctx, type StaffCaller } from '../context.js';
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
// last part its writer saw, and is then held when someone else wrote since (held-reply.ts).

export const MAX_STAFF_TEXT = 10_000;

function staffText(text: string): string {
  if (text.length > MAX_STAFF_TEXT) throw invalidField('text', `must be at most ${MAX_STAFF_TEXT} characters`);
  requireContent(text, []);
  return text;
}

export async function replyAsStaff(
  ctx: Ctx<StaffCaller>,
  conversationId: string,
  input: { text: string } & SeenParts,
): Promise<ConversationPart> {
  const text = staffText(input.text);
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
    const part = await addPart(tx, conversation, { kind: 'message', author, text });
    await markReadTo(tx, conversation, { kind: 'staff', id: author.id! }, part.seq);
    await emit(tx, REPLIED, {
      appModeId: conversation.appModeId,
      externalId: await externalIdOf(tx, conversation),
      data: { conversation_id: conversation.id, part_id: part.id },
    });
    return part;
  });
}

export async function addNote(
  ctx: Ctx<StaffCaller>,
  conversationId: string,
  input: { text: string } & SeenParts,
): Promise<ConversationPart> {
  const text = staffText(input.text);
  const author = authorOf(ctx);
  return transaction(ctx, async (tx) => {
    const conversation = await conversationForWrite(tx, conversationId);
    await holdIfUnseen(tx, conversation, input);
    const part = await addPart(tx, conversation, { kind: 'note', author, text });
    await markReadTo(tx, conversation, { kind: 'staff', id: author.id! }, part.seq);
    return part;
  });
}
