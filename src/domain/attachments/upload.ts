import { PICTURE_HEAD_BYTES } from '../../lib/blobs/pictures.js';
import type { Ctx } from '../context.js';
import { conflict, notFound } from '../errors.js';
import { checkPicture } from './check.js';
import { attachmentOfKey } from './limits.js';
import { attachmentInvalid } from './refusals.js';

/**
 * Bytes PUT at an attachment's upload address of the service's own store (the address's
 * signature, type and size already checked): kept when they are the declared picture, refused with
 * 422 `attachment_invalid` at once otherwise. A picture already sent is never replaced.
 *
 * No transaction is held while the bytes are written: the store writes on a connection of its own,
 * and a request holding one connection while waiting for a second could starve the pool.
 */
export async function receiveAttachmentUpload(ctx: Ctx, key: string, bytes: Buffer): Promise<void> {
  const owner = attachmentOfKey(key);
  if (!owner) throw notFound();
  const where = { id: owner.id, appModeId: owner.appModeId };
  const gone = () => notFound('No such attachment: it was swept unused after an hour, or its user erased.');
  const row = await ctx.db.attachment.findFirst({ where });
  if (!row) throw gone();
  if (row.partId) throw conflict('attachment_used', 'This picture was sent already; its bytes are not replaced.');
  const found = checkPicture(row, { head: bytes.subarray(0, PICTURE_HEAD_BYTES), size: bytes.length });
  if ('refused' in found) throw attachmentInvalid([{ field: 'body', message: found.refused }]);
  await ctx.svc.blobs.put(key, bytes, row.contentType);
  const { count } = await ctx.db.attachment.updateMany({
    where: { ...where, partId: null },
    data: { uploadedAt: ctx.clock.now(), width: found.width, height: found.height },
  });
  if (count) return;
  // Erased or swept while the bytes were written (its bytes removed before ours arrived): ours go too.
  // Sent meanwhile (an earlier upload to the same address was sent while this one was written): these
  // bytes stand in for it; they are the same user's, of the same type and exact size, checked alike.
  if (!(await ctx.db.attachment.findFirst({ where, select: { id: true } }))) {
    await ctx.svc.blobs.deleteMany([key]);
    throw gone();
  }
}
