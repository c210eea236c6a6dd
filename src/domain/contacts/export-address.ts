import type { Ctx, Services, StaffCaller } from '../context.js';
import { signedDownloads } from '../downloads/signed-address.js';
import { notFound } from '../errors.js';
import { staffContactWhere } from './staff.js';

// A team member's download of one person's export (the staff API's `exportContact`): a signed,
// short-lived address of the public route `GET /public/v1/contact-exports/{token}`, which answers
// the same body as the server API's export (src/domain/downloads/signed-address.ts: a key of its own,
// so an export token is no blob address, and no blob address opens an export). It names the app-mode
// and the contact, so it exports that one person and no other.

/** Where the addresses are answered (the token follows). */
export const CONTACT_EXPORT_PATH = '/public/v1/contact-exports/';

/** How long an address is good for: long enough to start a download, short enough that a copied one soon stops working. */
export const CONTACT_EXPORT_SECONDS = 300;

const downloads = signedDownloads({
  name: 'contact-export',
  path: CONTACT_EXPORT_PATH,
  seconds: CONTACT_EXPORT_SECONDS,
  contentType: 'application/json',
});

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
  return downloads.address(ctx, appModeId, contact.id);
}

/** The signed token of an address. */
export const contactExportToken = (svc: Pick<Services, 'secrets'>, terms: ContactExportTerms): string =>
  downloads.token(svc, { appModeId: terms.appModeId, id: terms.contactId, expiresAt: terms.expiresAt });

/** What a token this service signed names: 403 `address_invalid` (forged, altered, not an export's) or `address_expired`. */
export function openContactExportAddress(ctx: Ctx, token: string): ContactExportTerms {
  const { appModeId, id, expiresAt } = downloads.open(ctx, token);
  return { appModeId, contactId: id, expiresAt };
}
