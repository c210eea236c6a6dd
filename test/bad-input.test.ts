import { createHmac } from 'node:crypto';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../rest-facade/http/json.js';
import { call, userToken } from './support/http.js';
import { type SeededApp, type TestServer, startWithApp } from './support/server.js';

// Input built to break the service: every one ends in a clear problem document naming what is
// wrong, never a 500, and never an id silently turned into another.

let t: TestServer;
let app: SeededApp;
beforeAll(async () => ({ t, app } = await startWithApp()));
afterAll(() => t?.close());

const serverKey = () => ({ Authorization: `Bearer ${app.live.server_key}` });
const guest = async (sub = 'bad-input') => ({
  'X-CRM-App-Key': app.live.app_key,
  Authorization: `Bearer ${await userToken(app.live.identity_secret, { sub })}`,
});
const now = () => t.clock.now().toISOString();

function expectProblem(r: Awaited<ReturnType<typeof call>>, status: number, code: string, field?: string) {
  expect(r.status, r.text).toBe(status);
  expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(r.json).toMatchObject({ status, code, request_id: expect.any(String) });
  if (field) expect(r.json.errors.map((e: { field: string }) => e.field)).toContain(field);
}

/** A token signed as a customer's backend would, with claims written as raw JSON text. */
function rawToken(payloadJson: string | Buffer, secret = app.live.identity_secret) {
  const part = (b: string | Buffer) => Buffer.from(b).toString('base64url');
  const head = `${part('{"alg":"HS256","typ":"JWT"}')}.${part(payloadJson)}`;
  return `${head}.${createHmac('sha256', secret).update(head).digest('base64url')}`;
}

describe('bodies', () => {
  it(`refuses JSON nested deeper than ${MAX_JSON_DEPTH} on every body route with 400, not 500`, async () => {
    const deep = `{"a":${'['.repeat(3700)}${']'.repeat(3700)}}`;
    const routes: [string, string, Record<string, string>][] = [
      ['PUT', '/guest/v1/consent', await guest()],
      ['POST', '/guest/v1/events', await guest()],
      ['PUT', '/server/v1/contacts/deep', serverKey()],
      ['PUT', '/server/v1/event-definitions', serverKey()],
      ['POST', '/server/v1/events', serverKey()],
    ];
    for (const [method, path, headers] of routes) {
      expectProblem(
        await call(t.url, method, path, { headers: { ...headers, 'Content-Type': 'application/json' }, body: deep }),
        400,
        'invalid_request',
        'body',
      );
    }
    const fits = `{"attributes":{"x":${'['.repeat(MAX_JSON_DEPTH - 2)}${']'.repeat(MAX_JSON_DEPTH - 2)}}}`;
    const r = await call(t.url, 'PUT', '/server/v1/contacts/deep', {
      headers: { ...serverKey(), 'Content-Type': 'application/json' },
      body: fits,
    });
    expectProblem(r, 400, 'invalid_request', 'attributes.x');
  });

  it('refuses a lone surrogate anywhere, naming the field, and keeps nothing', async () => {
    const lone = 'a\ud800b';
    expectProblem(
      await call(t.url, 'PUT', '/server/v1/contacts/surrogate', { headers: serverKey(), json: { attributes: { plan: lone } } }),
      400,
      'invalid_request',
      'attributes.plan',
    );
    expectProblem(
      await call(t.url, 'PUT', '/server/v1/contacts/surrogate', { headers: serverKey(), json: { display_name: 'x\udc00' } }),
      400,
      'invalid_request',
      'display_name',
    );
    const events = [{ id: 'ok-1', external_id: 'surrogate', name: 'order_paid', at: now(), props: { note: lone } }];
    expectProblem(
      await call(t.url, 'POST', '/server/v1/events', { headers: serverKey(), json: { events } }),
      400,
      'invalid_request',
      'events.0.props.note',
    );
    expectProblem(
      await call(t.url, 'POST', '/server/v1/events', {
        headers: serverKey(),
        json: { events: [{ ...events[0], id: `id-${lone}`, props: {} }] },
      }),
      400,
      'invalid_request',
      'events.0.id',
    );
    expect(await t.svc.db.contact.count({ where: { externalId: 'surrogate' } })).toBe(0);
    expect(await t.svc.db.event.count({ where: { externalId: 'surrogate' } })).toBe(0);
  });

  it('refuses bytes that are not UTF-8, and a body declared in another charset with 415', async () => {
    const r = await fetch(`${t.url}/server/v1/contacts/latin`, {
      method: 'PUT',
      headers: { ...serverKey(), 'Content-Type': 'application/json' },
      body: Buffer.concat([Buffer.from('{"display_name":"Jos'), Buffer.from([0xe9]), Buffer.from('"}')]),
    });
    expect(r.status).toBe(400);
    expect((await r.json()).code).toBe('malformed_json');
    const latin = await call(t.url, 'PUT', '/server/v1/contacts/latin', {
      headers: { ...serverKey(), 'Content-Type': 'application/json; charset=iso-8859-1' },
      body: '{"display_name":"Jose"}',
    });
    expectProblem(latin, 415, 'unsupported_media_type', 'Content-Type');
    const utf8 = await call(t.url, 'PUT', '/server/v1/contacts/latin', {
      headers: { ...serverKey(), 'Content-Type': 'application/json; charset=UTF-8' },
      body: '{"display_name":"José"}',
    });
    expect(utf8.status).toBe(200);
    expect(await t.svc.db.contact.count({ where: { externalId: 'latin', displayName: 'José' } })).toBe(1);
  });

  it('ignores a body sent to a route that takes none', async () => {
    const r = await call(t.url, 'DELETE', '/server/v1/contacts/no-body', {
      headers: { ...serverKey(), 'Content-Type': 'application/json' },
      body: '{',
    });
    expect(r.status).toBe(202);
  });

  it('refuses an attribute named __proto__ rather than dropping it', async () => {
    const r = await call(t.url, 'PUT', '/server/v1/contacts/proto', {
      headers: { ...serverKey(), 'Content-Type': 'application/json' },
      body: '{"attributes":{"__proto__":{"x":1},"plan":"pro"}}',
    });
    expectProblem(r, 400, 'invalid_request', 'attributes.__proto__');
    expect(await t.svc.db.contact.count({ where: { externalId: 'proto' } })).toBe(0);
  });
});

