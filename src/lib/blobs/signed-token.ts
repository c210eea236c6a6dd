import { constantTimeEqual } from '../secrets.js';

// The PostgreSQL store's addresses are routes of this service (`/blobs/<token>`); the token carries
// what the request may do and is signed with HMAC-SHA256 under a key derived from the service's
// secret key, so nothing about an address is kept and any server process can answer it.

export interface TokenTerms {
  /** `put`: upload these exact bytes; `get`: read them. */
  method: 'put' | 'get';
  key: string;
  expiresAt: Date;
  /** Upload: the Content-Type it must carry; read: the type answered. */
  contentType: string;
  /** Upload only: the exact size. */
  size?: number;
}

/** HMAC-SHA256 (hex) under the blob-address key. */
export type Signer = (text: string) => string;

export class BlobAddressRefused extends Error {
  constructor(readonly reason: 'invalid' | 'expired') {
    super(reason === 'expired' ? 'This address has expired.' : 'This address is not one the service made.');
  }
}

interface Wire {
  m: 'put' | 'get';
  k: string;
  e: number;
  t: string;
  n?: number;
}

export function signToken(sign: Signer, terms: TokenTerms): string {
  const wire: Wire = {
    m: terms.method,
    k: terms.key,
    e: Math.ceil(terms.expiresAt.getTime() / 1000),
    t: terms.contentType,
    ...(terms.size === undefined ? {} : { n: terms.size }),
  };
  const body = Buffer.from(JSON.stringify(wire)).toString('base64url');
  return `${body}.${Buffer.from(sign(body), 'hex').toString('base64url')}`;
}

/** The terms of a token this service signed for `method`, refused when forged, altered, for the other method or expired. */
export function openToken(sign: Signer, token: string, method: 'put' | 'get', now: Date): TokenTerms {
  const [body, mac, extra] = token.split('.');
  if (!body || !mac || extra !== undefined || !constantTimeEqual(mac, Buffer.from(sign(body), 'hex').toString('base64url')))
    throw new BlobAddressRefused('invalid');
  const wire = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Wire;
  if (wire.m !== method) throw new BlobAddressRefused('invalid');
  const expiresAt = new Date(wire.e * 1000);
  if (expiresAt.getTime() <= now.getTime()) throw new BlobAddressRefused('expired');
  return { method: wire.m, key: wire.k, expiresAt, contentType: wire.t, size: wire.n };
}
