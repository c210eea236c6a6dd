import { z } from 'zod';
import {
  ATTACHMENT_TYPES,
  MAX_ATTACHMENT_BYTES,
  MAX_PICTURES_PER_MESSAGE,
  UPLOAD_ADDRESS_SECONDS,
} from '../../src/domain/attachments/limits.js';

// Making an attachment: the picture declared, and where to upload it. The picture as a part
// answers it is in conversations.schemas.ts (PictureAnswer).

export const AttachmentBody = z
  .object({
    bytes: z
      .int()
      .min(1)
      .max(MAX_ATTACHMENT_BYTES, `must be at most ${MAX_ATTACHMENT_BYTES} (MaxAttachmentBytes, 10 MiB)`)
      .describe(
        `The picture's exact size in bytes, at most MaxAttachmentBytes (${MAX_ATTACHMENT_BYTES}); the upload must have exactly this many`,
      ),
    content_type: z
      .enum(ATTACHMENT_TYPES)
      .describe('The picture type; the uploaded bytes must be of this type (read from the bytes themselves)'),
  })
  .meta({ id: 'AttachmentBody' });

export const AttachmentUpload = z
  .object({
    id: z
      .string()
      .describe(`Name it in attachment_ids (up to ${MAX_PICTURES_PER_MESSAGE} per message) once the bytes are uploaded; used once`),
    upload_url: z.string().describe("Where to send the picture's bytes, as the body, exactly as declared"),
    upload_method: z.literal('PUT'),
    upload_headers: z.record(z.string(), z.string()).describe('Headers the upload must carry as given (Content-Type)'),
    upload_expires_at: z.iso.datetime({ offset: true }).describe(`The address works until then (${UPLOAD_ADDRESS_SECONDS / 60} minutes)`),
  })
  .meta({ id: 'AttachmentUpload' });
