import { PICTURE_TYPES } from '../../lib/blobs/pictures.js';

// The attachment numbers the spec leaves to the service (docs/areas/attachments.md).

export const MiB = 1024 * 1024;

/** MaxAttachmentBytes: the largest picture, 10 MiB. */
export const MAX_ATTACHMENT_BYTES = 10 * MiB;
/** AttachmentTypes: JPEG, PNG, GIF, WebP, checked from the bytes. */
export const ATTACHMENT_TYPES = PICTURE_TYPES;
/** Pictures per message (the spec's "up to four"). */
export const MAX_PICTURES_PER_MESSAGE = 4;
/** How long an upload address works. */
export const UPLOAD_ADDRESS_SECONDS = 15 * 60;
/** How long a picture's read address works at least (rounded up to the store's 5-minute step). */
export const READ_ADDRESS_SECONDS = 60 * 60;
/** An attachment not used in a message within this long is removed, bytes and all (the sweep runs each minute). */
export const UNUSED_ATTACHMENT_HOURS = 1;

// What may wait to be sent (made, uploaded or not, and not yet named in a message), each counted
// at its declared size from `POST /attachments` on, until it is sent, swept or its user erased.
// Beyond, the attachment is refused and nothing is made.

/** Attachments a person may hold waiting in one app-mode; beyond, 422 `attachment_limit`. */
export const MAX_UNUSED_ATTACHMENTS = 40;
/** Bytes a person may hold waiting in one app-mode (five largest pictures); beyond, 422 `attachment_limit`. */
export const MAX_UNUSED_BYTES_PER_PERSON = 50 * MiB;
/** Bytes all the people of one app-mode may hold waiting together; beyond, 429 `attachment_app_limit`. */
export const MAX_UNUSED_BYTES_PER_APP_MODE = 1024 * MiB;
/** Attachments all the people of one app-mode may hold waiting together; beyond, 429 `attachment_app_limit`. */
export const MAX_UNUSED_ATTACHMENTS_PER_APP_MODE = 10_000;
/** The Retry-After of `attachment_app_limit`: the sweep frees what lapsed each minute. */
export const APP_LIMIT_RETRY_SECONDS = 60;

/** Where an attachment's bytes are kept in the blob store. */
export const attachmentKey = (appModeId: string, id: string) => `attachments/${appModeId}/${id}`;

/** The owner of an attachment's blob key, or undefined for another area's key. */
export function attachmentOfKey(key: string): { appModeId: string; id: string } | undefined {
  const m = /^attachments\/([^/]+)\/([^/]+)$/.exec(key);
  return m ? { appModeId: m[1]!, id: m[2]! } : undefined;
}
