import { describe, expect, it } from 'vitest';
import { TokenKeeper } from './token.js';
import { guestFetch, retryAfterOf } from './transport.js';

const problem = (status: number, code: string, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ code, detail: code }), { status, headers: { 'Content-Type': 'application/problem+json', ...headers } });

/** A scripted network: each answer in turn (an Error is a request that never reached the service). */
function network(answers: (Response | Error)[]) {
  const seen: Request[] = [];
  const fetch = async (request: Request) => {
    seen.push(request);
    const next = answers.shift();
    if (!next) throw new Error('unexpected request');
    if (next instanceof Error) throw next;
    return next;
  };
  return { fetch, seen };
}

describe('guestFetch', () => {
  it('sends the app key, the token and the SDK on every request', async () => {
    const { fetch, seen } = network([new Response('{}')]);
    const send = guestFetch({ appKey: 'app_x', token: new TokenKeeper(() => 't1'), sdk: 'crm-web/1', language: 'fr', fetch });
    await send(new Request('https://crm.test/guest/v1/consent'));
    expect(Object.fromEntries(seen[0]!.headers)).toMatchObject({
      'x-crm-app-key': 'app_x',
      authorization: 'Bearer t1',
      'x-crm-sdk': 'crm-web/1',
      'accept-language': 'fr',
    });
  });

  it('renews the token on token_expired and sends once more, only once', async () => {
    let n = 0;
    const { fetch, seen } = network([problem(401, 'token_expired'), problem(401, 'token_expired')]);
    const send = guestFetch({ appKey: 'app_x', token: new TokenKeeper(() => `t${++n}`), sdk: 's', fetch });
    const answer = await send(new Request('https://crm.test/guest/v1/consent'));
    expect(answer.status).toBe(401);
    expect(seen.map((r) => r.headers.get('authorization'))).toEqual(['Bearer t1', 'Bearer t2']);
  });

  it('does not renew on unauthorized (a token that can never work)', async () => {
    let n = 0;
    const { fetch, seen } = network([problem(401, 'unauthorized')]);
    const send = guestFetch({ appKey: 'app_x', token: new TokenKeeper(() => `t${++n}`), sdk: 's', fetch });
    expect((await send(new Request('https://crm.test/guest/v1/consent'))).status).toBe(401);
    expect(seen).toHaveLength(1);
  });

  it('waits for Retry-After on 429 and sends the same body again', async () => {
    const { fetch, seen } = network([problem(429, 'rate_limited', { 'Retry-After': '0' }), new Response('{}', { status: 201 })]);
    const send = guestFetch({ appKey: 'app_x', userId: 'u1', sdk: 's', fetch });
    const answer = await send(new Request('https://crm.test/guest/v1/checkin', { method: 'POST', body: '{"a":1}' }));
    expect(answer.status).toBe(201);
    expect(await Promise.all(seen.map((r) => r.text()))).toEqual(['{"a":1}', '{"a":1}']);
    expect(seen[0]!.headers.get('x-crm-user-id')).toBe('u1');
  });

  it('sends a keyed request again with the same key when the network failed, but not an unkeyed POST', async () => {
    const keyed = network([new TypeError('network'), new Response('{}', { status: 201 })]);
    const send = guestFetch({ appKey: 'app_x', userId: 'u', sdk: 's', fetch: keyed.fetch });
    const request = new Request('https://crm.test/guest/v1/conversations', {
      method: 'POST',
      body: '{}',
      headers: { 'Idempotency-Key': 'k1' },
    });
    expect((await send(request)).status).toBe(201);
    expect(keyed.seen.map((r) => r.headers.get('idempotency-key'))).toEqual(['k1', 'k1']);

    const unkeyed = network([new TypeError('network')]);
    const once = guestFetch({ appKey: 'app_x', userId: 'u', sdk: 's', fetch: unkeyed.fetch });
    await expect(once(new Request('https://crm.test/guest/v1/receipts', { method: 'POST', body: '{}' }))).rejects.toThrow('network');
    expect(unkeyed.seen).toHaveLength(1);
  }, 10_000);

  it('reads Retry-After as seconds or a date, and answers a wait too long to the caller', () => {
    expect(retryAfterOf(problem(429, 'x', { 'Retry-After': '7' }))).toBe(7);
    expect(retryAfterOf(problem(429, 'x'))).toBe(1);
    expect(retryAfterOf(problem(503, 'x'))).toBeUndefined();
    expect(retryAfterOf(problem(429, 'x', { 'Retry-After': '3600' }))).toBeUndefined();
    expect(retryAfterOf(new Response('{}', { status: 200, headers: { 'Retry-After': '1' } }))).toBeUndefined();
  });
});
