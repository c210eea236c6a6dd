import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Services } from '../context.js';

// The signed tokens of the email link routes (`/public/v1/email/c|o|unsubscribe|lists/{token}` and
// `/public/v1/preferences/{token}`): the token is the credential, written by the service into one
// email. It names the email sent (the send's id: the send names the app-mode, the person and the
// email's own version) and what it is for (a link by its index, the open, the unsubscribe, the
// preferences), and is signed with HMAC-SHA256 under a key derived from the deployment's secret key
// for this use alone. Compact: 32 bytes, 43 characters of base64url. A token that is forged, altered,
// cut, or for another purpose opens nothing, and the routes answer 404 alike, never a hint; the
// comparison takes the same time wherever the bytes differ.

export const EMAIL_TOKEN_PURPOSES = ['click', 'open', 'unsubscribe', 'preferences'] as const;
export type EmailTokenPurpose = (typeof EMAIL_TOKEN_PURPOSES)[number];

export interface EmailTokenTerms {
  /** The email sent (a UUID). */
  sendId: string;
  purpose: EmailTokenPurpose;
  /** click: the link's index in the email's version (0 for the others). */
  link: number;
}

/** The largest link index a token can name: an email has at most this many links plus one. */
export const MAX_LINK_INDEX = 0xffff;

const FORMAT = 1;
const BODY_BYTES = 1 + 1 + 16 + 2;
const MAC_BYTES = 12;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The key of email link tokens: HMAC-SHA256, derived from the deployment's secret key for this use alone. */
export type EmailTokenKey = Buffer;

export const emailTokenKey = (svc: Pick<Services, 'secrets'>): EmailTokenKey => svc.secrets.keyFor('email-link-token');

const macOf = (key: EmailTokenKey, body: Buffer) => createHmac('sha256', key).update(body).digest().subarray(0, MAC_BYTES);

export function emailToken(key: EmailTokenKey, terms: EmailTokenTerms): string {
  if (!UUID.test(terms.sendId)) throw new Error(`not a send id: ${terms.sendId}`);
  if (!Number.isInteger(terms.link) || terms.link < 0 || terms.link > MAX_LINK_INDEX) throw new Error(`not a link index: ${terms.link}`);
  const body = Buffer.alloc(BODY_BYTES);
  body[0] = FORMAT;
  body[1] = EMAIL_TOKEN_PURPOSES.indexOf(terms.purpose);
  Buffer.from(terms.sendId.replaceAll('-', ''), 'hex').copy(body, 2);
  body.writeUInt16BE(terms.link, 18);
  return Buffer.concat([body, macOf(key, body)]).toString('base64url');
}

/** What a token names when this service signed it for `purpose`; undefined for anything else. */
export function openEmailToken(key: EmailTokenKey, token: string, purpose: EmailTokenPurpose): EmailTokenTerms | undefined {
  if (token.length !== 43 || !/^[A-Za-z0-9_-]+$/.test(token)) return undefined;
  const bytes = Buffer.from(token, 'base64url');
  // base64url has spare bits in its last character: only the one spelling this service writes is read.
  if (bytes.length !== BODY_BYTES + MAC_BYTES || bytes.toString('base64url') !== token) return undefined;
  const body = bytes.subarray(0, BODY_BYTES);
  if (!timingSafeEqual(bytes.subarray(BODY_BYTES), macOf(key, body))) return undefined;
  if (body[0] !== FORMAT || EMAIL_TOKEN_PURPOSES[body[1]!] !== purpose) return undefined;
  const hex = body.subarray(2, 18).toString('hex');
  const sendId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return { sendId, purpose, link: body.readUInt16BE(18) };
}
