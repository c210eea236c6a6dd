import type { PictureType } from '../../lib/blobs/pictures.js';
import type { SignedAddress } from '../../lib/blobs/store.js';
import { makeAttachment } from '../attachments/create.js';
import { MAX_ATTACHMENT_BYTES } from '../attachments/limits.js';
import type { Ctx, StaffCaller } from '../context.js';
import { holdConversation } from '../conversations/conversations.js';
import { invalidField } from '../errors.js';

/**
 * `createConversationPicture`: a picture a team member makes for a reply or note in one
 * conversation, and the address to PUT its bytes at; the same types, size, checks of the bytes and
 * limits of what may wait as a user's (each member counted as one user of the app-mode). It can be
 * named in that conversation's `attachmentIds` (reply.ts), by that member only, once its bytes are there.
 */
export async function createConversationPicture(
  ctx: Ctx<StaffCaller>,
  conversationId: string,
  input: { size: number; contentType: PictureType },
): Promise<{ id: string; upload: SignedAddress }> {
  if (!Number.isInteger(input.size) || input.size < 1 || input.size > MAX_ATTACHMENT_BYTES)
    throw invalidField('size', `must be 1 to ${MAX_ATTACHMENT_BYTES} bytes (MaxAttachmentBytes, 10 MiB)`);
  const staffUserId = ctx.caller.staffUser.id;
  return makeAttachment(ctx, input, async (tx) => {
    // Held against an erase of its person until this commits (which then erases the picture with it).
    const conversation = await holdConversation(tx, conversationId);
    return { appModeId: conversation.appModeId, staffUserId, conversationId: conversation.id };
  });
}
