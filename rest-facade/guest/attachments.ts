import { createAttachment } from '../../src/domain/attachments/create.js';
import { defineRoute } from '../http/route.js';
import { presentUpload } from '../presenters/attachments.js';
import { AttachmentBody, AttachmentUpload } from './attachments.schemas.js';

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
    return {
      status: 201,
      body: presentUpload(await createAttachment(ctx.state.context, { size: body.bytes, contentType: body.content_type })),
    };
  },
});
