import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SecretBox } from '../../lib/secrets.js';
import { emailToken, emailTokenKey, openEmailToken, type EmailTokenTerms } from './tokens.js';

const key = emailTokenKey({ secrets: new SecretBox(Buffer.alloc(32, 7).toString('base64')) });
const other = emailTokenKey({ secrets: new SecretBox(Buffer.alloc(32, 8).toString('base64')) });

describe('email link tokens', () => {
  it('open to what they name, for their purpose only, and are 43 characters of base64url', () => {
    const sendId = randomUUID();
    const click: EmailTokenTerms = { sendId, purpose: 'click', link: 7 };
    const token = emailToken(key, click);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(openEmailToken(key, token, 'click')).toEqual(click);
    expect(openEmailToken(key, token, 'open')).toBeUndefined();
    expect(openEmailToken(key, token, 'unsubscribe')).toBeUndefined();
    expect(openEmailToken(other, token, 'click')).toBeUndefined();
    const open = emailToken(key, { sendId, purpose: 'open', link: 0 });
    expect(openEmailToken(key, open, 'open')).toEqual({ sendId, purpose: 'open', link: 0 });
    expect(openEmailToken(key, open, 'click')).toBeUndefined();
  });

  it('open nothing once altered anywhere, cut, lengthened or respelled', () => {
    const token = emailToken(key, { sendId: randomUUID(), purpose: 'unsubscribe', link: 0 });
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    fc.assert(
      fc.property(fc.nat(42), fc.constantFrom(...alphabet), (at, c) => {
        const altered = token.slice(0, at) + c + token.slice(at + 1);
        // Only the one spelling the service wrote opens (the last character has spare bits).
        expect(openEmailToken(key, altered, 'unsubscribe') !== undefined).toBe(altered === token);
      }),
      { numRuns: 1000 },
    );
    expect(openEmailToken(key, token.slice(0, 42), 'unsubscribe')).toBeUndefined();
    expect(openEmailToken(key, `${token}A`, 'unsubscribe')).toBeUndefined();
    expect(openEmailToken(key, token.replace(/./, '+'), 'unsubscribe')).toBeUndefined();
    expect(openEmailToken(key, '', 'unsubscribe')).toBeUndefined();
  });

  it('name links 0 to 65535 and refuse to sign anything else', () => {
    const sendId = randomUUID();
    for (const link of [0, 1, 255, 256, 65535]) {
      expect(openEmailToken(key, emailToken(key, { sendId, purpose: 'click', link }), 'click')?.link).toBe(link);
    }
    expect(() => emailToken(key, { sendId, purpose: 'click', link: 65536 })).toThrow();
    expect(() => emailToken(key, { sendId, purpose: 'click', link: -1 })).toThrow();
    expect(() => emailToken(key, { sendId: 'not-a-uuid', purpose: 'click', link: 0 })).toThrow();
  });
});
