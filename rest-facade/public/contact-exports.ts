import { CONTACT_EXPORT_PATH, CONTACT_EXPORT_SECONDS, openContactExportAddress } from '../../src/domain/contacts/export-address.js';
import { exportContactById } from '../../src/domain/contacts/export.js';
import type { RequestLog } from '../../src/http/observability.js';
import { defineRoute } from '../http/route.js';
import { ExportContact } from '../server/contacts.schemas.js';
import { EXPORT_WRITTEN, exportAnswer } from '../presenters/contacts.js';
import { TokenParams } from './contact-exports.schemas.js';

// A team member's download of one person's export: the address the staff API's `exportContact`
// gives (src/domain/contacts/export-address.ts), the signed token in the path its only credential.

/** A file name of the person's own id where it is plain, their contact id otherwise. */
const fileName = (externalId: string, contactId: string) => {
  const plain = /^[A-Za-z0-9._-]{1,64}$/.test(externalId) && !externalId.startsWith('.') ? externalId : contactId;
  return `contact-${plain}.json`;
};

export const getContactExportDownload = defineRoute({
  method: 'get',
  path: `${CONTACT_EXPORT_PATH}{token}`,
  surface: 'public',
  tag: 'Contacts',
  summary: `A person's export as a download, by the signed address the staff API's exportContact gave a team member (good for ${CONTACT_EXPORT_SECONDS / 60} minutes, for that one person of that app-mode); the token is the only credential`,
  params: TokenParams,
  responses: {
    200: {
      description: `The same ExportContact as GET /server/v1/contacts/{external_id}/export, with Content-Disposition: attachment (contact-<their id>.json) and Cache-Control: no-store; ${EXPORT_WRITTEN}`,
      schema: ExportContact,
    },
    403: {
      description:
        'address_expired: the address is older than its minutes (ask the staff API for another); address_invalid: altered, forged, or not an export address',
    },
    404: { description: 'The person is gone or being erased' },
  },
  errors: [400, 403, 404, 429],
  async handle(ctx, { params }) {
    const terms = openContactExportAddress(ctx.state.context, params.token);
    const { externalId, kept } = await exportContactById(ctx.state.context, terms.appModeId, terms.contactId);
    // The request's log line names the app-mode (never the token: the log names the route's template).
    (ctx.state as { log?: RequestLog }).log?.setBindings({ app_mode: terms.appModeId });
    return exportAnswer(ctx, kept, {
      'Content-Disposition': `attachment; filename="${fileName(externalId, terms.contactId)}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    });
  },
});
