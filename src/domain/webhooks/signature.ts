import { createHmac } from 'node:crypto';

// X-CRM-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">, the scheme the
// inbound email hooks use and Stripe's libraries verify. Signed afresh on every try.

export function signatureHeader(secret: string, body: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}
