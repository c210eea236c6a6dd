import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServerKey, revokeServerKey } from '../src/domain/apps/server-keys.js';
import { updateSettings } from '../src/domain/apps/settings.js';
import { call } from './support/http.js';
import { seedApp, startTestServer, type TestServer } from './support/server.js';

// The server credential matrix of the spec's Authentication part, over real HTTP.

let t: TestServer;
let app: Awaited<ReturnType<typeof seedApp>>;
let other: Awaited<ReturnType<typeof seedApp>>;
beforeAll(async () => {
  t = await startTestServer();
  app = await seedApp(t.svc, 'Server app');
  other = await seedApp(t.svc, 'Other app');
});
afterAll(() => t.close());

const identify = (key: string | undefined, id: string, body: unknown = { display_name: 'Ann' }) =>
  call(t.url, 'PUT', `/server/v1/contacts/${encodeURIComponent(id)}`, {
    headers: key === undefined ? {} : { Authorization: key },
    json: body,
  });
const exportOf = (key: string, id: string) =>
  call(t.url, 'GET', `/server/v1/contacts/${encodeURIComponent(id)}/export`, { headers: { Authorization: `Bearer ${key}` } });
const modeId = async (appKey: string) => (await t.svc.db.appMode.findUniqueOrThrow({ where: { appKey } })).id;

function expect401(r: Awaited<ReturnType<typeof call>>, detail: RegExp) {
  expect(r.status).toBe(401);
  expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(r.json.code).toBe('unauthorized');
  expect(r.json.detail).toMatch(detail);
}

describe('server credentials', () => {
  it('opens with the mode server key', async () => {
    expect((await identify(`Bearer ${app.live.server_key}`, 'a-1')).status).toBe(200);
  });

  it('refuses no key, a mistyped key, an unknown key and a bare key without Bearer', async () => {
    expect401(await identify(undefined, 'a-1'), /server key/);
    // One character changed (never to the one it was: a key ends in X one time in 62).
    const mistyped = app.live.server_key.slice(0, -1) + (app.live.server_key.endsWith('X') ? 'Y' : 'X');
    expect401(await identify(`Bearer ${mistyped}`, 'a-1'), /not known/);
    expect401(await identify('Bearer crm_sk_short', 'a-1'), /server key/);
    expect401(await identify('Bearer app_notaserverkey00000000', 'a-1'), /server key/);
    expect401(await identify(app.live.server_key, 'a-1'), /Bearer/);
  });

  it('refuses a revoked key while another key of the app keeps working', async () => {
    const made = await createServerKey(t.ctx, await modeId(app.live.app_key));
    expect((await identify(`Bearer ${made.serverKey}`, 'a-2')).status).toBe(200);
    await revokeServerKey(t.ctx, { serverKey: made.serverKey });
    expect401(await identify(`Bearer ${made.serverKey}`, 'a-2'), /revoked/);
    expect((await identify(`Bearer ${app.live.server_key}`, 'a-2')).status).toBe(200);
  });

  it('opens only its own app and mode: a test key sees only the test app', async () => {
    await identify(`Bearer ${app.test.server_key}`, 'only-in-test');
    expect((await exportOf(app.test.server_key, 'only-in-test')).status).toBe(200);
    expect((await exportOf(app.live.server_key, 'only-in-test')).status).toBe(404);
    expect((await exportOf(other.test.server_key, 'only-in-test')).status).toBe(404);
    expect(app.test.server_key.startsWith('crm_sk_test_')).toBe(true);
    expect(app.live.server_key.startsWith('crm_sk_test_')).toBe(false);
  });

  it('refuses every key of an archived app', async () => {
    await updateSettings(t.ctx, await modeId(other.live.app_key), { archived: true });
    expect401(await identify(`Bearer ${other.live.server_key}`, 'x'), /archived/);
    expect((await identify(`Bearer ${other.test.server_key}`, 'x')).status).toBe(200);
  });

  it('keeps only hashes of server keys', async () => {
    const rows = await t.svc.db.serverKey.findMany();
    expect(JSON.stringify(rows)).not.toContain(app.live.server_key);
    expect(JSON.stringify(rows)).not.toContain(app.live.server_key.slice(7));
  });

  it('allows at most 20 live keys per mode', async () => {
    // An app of its own: its test mode has exactly the one key it was made with.
    const id = await modeId((await seedApp(t.svc, 'Key limit app')).test.app_key);
    for (let i = 0; i < 19; i++) await createServerKey(t.ctx, id);
    await expect(createServerKey(t.ctx, id)).rejects.toMatchObject({ status: 409, code: 'server_key_limit' });
  });
});
