import { BlobAddressRefused, openToken, signToken, type Signer } from '../../lib/blobs/signed-token.js';
import type { Ctx, Services, StaffCaller } from '../context.js';
import { DomainError, notFound } from '../errors.js';
import { staffContactWhere } from './staff.js';

// A team member's download of one person's export (the staff API's `exportContact`): a signed,
// short-lived address of the public route `GET /public/v1/contact-exports/{token}`, which answers
// the same body as the server API's export. The token is the credential, as the blob store's
// addresses are (src/lib/blobs/signed-token.ts, the same signing), under a key of its own derived
// from the service's secret key: an export token is no blob address, and no blob address opens an
// export. It names the app-mode and the contact, so it exports that one person and no other, and
// nothing about it is kept: any server process answers it. The request log names the route's
// template, never the path, so the token is not logged.

/** Where the addresses are answered (the token follows). */
export const CONTACT_EXPORT_PATH = '/public/v1/contact-exports/';

/** How long an address is good for: long enough to start a download, short enough that a copied one soon stops working. */
export const CONTACT_EXPORT_SECONDS = 300;

const KEY_PREFIX = 'contact-export/';

const signerOf =
  (svc: Pick<Services, 'secrets'>): Signer =>
  (text) =>
    svc.secrets.keyedHash('contact-export-address', text);

/** What an address names. */
export interface ContactExportTerms {
  appModeId: string;
  contactId: string;
  expiresAt: Date;
}

/** The address (staff checked they may export in the app-mode), valid CONTACT_EXPORT_SECONDS; not found for a contact not of the app-mode, gone or being erased. */
export async function contactExportAddress(
  ctx: Ctx<StaffCaller>,
  appModeId: string,
  contactId: string,
): Promise<{ url: string; expiresAt: Date }> {
  const contact = await ctx.db.contact.findFirst({ where: staffContactWhere(appModeId, { id: contactId }), select: { id: true } });
  if (!contact) throw notFound('No such contact.');
  const expiresAt = new Date(Math.ceil((ctx.clock.now().getTime() + CONTACT_EXPORT_SECONDS * 1000) / 1000) * 1000);
  const token = contactExportToken(ctx.svc, { appModeId, contactId: contact.id, expiresAt });
  return { url: `${ctx.svc.config.baseUrl}${CONTACT_EXPORT_PATH}${token}`, expiresAt };
}

/** The signed token of an address (whole seconds: the token keeps its time so). */
export const contactExportToken = (svc: Pick<Services, 'secrets'>, terms: ContactExportTerms): string =>
  signToken(signerOf(svc), {
    method: 'get',
    key: `${KEY_PREFIX}${terms.appModeId}/${terms.contactId}`,
    expiresAt: terms.expiresAt,
    contentType: 'application/json',
  });

/** What a token this service signed names: 403 `address_invalid` (forged, altered, not an export's) or `address_expired`. */
export function openContactExportAddress(ctx: Ctx, token: string): ContactExportTerms {
  const refused = (reason: 'invalid' | 'expired') =>
    new DomainError(403, `address_${reason}`, 'Refused', new BlobAddressRefused(reason).message);
  let key: string;
  let expiresAt: Date;
  try {
    ({ key, expiresAt } = openToken(signerOf(ctx.svc), token, 'get', ctx.clock.now()));
  } catch (err) {
    if (err instanceof BlobAddressRefused) throw refused(err.reason);
    // A body that is no JSON can only be one this service did not sign: refused before it is read.
    throw refused('invalid');
  }
  const [appModeId, contactId, extra] = key.startsWith(KEY_PREFIX) ? key.slice(KEY_PREFIX.length).split('/') : [];
  if (!appModeId || !contactId || extra !== undefined) throw refused('invalid');
  return { appModeId, contactId, expiresAt };
}
