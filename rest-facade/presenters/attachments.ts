import type { z } from 'zod';
import type { SignedAddress } from '../../src/lib/blobs/store.js';
import type { AttachmentUpload } from '../guest/attachments.schemas.js';

// A new attachment as its route answers it: its id and where to upload the picture.

export const presentUpload = ({ id, upload }: { id: string; upload: SignedAddress }): z.input<typeof AttachmentUpload> => ({
  id,
  upload_url: upload.url,
  upload_method: 'PUT',
  upload_headers: upload.headers,
  upload_expires_at: upload.expiresAt.toISOString(),
});
