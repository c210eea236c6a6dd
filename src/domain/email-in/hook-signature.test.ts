import { describe, expect, it } from 'vitest';
import { signatureHeader } from '../webhooks/signature.js';
import { verifyHookSignature } from './hook-signature.js';

const body = Buffer.from('{"id":"evt_1"}');
const now = new Date('2026-11-29T12:00:00Z');
const v1Of = (header: string) => header.split(',')[1]!;

describe('verifyHookSignature', () => {
  it('takes a signature made under the secret, over the raw bytes', () => {
    expect(verifyHookSignature(signatureHeader('s1', body.toString(), now), body, ['s1'], now)).toBe('ok');
  });

  it('refuses another secret, another body, and no header', () => {
    expect(verifyHookSignature(signatureHeader('s2', body.toString(), now), body, ['s1'], now)).toBe('wrong');
    expect(verifyHookSignature(signatureHeader('s1', '{"id":"evt_2"}', now), body, ['s1'], now)).toBe('wrong');
    expect(verifyHookSignature(undefined, body, ['s1'], now)).toBe('missing');
  });

  it('refuses a t more than five minutes from now, either way', () => {
    const at = (s: number) => new Date(now.getTime() + s * 1000);
    expect(verifyHookSignature(signatureHeader('s1', body.toString(), at(-300)), body, ['s1'], now)).toBe('ok');
    expect(verifyHookSignature(signatureHeader('s1', body.toString(), at(-301)), body, ['s1'], now)).toBe('stale');
    expect(verifyHookSignature(signatureHeader('s1', body.toString(), at(301)), body, ['s1'], now)).toBe('stale');
  });

  it('takes several v1 values when one matches (a roll), under any secret in force', () => {
    const old = signatureHeader('old', body.toString(), now);
    const fresh = signatureHeader('new', body.toString(), now);
    expect(verifyHookSignature(`${old},${v1Of(fresh)}`, body, ['new'], now)).toBe('ok');
    expect(verifyHookSignature(`${fresh},v1=zz,v0=abc`, body, ['new'], now)).toBe('ok');
    expect(verifyHookSignature(old, body, ['new', 'old'], now)).toBe('ok');
    expect(verifyHookSignature(old, body, ['new'], now)).toBe('wrong');
  });

  it('refuses headers it cannot read', () => {
    expect(verifyHookSignature('v1=abc', body, ['s1'], now)).toBe('malformed');
    expect(verifyHookSignature('t=1,t=2,v1=00', body, ['s1'], now)).toBe('malformed');
    expect(verifyHookSignature('garbage', body, ['s1'], now)).toBe('malformed');
    expect(verifyHookSignature(`t=1,${'v1=00,'.repeat(500)}`, body, ['s1'], now)).toBe('malformed');
  });
});
