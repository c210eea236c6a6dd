import { Writable } from 'node:stream';
import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/lib/logger.js';
import { staffApi, staffSocket } from './support/graphql.js';
import { call, userToken } from './support/http.js';
import { seedApp, startTestServer, type SeededApp, type TestServer } from './support/server.js';

// A NUL anywhere a request can carry text is refused at the surface's entry with 400 /
// invalid_request naming where it was, never a 500 from PostgreSQL; a DateTime that is not a real
// RFC 3339 date-time is refused naming its argument. Nothing of it is logged as an error.

let t: TestServer;
let app: SeededApp;
let owner: string;
const logged: { level: number; msg?: string }[] = [];
const clients: Client[] = [];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) logged.push(JSON.parse(line));
      done();
    },
  });
  t = await startTestServer({ log: createLogger('info', sink) });
  app = await seedApp(t.svc);
  owner = await signIn(app.ownerEmail, app.ownerPassword);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await t?.close();
});

const { ok, signIn } = staffApi(
  () => t.url,
  () => owner,
);
const guest = async () => ({
  'X-CRM-App-Key': app.live.app_key,
  Authorization: `Bearer ${await userToken(app.live.identity_secret, { sub: 'nul-tester' })}`,
});

function expectRefused(r: Awaited<ReturnType<typeof call>>, field: string) {
  expect(r.status, r.text).toBe(400);
  expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(r.json).toMatchObject({ status: 400, code: 'invalid_request' });
  expect(r.json.errors.map((e: { field: string }) => e.field)).toContain(field);
}

describe('REST: a NUL in the path, the query or a JSON body', () => {
  it("is refused with 400 naming the place (a route's path parameter by its name), with or without credentials, on every route that took it to the database", async () => {
    const g = await guest();
    const cases: [string, string, Record<string, string>, string, string?][] = [
      ['GET', '/public/v1/apps/%00', {}, 'key'],
      ['GET', '/help/%00/en', {}, 'path'],
      ['GET', `/help/${app.live.app_key}/%00`, {}, 'path'],
      ['GET', '/public/v1/help/articles?app=%00', {}, 'query.app'],
      ['GET', `/public/v1/help/articles?app=${app.live.app_key}&q=a%00b`, {}, 'query.q'],
      ['GET', `/public/v1/help/articles/%00?app=${app.live.app_key}`, {}, 'slug'],
      ['POST', `/public/v1/help/articles/%00/rating?app=${app.live.app_key}`, { 'Content-Type': 'application/json' }, 'slug', '{}'],
      ['GET', '/guest/v1/articles/%00', g, 'slug'],
      ['POST', '/guest/v1/articles/%00/rating', { ...g, 'Content-Type': 'application/json' }, 'slug', '{"helpful":true}'],
      ['GET', '/guest/v1/conversations/%00', g, 'conversation_id'],
      ['GET', '/guest/v1/conversations/a%00b', {}, 'conversation_id'],
      ['POST', '/guest/v1/conversations/%00/messages', { ...g, 'Content-Type': 'application/json' }, 'conversation_id', '{"text":"hi"}'],
      ['POST', '/guest/v1/conversations/%00/rating', { ...g, 'Content-Type': 'application/json' }, 'conversation_id', '{"rating":5}'],
      ['GET', '/guest/v1/tickets/%00', g, 'ticket_id'],
      ['GET', '/guest/v1/tickets/%00', {}, 'ticket_id'],
      ['POST', '/guest/v1/conversations', { ...g, 'Content-Type': 'application/json' }, 'text', '{"text":"a\\u0000b"}'],
    ];
    for (const [method, path, headers, field, body] of cases) {
      const r = await call(t.url, method, path, { headers, ...(body ? { body } : {}) });
      expect.soft(r.status, `${method} ${path}: ${r.text}`).toBe(400);
      expectRefused(r, field);
    }
  });

  it('still answers the same routes without a NUL', async () => {
    expect((await call(t.url, 'GET', `/public/v1/apps/${app.live.app_key}`)).status).toBe(200);
    expect((await call(t.url, 'GET', '/guest/v1/conversations/nope', { headers: await guest() })).status).toBe(404);
  });
});

