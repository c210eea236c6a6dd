import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

// Random credentials, their hashes, constant-time comparison, and encryption at rest.

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `length` characters of base62: no `_`, so a live key can never run into a test prefix. */
export function randomToken(length = 32): string {
  const out: string[] = [];
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out.push(BASE62[byte % 62]!);
    }
  }
  return out.join('');
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** AES-256-GCM under the deployment's secret key; for secrets that must be used, not only checked. */
export class SecretBox {
  private readonly key: Buffer;
  private readonly derived = new Map<string, Buffer>();
  constructor(keyBase64: string) {
    this.key = Buffer.from(keyBase64, 'base64');
    if (this.key.length !== 32) throw new Error('CRM_SECRET_KEY must be 32 bytes, base64-encoded');
  }
  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
  }
  /** A key derived from the deployment's for one purpose alone (HKDF-SHA256): what one use signs, no other opens. */
  keyFor(purpose: string): Buffer {
    let key = this.derived.get(purpose);
    if (!key) this.derived.set(purpose, (key = Buffer.from(hkdfSync('sha256', this.key, '', `crm:${purpose}`, 32))));
    return key;
  }
  /** HMAC-SHA256 of `text` under a key derived for one purpose, so a hash kept for one use answers no other. */
  keyedHash(purpose: string, text: string): string {
    return createHmac('sha256', this.keyFor(purpose)).update(text).digest('hex');
  }
  open(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('unreadable sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }
}
