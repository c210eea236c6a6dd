import { PICTURE_TYPES } from '../../lib/blobs/pictures.js';

// The attachment numbers the spec leaves to the service (docs/areas/attachments.md).

/** MaxAttachmentBytes: the largest picture, 10 MiB. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;
/** AttachmentTypes: JPEG, PNG, GIF, WebP, checked from the bytes. */
export const ATTACHMENT_TYPES = PICTURE_TYPES;
/** Pictures per message (the spec's "up to four"). */
export const MAX_PICTURES_PER_MESSAGE = 4;
/** How long an upload address works. */
export const UPLOAD_ADDRESS_SECONDS = 15 * 60;
/** How long a picture's read address works at least (rounded up to the store's 5-minute step). */
export const READ_ADDRESS_SECONDS = 60 * 60;
/** An attachment not used in a message within this long is removed, bytes and all. */
export const UNUSED_ATTACHMENT_HOURS = 24;
/** Attachments a person may hold made and not yet used; beyond, `attachment_limit` until some are used or swept. */
export const MAX_UNUSED_ATTACHMENTS = 40;

/** Where an attachment's bytes are kept in the blob store. */
export const attachmentKey = (appModeId: string, id: string) => `attachments/${appModeId}/${id}`;

/** The owner of an attachment's blob key, or undefined for another area's key. */
export function attachmentOfKey(key: string): { appModeId: string; id: string } | undefined {
  const m = /^attachments\/([^/]+)\/([^/]+)$/.exec(key);
  return m ? { appModeId: m[1]!, id: m[2]! } : undefined;
}