/** The one refusal of an operation (yoga answers a refused variable 400, other refusals 200, to application/json). */
const refusedOver = async (query: string, variables: Record<string, unknown> = {}, token = owner) => {
  const r = await call(t.url, 'POST', '/graphql', {
    json: { query, variables },
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  expect([200, 400], r.text).toContain(r.status);
  expect(r.json.errors, r.text).toHaveLength(1);
  return { message: r.json.errors[0].message as string, ...(r.json.errors[0].extensions as { code: string }) };
};

describe('GraphQL: a NUL in a string literal or a variable', () => {
  it('is refused as invalid_request naming the argument or variable, before the session is looked up', async () => {
    expect(await refusedOver('mutation { signIn(email: "a\\u0000@b.test", password: "x") { token } }', {}, '')).toMatchObject({
      code: 'invalid_request',
      errors: [{ field: 'email' }],
    });
    expect(
      await refusedOver('mutation($e: String!) { signIn(email: $e, password: "x") { token } }', { e: 'a\u0000@b.test' }, ''),
    ).toMatchObject({ code: 'invalid_request', errors: [{ field: 'variables.e' }] });
    expect(await refusedOver('{ app(id: "a\\u0000b") { id } }')).toMatchObject({ code: 'invalid_request', errors: [{ field: 'id' }] });
    expect(await refusedOver('query($id: ID!) { app(id: $id) { id } }', { id: 'a\u0000b' })).toMatchObject({
      code: 'invalid_request',
      errors: [{ field: 'variables.id' }],
    });
    // Over HTTP with the GraphQL media type: a 400.
    const r = await call(t.url, 'POST', '/graphql', {
      json: { query: 'query($id: ID!) { app(id: $id) { id } }', variables: { id: '\u0000' } },
      headers: { Accept: 'application/graphql-response+json', Authorization: `Bearer ${owner}` },
    });
    expect(r.status).toBe(400);
  });

  it('is refused over graphql-ws too, for a subscription variable', async () => {
    const client = staffSocket(t.url, owner);
    clients.push(client);
    const errors = await client
      .iterate({ query: 'subscription($id: ID!) { appModeChanged(appModeId: $id) { __typename } }', variables: { id: 'x\u0000' } })
      .next()
      .then(
        (r) => r.value.errors,
        (e: unknown) => e,
      );
    expect(errors).toHaveLength(1);
    expect(errors[0].extensions).toMatchObject({ code: 'invalid_request', errors: [{ field: 'variables.id' }] });
  });
});

describe('GraphQL: DateTime', () => {
  const snooze = 'mutation { snoozeConversation(id: "nope", until: UNTIL) { id } }';
  const bad = ['not a date', '', '1e400', 'Infinity', '2026-13-45T99:99:99Z', '2026-02-30T00:00:00Z', '2026-02-28T24:00:00Z', '2026-02-28'];

  it('refuses a literal that is not a real RFC 3339 date-time, naming the argument', async () => {
    for (const value of bad) {
      expect
        .soft(await refusedOver(snooze.replace('UNTIL', JSON.stringify(value))), value)
        .toMatchObject({ code: 'invalid_request', errors: [{ field: 'until' }] });
    }
    expect(await refusedOver(snooze.replace('UNTIL', '12'))).toMatchObject({ code: 'invalid_request', errors: [{ field: 'until' }] });
  });

  it('refuses such a variable, naming it', async () => {
    for (const value of [...bad, 12]) {
      expect
        .soft(
          await refusedOver('mutation($u: DateTime!) { snoozeConversation(id: "nope", until: $u) { id } }', { u: value }),
          String(value),
        )
        .toMatchObject({ code: 'invalid_request', errors: [{ field: 'variables.u' }] });
    }
  });

  it('accepts a real date-time, with Z or an offset (the conversation is the one thing not found)', async () => {
    for (const value of ['2026-02-28T09:30:00Z', '2028-02-29T23:59:59.123+02:00', '2026-03-01T00:00:00-05:30']) {
      expect.soft(await refusedOver(snooze.replace('UNTIL', JSON.stringify(value))), value).toMatchObject({ code: 'not_found' });
      expect
        .soft(await refusedOver('mutation($u: DateTime!) { snoozeConversation(id: "nope", until: $u) { id } }', { u: value }), value)
        .toMatchObject({ code: 'not_found' });
    }
  });
});

describe('logs', () => {
  it('hold no error for any of these refusals', async () => {
    await ok('{ viewer { email } }');
    expect(logged.filter((l) => l.level >= 50)).toEqual([]);
  });
});
