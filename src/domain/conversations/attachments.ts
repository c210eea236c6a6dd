import type { ConversationPart } from '../../generated/prisma/client.js';
import { picturesOfParts } from '../attachments/addresses.js';
import { MAX_PICTURES_PER_MESSAGE } from '../attachments/limits.js';
import { useAttachments, type Picture } from '../attachments/use.js';
import type { Ctx, GuestCaller, TxCtx } from '../context.js';

// Pictures named in `attachment_ids` of a start or a message (src/domain/attachments): each an
// upload of the person's own, used once, at most four per message.

export const MAX_PICTURES = MAX_PICTURES_PER_MESSAGE;

/** Makes the pictures the part's, in the caller's transaction (422 naming `attachment_ids.<i>` for one that cannot be used). */
export async function attachPictures(tx: TxCtx<GuestCaller>, part: Pick<ConversationPart, 'id'>, ids: string[]): Promise<void> {
  await useAttachments(tx, { ids, partId: part.id });
}

/** The parts' pictures, by part id, in the order they were named (one read, only when a part has any). */
export async function picturesOf(
  ctx: Ctx,
  parts: Pick<ConversationPart, 'id' | 'appModeId' | 'attachmentIds'>[],
): Promise<Map<string, Picture[]>> {
  const withPictures = parts.filter((p) => p.attachmentIds.length);
  if (!withPictures.length) return new Map();
  return picturesOfParts(
    ctx,
    withPictures[0]!.appModeId,
    withPictures.map((p) => p.id),
  );
}
