import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, userToken } from './support/http.js';
import { seedApp, startTestServer, testConfig, type TestServer } from './support/server.js';

// Every refusal is application/problem+json with code, title, detail and, for fields, errors[].field.

let t: TestServer;
let app: Awaited<ReturnType<typeof seedApp>>;
let guest: Record<string, string>;
beforeAll(async () => {
  t = await startTestServer({ config: testConfig({ maxBodyBytes: 64 * 1024 }) });
  app = await seedApp(t.svc);
  guest = { 'X-CRM-App-Key': app.live.app_key, Authorization: `Bearer ${await userToken(app.live.identity_secret, { sub: 'p' })}` };
});
afterAll(() => t.close());

function expectProblem(r: Awaited<ReturnType<typeof call>>, status: number, code: string) {
  expect(r.status).toBe(status);
  expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(r.json).toMatchObject({ status, code, title: expect.any(String), detail: expect.any(String) });
}

describe('problem documents', () => {
  it('unreadable JSON', async () => {
    const r = await call(t.url, 'PUT', '/guest/v1/consent', {
      headers: { ...guest, 'Content-Type': 'application/json' },
      body: '{"offers_by_push": tru',
    });
    expectProblem(r, 400, 'malformed_json');
  });

  it('a wrong type and a missing member, each named by path', async () => {
    let r = await call(t.url, 'PUT', '/guest/v1/consent', { headers: guest, json: { offers_by_push: 1 } });
    expectProblem(r, 400, 'invalid_request');
    expect(r.json.errors).toEqual([{ field: 'offers_by_push', message: expect.any(String) }]);
    r = await call(t.url, 'PUT', '/guest/v1/consent', { headers: guest, json: {} });
    expectProblem(r, 400, 'invalid_request');
    expect(r.json.errors[0].field).toBe('offers_by_push');
    r = await call(t.url, 'PUT', '/guest/v1/consent', { headers: guest });
    expectProblem(r, 400, 'invalid_request');
    expect(r.json.errors[0].field).toBe('body');
  });

  it('ignores unknown members', async () => {
    const r = await call(t.url, 'PUT', '/guest/v1/consent', { headers: guest, json: { offers_by_push: true, shoe_size: 44 } });
    expect(r.status).toBe(200);
  });

  it('a body that is not JSON', async () => {
    const r = await call(t.url, 'PUT', '/guest/v1/consent', {
      headers: { ...guest, 'Content-Type': 'text/plain' },
      body: 'offers_by_push=true',
    });
    expectProblem(r, 400, 'invalid_request');
    expect(r.json.errors[0].field).toBe('Content-Type');
  });

  it('a credential problem comes before a body problem', async () => {
    const r = await call(t.url, 'PUT', '/guest/v1/consent', { headers: { 'Content-Type': 'application/json' }, body: '{nope' });
    expectProblem(r, 401, 'unauthorized');
  });

  it('too large: 413, also when the length is not declared up front', async () => {
    const big = JSON.stringify({ offers_by_push: true, pad: 'x'.repeat(70 * 1024) });
    expectProblem(await call(t.url, 'PUT', '/guest/v1/consent', { headers: guest, body: big }), 413, 'payload_too_large');
    const chunked = new ReadableStream({
      start(c) {
        c.enqueue(new TextEncoder().encode(big));
        c.close();
      },
    });
    const res = await fetch(`${t.url}/guest/v1/consent`, {
      method: 'PUT',
      headers: { ...guest, 'Content-Type': 'application/json' },
      body: chunked,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect((await res.json()).code).toBe('payload_too_large');
  });

  it('refuses the NUL character, which PostgreSQL text cannot hold, naming where it is', async () => {
    const server = { Authorization: `Bearer ${app.live.server_key}`, 'Content-Type': 'application/json' };
    let r = await call(t.url, 'PUT', '/server/v1/contacts/abc', { headers: server, body: '{"display_name":"a\\u0000b"}' });
    expectProblem(r, 400, 'invalid_request');
    expect(r.json.errors[0].field).toBe('display_name');
    r = await call(t.url, 'POST', '/server/v1/events', {
      headers: server,
      body: '{"events":[{"id":"z","external_id":"p","name":"n","at":"2026-01-01T00:00:00Z","props":{"k":"a\\u0000"}}]}',
    });
    expect(r.json.errors[0].field).toBe('events.0.props.k');
    r = await call(t.url, 'PUT', '/server/v1/contacts/a%00b', { headers: server, json: {} });
    expectProblem(r, 400, 'invalid_request');
    expect(r.json.errors[0].field).toBe('external_id');
  });

  it('unknown routes: 404; wrong methods: 405', async () => {
    expectProblem(await call(t.url, 'GET', '/guest/v1/nothing-here', { headers: guest }), 404, 'not_found');
    expectProblem(await call(t.url, 'GET', '/elsewhere'), 404, 'not_found');
    const r = await call(t.url, 'DELETE', '/guest/v1/consent', { headers: guest });
    expectProblem(r, 405, 'method_not_allowed');
    expect(r.headers.get('allow')).toContain('PUT');
  });

  it('a 5xx says nothing of the internals', async () => {
    const db = new pg.Client({ connectionString: t.dbUrl });
    await db.connect();
    await db.query('ALTER TABLE contact RENAME TO contact_gone');
    try {
      const r = await call(t.url, 'GET', '/guest/v1/consent', { headers: guest });
      expectProblem(r, 500, 'internal');
      expect(r.text).not.toMatch(/contact_gone|contact|prisma|relation|stack|at /i);
    } finally {
      await db.query('ALTER TABLE contact_gone RENAME TO contact');
      await db.end();
    }
  });
});
