import { createHmac } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { verifiedHs256 } from '../src/domain/access/hs256.js';

// The quick check of user tokens says yes only where jose, with the options the guest routes give
// it, says yes too, with the same claims; where it says no, jose answers (and gives the refusal).

const secret = new TextEncoder().encode('an identity secret of this app, long enough');
const other = new TextEncoder().encode('the other mode’s identity secret, long enough');
const now = new Date('2026-11-21T12:00:00Z');
const at = Math.floor(now.getTime() / 1000);
const TOLERANCE = 30;

const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');
/** A token signed as given: any header and claims, any bytes. */
function signed(header: unknown, claims: unknown, key = secret, alg = 'sha256'): string {
  const input = `${b64(header)}.${typeof claims === 'string' || Buffer.isBuffer(claims) ? Buffer.from(claims as string).toString('base64url') : b64(claims)}`;
  return `${input}.${createHmac(alg, key).update(input).digest('base64url')}`;
}
const jose = (token: string) =>
  jwtVerify(token, secret, { algorithms: ['HS256'], currentDate: now, clockTolerance: TOLERANCE }).then(
    (r) => r.payload,
    () => undefined,
  );

describe('the quick HS256 check of user tokens', () => {
  it('accepts what jose accepts, with the same claims', async () => {
    const accepted = [
      await new SignJWT({ sub: 'u1' })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt(at)
        .setExpirationTime(at + 3600)
        .sign(secret),
      await new SignJWT({ sub: 'u2', plan: { tier: 'pro' } }).setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: 'k1' }).sign(secret),
      signed({ alg: 'HS256' }, { sub: 'u3', exp: at - 10 }), // expired, within the tolerance
      signed({ alg: 'HS256' }, { sub: 'u4', nbf: at + 10 }), // not yet, within the tolerance
      signed({ alg: 'HS256' }, { sub: 'ünïcødé 名前' }),
    ];
    for (const token of accepted) {
      const theirs = await jose(token);
      expect(theirs).toBeDefined();
      expect(verifiedHs256(token, secret, now, TOLERANCE)).toEqual(theirs);
    }
  });

  it('leaves to jose every token jose refuses', async () => {
    const refused = [
      signed({ alg: 'HS256' }, { sub: 'u', exp: at - TOLERANCE }),
      signed({ alg: 'HS256' }, { sub: 'u', nbf: at + TOLERANCE + 1 }),
      signed({ alg: 'HS256' }, { sub: 'u', exp: String(at + 60) }),
      signed({ alg: 'HS256' }, { sub: 'u', iat: 'today' }),
      signed({ alg: 'HS256' }, { sub: 'u', nbf: null }),
      signed({ alg: 'HS256' }, ['u']),
      signed({ alg: 'HS256' }, 'not json'),
      signed({ alg: 'HS256' }, Buffer.from([0x7b, 0x22, 0x73, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]) as unknown as string), // {"s":"\xff"}: not UTF-8
      signed({ alg: 'HS256', crit: ['exp'] }, { sub: 'u' }),
      signed({ alg: 'HS256', b64: false, crit: ['b64'] }, { sub: 'u' }),
      signed({ alg: 'HS384' }, { sub: 'u' }, secret, 'sha384'),
      signed({ alg: 'none' }, { sub: 'u' }),
      signed({ typ: 'JWT' }, { sub: 'u' }),
      signed({ alg: 'HS256' }, { sub: 'u' }, other),
      `${signed({ alg: 'HS256' }, { sub: 'u' }).split('.').slice(0, 2).join('.')}.${b64('x'.repeat(32))}`,
      (([h, , s]) => `${h}.${b64({ sub: 'admin' })}.${s}`)(signed({ alg: 'HS256' }, { sub: 'u' }).split('.')),
      `${signed({ alg: 'HS256' }, { sub: 'u' })}.extra`,
      signed({ alg: 'HS256' }, { sub: 'u' }).replace('.', '.+'),
      'not.a.token',
      '',
    ];
    for (const token of refused) {
      expect(await jose(token), token).toBeUndefined();
      expect(verifiedHs256(token, secret, now, TOLERANCE), token).toBeUndefined();
    }
  });
});
