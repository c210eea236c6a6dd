import { PICTURE_HEAD_BYTES } from '../../lib/blobs/pictures.js';
import type { GuestCaller, TxCtx } from '../context.js';
import type { FieldError } from '../errors.js';
import { checkPicture } from './check.js';
import { attachmentKey, MAX_PICTURES_PER_MESSAGE } from './limits.js';
import { ownerOf, type AttachmentOwner } from './owner.js';
import { attachmentInvalid, tooManyPictures } from './refusals.js';
import { rows, sql } from '../../db/sql.js';

/** What a part shows of a picture; `pictureAddress` gives where to read it. */
export interface Picture {
  id: string;
  contentType: string;
  /** Its size in bytes. */
  size: number;
  width: number | null;
  height: number | null;
}

interface Row {
  id: string;
  external_id: string | null;
  staff_user_id: string | null;
  conversation_id: string | null;
  content_type: string;
  size: number;
  uploaded_at: Date | null;
  width: number | null;
  height: number | null;
  part_id: string | null;
}

/**
 * Names pictures in a part, inside the caller's transaction: each id must be an attachment this
 * user made in this app-mode, uploaded with bytes of its declared type and size, and not used
 * before; at most four. All are marked used by `partId`, in the order given, or none is: a refusal
 * is 422 naming `<field>` (too many) or `<field>.<index>` for each bad id. Answers the pictures in order.
 */
export function useAttachments(tx: TxCtx<GuestCaller>, input: { ids: string[]; partId: string; field?: string }): Promise<Picture[]> {
  return usePictures(tx, { appModeId: tx.caller.appModeId, externalId: tx.caller.externalId }, input);
}

/**
 * The same for any owner (owner.ts): a user's pictures in their message, or a team member's in
 * their reply or note in the conversation they made them for.
 */
export async function usePictures(
  tx: TxCtx,
  owner: AttachmentOwner,
  input: { ids: string[]; partId: string; field?: string },
): Promise<Picture[]> {
  const { ids, partId, field = 'attachment_ids' } = input;
  if (!ids.length) return [];
  if (ids.length > MAX_PICTURES_PER_MESSAGE) throw tooManyPictures(field, MAX_PICTURES_PER_MESSAGE);
  const { appModeId } = owner;
  // Locked: the same id named by two messages at once is used by one of them only.
  const found = await rows<Row>(
    tx,
    sql`
    SELECT id, external_id, staff_user_id, conversation_id, content_type, size, uploaded_at, width, height, part_id
    FROM attachment WHERE app_mode_id = ${appModeId} AND id = ANY(${ids}::text[]) ORDER BY id FOR UPDATE`,
  );
  const byId = new Map(found.map((r) => [r.id, r]));
  const errors: FieldError[] = [];
  const pictures: Picture[] = [];
  const now = tx.clock.now();
  for (const [index, id] of ids.entries()) {
    const at = `${field}.${index}`;
    const row = byId.get(id);
    // Another user's attachment is answered as no attachment at all.
    const whose = row ? ownerOf(owner, row) : 'no';
    if (!row || whose === 'no') {
      errors.push({ field: at, message: 'no picture of yours has this id' });
      continue;
    }
    if (whose === 'another conversation') {
      errors.push({ field: at, message: 'this picture was made for another conversation' });
      continue;
    }
    if (ids.indexOf(id) !== index) {
      errors.push({ field: at, message: 'this picture is named twice' });
      continue;
    }
    if (row.part_id) {
      errors.push({ field: at, message: 'this picture was sent already' });
      continue;
    }
    if (!row.uploaded_at) {
      // An upload straight to the object store is checked here, when it is first used. (One through
      // the service's own route was checked as it arrived: none has come.)
      const found = tx.svc.blobs.receivesUploads ? undefined : await tx.svc.blobs.head(attachmentKey(appModeId, id), PICTURE_HEAD_BYTES);
      if (!found) {
        errors.push({ field: at, message: 'its bytes have not been uploaded' });
        continue;
      }
      const checked = checkPicture({ contentType: row.content_type, size: row.size }, found);
      if ('refused' in checked) {
        errors.push({ field: at, message: checked.refused });
        continue;
      }
      Object.assign(row, { uploaded_at: now, width: checked.width, height: checked.height });
    }
    pictures.push({ id, contentType: row.content_type, size: row.size, width: row.width, height: row.height });
  }
  if (errors.length) throw attachmentInvalid(errors);
  for (const [position, p] of pictures.entries()) {
    const row = byId.get(p.id)!;
    await tx.db.attachment.update({
      where: { id: p.id },
      data: { partId, position, usedAt: now, uploadedAt: row.uploaded_at, width: p.width, height: p.height },
    });
  }
  return pictures;
}
