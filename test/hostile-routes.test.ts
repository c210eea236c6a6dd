import { afterAll, beforeAll, expect, it } from 'vitest';
import openapi from '../rest-facade/openapi.json' with { type: 'json' };
import { call, userToken } from './support/http.js';
import { signatureHeader } from '../src/domain/webhooks/signature.js';
import { type SeededApp, type TestServer, seedApp, startTestServer, testConfig } from './support/server.js';

// Every REST route of the published contract, read from the OpenAPI document (so a route added
// later is tried too), sent what a hostile caller sends: ids that are no ids, query values of every
// wrong kind, and bodies of the wrong shape, with every member of the wrong type or far too long.
// Each is answered below 500, and every refusal is a problem document.

let t: TestServer;
let app: SeededApp;
const INBOUND_SECRET = 'hostile-deployment-inbound-secret';
beforeAll(async () => {
  t = await startTestServer({ config: testConfig({ inboundSecret: INBOUND_SECRET }) });
  app = await seedApp(t.svc);
});
afterAll(() => t?.close());

interface Parameter {
  in: 'path' | 'query' | 'header';
  name: string;
}
interface Operation {
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}
interface Schema {
  $ref?: string;
  properties?: Record<string, Schema>;
}

const components = (openapi as { components: { schemas: Record<string, Schema> } }).components.schemas;
const resolve = (schema: Schema): Schema => (schema.$ref ? resolve(components[schema.$ref.split('/').at(-1)!]!) : schema);

const ids = ['x', '00000000-0000-0000-0000-000000000000', '-1', '9'.repeat(40), 'é'.repeat(300), '.x.', '%20', 'a/b'];
const queryValues = ['', '-1', '0', '1e400', '9'.repeat(40), 'abc', 'é'.repeat(500), '[]'];
const wrongValues: unknown[] = [123, -1e308, 'x'.repeat(200_000), [], [[[['deep']]]], {}, { a: { b: {} } }, null, true];
const junkBodies = ['{}', '[]', 'null', '1', '"text"', '{"a":', '{"a":1}'.repeat(3)];

function operations(): { method: string; path: string; op: Operation }[] {
  const out: { method: string; path: string; op: Operation }[] = [];
  for (const [path, methods] of Object.entries(openapi.paths as unknown as Record<string, Record<string, Operation>>))
    for (const [method, op] of Object.entries(methods))
      if (['get', 'put', 'post', 'delete'].includes(method)) out.push({ method, path, op });
  return out;
}

async function credentials(path: string, who: string): Promise<Record<string, string>> {
  if (path.startsWith('/guest/')) {
    return {
      'X-CRM-App-Key': app.live.app_key,
      Authorization: `Bearer ${await userToken(app.live.identity_secret, { sub: who })}`,
    };
  }
  if (path.startsWith('/server/')) return { Authorization: `Bearer ${app.live.server_key}` };
  return { 'X-CRM-App-Key': app.live.app_key };
}

function expectAnswered(r: Awaited<ReturnType<typeof call>>, what: string) {
  expect(r.status, `${what}: ${r.text.slice(0, 300)}`).toBeLessThan(500);
  if (r.status >= 400) expect(r.headers.get('content-type'), what).toMatch(/^application\/problem\+json/);
}

it('answers every route of the contract below 500, whatever ids, queries and bodies it is sent', { timeout: 240_000 }, async () => {
  const ops = operations();
  expect(ops.length).toBeGreaterThan(40);
  let sent = 0;
  for (const [n, { method, path, op }] of ops.entries()) {
    // One person per route, so the per-person bounds of one route never refuse another's tries.
    const headers = { ...(await credentials(path, `hostile-${n}`)), 'Idempotency-Key': `hostile-${n}` };
    const params = op.parameters ?? [];
    const withIds = (id: string) => path.replace(/\{[^}]+\}/g, encodeURIComponent(id));
    // The inbound email hooks read a body only once it is signed: signed as the converter signs, for the app.
    const hook = /\/(email-events|inbound-email)$/.test(path);
    const signed = (body: string | undefined): Record<string, string> =>
      hook && body !== undefined
        ? { 'X-CRM-Signature': signatureHeader(path.includes('{key}') ? app.live.inbound_secret : INBOUND_SECRET, body, new Date()) }
        : {};
    const send = async (target: string, body?: string) => {
      sent++;
      const r = await call(t.url, method.toUpperCase(), target, {
        headers: { ...headers, ...signed(body), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body,
      });
      expectAnswered(r, `${method.toUpperCase()} ${target} ${body?.slice(0, 80) ?? ''}`);
    };

    if (path.includes('{')) for (const id of ids) await send(withIds(id), op.requestBody ? '{}' : undefined);
    const base = hook ? path.replace('{key}', app.live.app_key) : withIds('x');
    for (const value of queryValues) {
      const query = params.filter((p) => p.in === 'query').map((p) => `${p.name}=${encodeURIComponent(value)}`);
      if (query.length) await send(`${base}?${query.join('&')}`, op.requestBody ? '{}' : undefined);
    }
    const schema = op.requestBody?.content['application/json']?.schema;
    if (!schema) continue;
    for (const body of junkBodies) await send(base, body);
    const members = Object.keys(resolve(schema).properties ?? {});
    for (const value of wrongValues) await send(base, JSON.stringify(Object.fromEntries(members.map((m) => [m, value]))));
  }
  expect(sent).toBeGreaterThan(400);
});
