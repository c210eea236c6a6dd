import { createAttachment } from '../../src/domain/attachments/create.js';
import {
  MAX_UNUSED_ATTACHMENTS,
  MAX_UNUSED_ATTACHMENTS_PER_APP_MODE,
  MAX_UNUSED_BYTES_PER_APP_MODE,
  MAX_UNUSED_BYTES_PER_PERSON,
  UNUSED_ATTACHMENT_HOURS,
} from '../../src/domain/attachments/limits.js';
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
  responses: {
    201: {
      description:
        'The attachment and its upload address. Pictures wait from here until named in a message, each counted at its declared bytes ' +
        `(uploaded or not), and are removed unused after ${UNUSED_ATTACHMENT_HOURS} hour. A user may have ${MAX_UNUSED_ATTACHMENTS} pictures ` +
        `and ${MAX_UNUSED_BYTES_PER_PERSON} bytes (50 MiB) waiting (beyond: 422 attachment_limit); all users of the app-mode together ` +
        `${MAX_UNUSED_ATTACHMENTS_PER_APP_MODE} pictures and ${MAX_UNUSED_BYTES_PER_APP_MODE} bytes (1 GiB) (beyond: 429 attachment_app_limit, ` +
        'with Retry-After). Nothing is made when refused',
      schema: AttachmentUpload,
    },
  },
  errors: [400, 401, 403, 404, 422, 429],
  async handle(ctx, { body }) {
    return {
      status: 201,
      body: presentUpload(await createAttachment(ctx.state.context, { size: body.bytes, contentType: body.content_type })),
    };
  },
});
