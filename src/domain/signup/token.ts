import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Services } from '../context.js';

// The confirmation link's token: the pending sign-up's id and an HMAC-SHA256 of it under a key
// derived from the deployment's secret key for this use alone. Nothing of it is stored: the mail
// step makes it again from the id, and a sign-up replaced by a later one (a new id) opens nothing.
// 32 bytes, 43 characters of base64url; anything forged, altered or cut opens nothing.

const ID_BYTES = 16;
const MAC_BYTES = 16;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const keyOf = (svc: Pick<Services, 'secrets'>) => svc.secrets.keyFor('signup-confirm');
const macOf = (svc: Pick<Services, 'secrets'>, id: Buffer) => createHmac('sha256', keyOf(svc)).update(id).digest().subarray(0, MAC_BYTES);

export function signupToken(svc: Pick<Services, 'secrets'>, signupId: string): string {
  if (!UUID.test(signupId)) throw new Error(`not a sign-up id: ${signupId}`);
  const id = Buffer.from(signupId.replaceAll('-', ''), 'hex');
  return Buffer.concat([id, macOf(svc, id)]).toString('base64url');
}

/** The sign-up id a token names when this service made it; undefined for anything else. */
export function openSignupToken(svc: Pick<Services, 'secrets'>, token: string): string | undefined {
  if (token.length !== 43 || !/^[A-Za-z0-9_-]+$/.test(token)) return undefined;
  const bytes = Buffer.from(token, 'base64url');
  // base64url has spare bits in its last character: only the one spelling this service writes is read.
  if (bytes.length !== ID_BYTES + MAC_BYTES || bytes.toString('base64url') !== token) return undefined;
  const id = bytes.subarray(0, ID_BYTES);
  if (!timingSafeEqual(bytes.subarray(ID_BYTES), macOf(svc, id))) return undefined;
  const hex = id.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
