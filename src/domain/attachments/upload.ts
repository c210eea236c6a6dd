import { PICTURE_HEAD_BYTES } from '../../lib/blobs/pictures.js';
import { transaction, type Ctx } from '../context.js';
import { conflict, notFound } from '../errors.js';
import { checkPicture } from './check.js';
import { attachmentOfKey } from './limits.js';
import { attachmentInvalid } from './refusals.js';

/**
 * Bytes PUT at an attachment's upload address of the service's own store (the address's
 * signature, type and size already checked): kept when they are the declared picture, refused with
 * 422 `attachment_invalid` at once otherwise. A picture already used in a message is never replaced.
 */
export async function receiveAttachmentUpload(ctx: Ctx, key: string, bytes: Buffer): Promise<void> {
  const owner = attachmentOfKey(key);
  if (!owner) throw notFound();
  await transaction(ctx, async (tx) => {
    // Locked while the bytes are written: a use of it waits, and then sees them.
    const [row] = await tx.db.$queryRaw<{ content_type: string; size: number; part_id: string | null }[]>`
      SELECT content_type, size, part_id FROM attachment WHERE id = ${owner.id} AND app_mode_id = ${owner.appModeId} FOR UPDATE`;
    if (!row) throw notFound('No such attachment: it was swept after a day unused, or its user erased.');
    if (row.part_id) throw conflict('attachment_used', 'This picture was sent already; its bytes are not replaced.');
    const found = checkPicture({ contentType: row.content_type, size: row.size }, { head: bytes.subarray(0, PICTURE_HEAD_BYTES), size: bytes.length });
    if ('refused' in found) throw attachmentInvalid([{ field: 'body', message: found.refused }]);
    await tx.svc.blobs.put(key, bytes, row.content_type);
    await tx.db.attachment.update({ where: { id: owner.id }, data: { uploadedAt: tx.clock.now(), width: found.width, height: found.height } });
  });
}
