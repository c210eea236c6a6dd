import { z } from 'zod';
import { pictureAddress } from '../../src/domain/attachments/addresses.js';
import { createAttachment } from '../../src/domain/attachments/create.js';
import {
  ATTACHMENT_TYPES,
  MAX_ATTACHMENT_BYTES,
  MAX_PICTURES_PER_MESSAGE,
  UPLOAD_ADDRESS_SECONDS,
} from '../../src/domain/attachments/limits.js';
import type { Picture } from '../../src/domain/attachments/use.js';
import type { Ctx } from '../../src/domain/context.js';
import { defineRoute } from '../http/route.js';

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

/** A picture of a part as guests see it, with a short-lived address to read it (for the Part answers). */
export const PictureAnswer = z
  .object({
    id: z.string(),
    content_type: z.enum(ATTACHMENT_TYPES),
    bytes: z.int(),
    width: z.int().nullable().describe('Pixels, when the picture header gives them'),
    height: z.int().nullable(),
    url: z.string().describe('Where to GET the picture; short-lived'),
    url_expires_at: z.iso.datetime({ offset: true }),
  })
  .meta({ id: 'Picture' });

export async function presentPicture(ctx: Ctx, appModeId: string, p: Picture): Promise<z.output<typeof PictureAnswer>> {
  const read = await pictureAddress(ctx, appModeId, p);
  return {
    id: p.id,
    content_type: p.contentType as z.output<typeof PictureAnswer>['content_type'],
    bytes: p.size,
    width: p.width,
    height: p.height,
    url: read.url,
    url_expires_at: read.expiresAt.toISOString(),
  };
}

export const postAttachment = defineRoute({
  method: 'post',
  path: '/guest/v1/attachments',
  surface: 'guest',
  tag: 'Messenger',
  summary: 'Make an attachment and get the address to upload its picture to; then name its id in attachment_ids',
  body: AttachmentBody,
  responses: { 201: { description: 'The attachment and its upload address', schema: AttachmentUpload } },
  errors: [400, 401, 403, 404, 422, 429],
  async handle(ctx, { body }) {
    const { id, upload } = await createAttachment(ctx.state.context, { size: body.bytes, contentType: body.content_type });
    return {
      status: 201,
      body: {
        id,
        upload_url: upload.url,
        upload_method: 'PUT',
        upload_headers: upload.headers,
        upload_expires_at: upload.expiresAt.toISOString(),
      },
    };
  },
});