describe('ids and tokens', () => {
  it('refuses a path that is not percent-encoded UTF-8 rather than keeping it as typed', async () => {
    expectProblem(
      await call(t.url, 'PUT', '/server/v1/contacts/%ED%A0%80', { headers: serverKey(), json: {} }),
      400,
      'invalid_request',
      'path',
    );
    expectProblem(await call(t.url, 'GET', '/public/v1/apps/%E0%A4%A'), 400, 'invalid_request', 'path');
    expectProblem(
      await call(t.url, 'GET', '/public/v1/apps/%E0%A4%A', { headers: { Origin: 'https://example.com' } }),
      400,
      'invalid_request',
      'path',
    );
    // (Prisma's contains does not escape LIKE's own %.)
    expect((await t.svc.db.contact.findMany()).filter((c) => c.externalId.includes('%'))).toEqual([]);
  });

  it('refuses a token whose subject is not well-formed, or whose claims are not UTF-8', async () => {
    const headers = (token: string) => ({ 'X-CRM-App-Key': app.live.app_key, Authorization: `Bearer ${token}` });
    const exp = Math.floor(Date.now() / 1000) + 3600;
    for (const payload of [
      `{"sub":"a\\ud800b","exp":${exp}}`,
      Buffer.concat([Buffer.from('{"sub":"a'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from(`b","exp":${exp}}`)]),
      Buffer.concat([Buffer.from('{"sub":"a'), Buffer.from([0xff]), Buffer.from(`b","exp":${exp}}`)]),
    ]) {
      const r = await call(t.url, 'GET', '/guest/v1/consent', { headers: headers(rawToken(payload)) });
      expectProblem(r, 401, 'unauthorized');
    }
    expect(await t.svc.db.contact.count({ where: { externalId: { contains: '\ufffd' } } })).toBe(0);
  });

  it('refuses a token whose exp is not a finite number', async () => {
    const headers = { 'X-CRM-App-Key': app.live.app_key, Authorization: `Bearer ${rawToken('{"sub":"forever","exp":1e400}')}` };
    const r = await call(t.url, 'GET', '/guest/v1/consent', { headers });
    expectProblem(r, 401, 'unauthorized');
    expect(r.json.detail).toMatch(/exp/);
  });

  it('reads X-CRM-User-Id as UTF-8 and refuses bytes that are not', async () => {
    await t.svc.db.appMode.updateMany({ where: { appKey: app.test.app_key }, data: { unverifiedSignin: true } });
    const send = (id: Buffer) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(new URL(t.url).port as unknown as number, '127.0.0.1');
        let answer = '';
        socket.on('data', (d) => (answer += d));
        socket.on('end', () => resolve(answer));
        socket.on('error', reject);
        socket.write(
          Buffer.concat([
            Buffer.from(
              `GET /guest/v1/consent HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-CRM-App-Key: ${app.test.app_key}\r\nX-CRM-User-Id: `,
            ),
            id,
            Buffer.from('\r\n\r\n'),
          ]),
        );
      });
    expect(await send(Buffer.from('José', 'utf8'))).toMatch(/^HTTP\/1.1 200/);
    expect(await t.svc.db.contact.count({ where: { externalId: 'José' } })).toBe(1);
    const refused = await send(Buffer.from([0x4a, 0x6f, 0x73, 0xe9]));
    expect(refused).toMatch(/^HTTP\/1.1 401/);
    expect(refused).toMatch(/application\/problem\+json/);
  });
});

describe("Node's own refusals", () => {
  it('answers headers too large with a 431 problem document', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(new URL(t.url).port), '127.0.0.1');
      let text = '';
      socket.on('data', (d) => (text += d));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
      socket.write(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    });
    expect(answer).toMatch(/^HTTP\/1.1 431/);
    expect(answer).toMatch(/Content-Type: application\/problem\+json/);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    expect(body).toMatchObject({ status: 431, code: 'headers_too_large', request_id: expect.any(String) });
  });
});
