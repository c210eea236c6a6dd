import { createHmac, timingSafeEqual } from 'node:crypto';

// The inbound email hooks' `X-CRM-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`,
// checked over the raw bytes under the inbound secret(s) in force. Several `v1` values may come (a
// converter rolling its secret signs with the old and the new); one that matches any secret is
// enough. Every comparison takes the same time wherever the bytes differ.

/** How far `t` may be from now, either way: five minutes (spec, Limits). */
export const SIGNATURE_TOLERANCE_SECONDS = 300;
/** A header longer than this is refused unread: a few `v1` values fit many times over. */
const MAX_HEADER = 2048;
const HEX_SHA256 = /^[0-9a-f]{64}$/i;

export type SignatureVerdict = 'ok' | 'missing' | 'malformed' | 'stale' | 'wrong';

export function verifyHookSignature(header: string | undefined, raw: Buffer, secrets: string[], now: Date): SignatureVerdict {
  if (!header) return 'missing';
  if (header.length > MAX_HEADER) return 'malformed';
  let t: string | undefined;
  const v1: Buffer[] = [];
  for (const item of header.split(',')) {
    const eq = item.indexOf('=');
    if (eq < 0) return 'malformed';
    const name = item.slice(0, eq).trim();
    const value = item.slice(eq + 1).trim();
    if (name === 't') {
      if (t !== undefined || !/^\d{1,12}$/.test(value)) return 'malformed';
      t = value;
    } else if (name === 'v1') {
      // Not hex of 32 bytes: it matches nothing, but another v1 may.
      if (HEX_SHA256.test(value)) v1.push(Buffer.from(value, 'hex'));
    }
    // Other schemes (v0, a future v2) are passed over, as Stripe's libraries do.
  }
  if (t === undefined) return 'malformed';
  if (Math.abs(now.getTime() / 1000 - Number(t)) > SIGNATURE_TOLERANCE_SECONDS) return 'stale';
  let matched = false;
  for (const secret of secrets) {
    const expected = createHmac('sha256', secret).update(`${t}.`).update(raw).digest();
    // Each candidate compared in full, whatever an earlier one gave.
    for (const given of v1) if (timingSafeEqual(given, expected)) matched = true;
  }
  return matched ? 'ok' : 'wrong';
}
