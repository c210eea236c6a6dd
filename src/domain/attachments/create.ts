import { randomUUID } from 'node:crypto';
import type { SignedAddress } from '../../lib/blobs/store.js';
import type { PictureType } from '../../lib/blobs/pictures.js';
import { erasedAmong } from '../contacts/erasure.js';
import { transaction, type Ctx, type GuestCaller } from '../context.js';
import { DomainError, forbidden, notFound } from '../errors.js';
import { attachmentKey, MAX_UNUSED_ATTACHMENTS, UPLOAD_ADDRESS_SECONDS } from './limits.js';
import { lock } from '../locks.js';

/** The messenger's routes answer 404 while it is switched off for the app-mode. */
export function refuseIfMessengerOff(ctx: Ctx<GuestCaller>): void {
  if (!ctx.caller.settings.messengerOn) throw notFound('The messenger is switched off for this app.');
}

/**
 * `POST /attachments`: an attachment of the user's, and the address to PUT its bytes at (the
 * declared type and exact size). It can be named in `attachment_ids` once its bytes are there.
 */
export async function createAttachment(
  ctx: Ctx<GuestCaller>,
  input: { size: number; contentType: PictureType },
): Promise<{ id: string; upload: SignedAddress }> {
  refuseIfMessengerOff(ctx);
  const { appModeId, externalId } = ctx.caller;
  const id = randomUUID();
  await transaction(ctx, async (tx) => {
    // Holds the person against an erase until this commits (nothing made here outlives one).
    if ((await erasedAmong(tx, [externalId])).size)
      throw forbidden('erased', 'This user was erased; nothing is kept for them for 30 days.');
    // One person's creations queue here, so the count below holds when fifty arrive at once.
    await lock(tx, 'attachments', `${appModeId}:${externalId}`);
    const unused = await tx.db.attachment.count({ where: { appModeId, externalId, partId: null } });
    if (unused >= MAX_UNUSED_ATTACHMENTS)
      throw new DomainError(
        422,
        'attachment_limit',
        'Too many pictures waiting',
        `At most ${MAX_UNUSED_ATTACHMENTS} pictures may wait to be sent; send or wait for them to lapse.`,
      );
    await tx.db.attachment.create({
      data: { id, appModeId, externalId, contentType: input.contentType, size: input.size, createdAt: tx.clock.now() },
    });
  });
  const upload = await ctx.svc.blobs.uploadAddress(attachmentKey(appModeId, id), {
    contentType: input.contentType,
    size: input.size,
    seconds: UPLOAD_ADDRESS_SECONDS,
  });
  return { id, upload };
}
