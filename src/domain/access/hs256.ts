import { createHmac, timingSafeEqual } from 'node:crypto';
import type { JWTPayload } from 'jose';

// The common case of a user token, checked with node:crypto: a compact HS256 JWS whose signature
// and claims hold. jose checks the same through WebCrypto, an asynchronous job of about 0.2 ms of
// CPU a token; this takes a few microseconds. It only ever says yes to a token jose would accept
// with the same options; anything else (another algorithm, `crit` or `b64` headers, a bad
// signature, a claim of the wrong type or out of time) answers undefined, and the caller asks jose,
// whose refusal is then the exact one.

const SEGMENT = /^[A-Za-z0-9_-]+$/;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const utf8 = new TextDecoder('utf-8', { fatal: true });
function json(segment: string): unknown {
  try {
    return JSON.parse(utf8.decode(Buffer.from(segment, 'base64url')));
  } catch {
    return undefined;
  }
}

/** The claims of `token` when it is an HS256 JWS signed with `secret` whose times hold at `now` (± `tolerance` seconds); else undefined. */
export function verifiedHs256(token: string, secret: Uint8Array, now: Date, tolerance: number): JWTPayload | undefined {
  const parts = token.split('.');
  if (parts.length !== 3 || !parts.every((p) => SEGMENT.test(p))) return undefined;
  const [head, body, signature] = parts as [string, string, string];
  const header = json(head);
  if (!isObject(header) || header.alg !== 'HS256' || 'crit' in header || 'b64' in header) return undefined;
  const expected = createHmac('sha256', secret).update(`${head}.${body}`).digest();
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const claims = json(body);
  if (!isObject(claims)) return undefined;
  const seconds = Math.floor(now.getTime() / 1000);
  for (const claim of ['iat', 'exp', 'nbf'] as const)
    if (claims[claim] !== undefined && typeof claims[claim] !== 'number') return undefined;
  if (typeof claims.exp === 'number' && claims.exp <= seconds - tolerance) return undefined;
  if (typeof claims.nbf === 'number' && claims.nbf > seconds + tolerance) return undefined;
  return claims as JWTPayload;
}
