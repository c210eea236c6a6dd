import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateSettings } from '../src/domain/apps/settings.js';
import { call, userToken } from './support/http.js';
import { seedApp, startTestServer, type TestServer } from './support/server.js';

// The cross-origin rules as the headers say them; test/cors-browser.test.ts shows a real browser obeying them.

const LISTED = 'https://shop.example.com';
const TEST_LISTED = 'http://localhost:5173';
let t: TestServer;
let app: Awaited<ReturnType<typeof seedApp>>;
let guest: Record<string, string>;
beforeAll(async () => {
  t = await startTestServer();
  app = await seedApp(t.svc);
  const live = await t.svc.db.appMode.findUniqueOrThrow({ where: { appKey: app.live.app_key } });
  const test = await t.svc.db.appMode.findUniqueOrThrow({ where: { appKey: app.test.app_key } });
  await updateSettings(t.ctx, live.id, { webOrigins: [LISTED] });
  await updateSettings(t.ctx, test.id, { webOrigins: [TEST_LISTED] });
  guest = { 'X-CRM-App-Key': app.live.app_key, Authorization: `Bearer ${await userToken(app.live.identity_secret, { sub: 'c' })}` };
});
afterAll(() => t.close());

const preflight = (path: string, origin: string, method = 'PUT') =>
  fetch(t.url + path, {
    method: 'OPTIONS',
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': method,
      'Access-Control-Request-Headers': 'authorization,x-crm-app-key,content-type',
    },
  });

describe('guest routes across origins', () => {
  it('answers the preflight of a listed origin: echoed, varied, the five headers, no credentials', async () => {
    const r = await preflight('/guest/v1/consent', LISTED);
    expect(r.status).toBe(204);
    expect(r.headers.get('access-control-allow-origin')).toBe(LISTED);
    expect(r.headers.get('vary')).toMatch(/Origin/);
    expect(r.headers.get('access-control-allow-credentials')).toBeNull();
    expect(
      r.headers
        .get('access-control-allow-headers')!
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .sort(),
    ).toEqual(['authorization', 'content-type', 'idempotency-key', 'x-crm-app-key', 'x-crm-sdk']);
  });

  it('echoes a listed origin on answers and refusals, and lets it read Retry-After', async () => {
    const ok = await call(t.url, 'GET', '/guest/v1/consent', { headers: { ...guest, Origin: LISTED } });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(LISTED);
    expect(ok.headers.get('access-control-expose-headers')).toMatch(/Retry-After/);
    const expired = await call(t.url, 'GET', '/guest/v1/consent', {
      headers: { 'X-CRM-App-Key': app.live.app_key, Authorization: 'Bearer bad', Origin: LISTED },
    });
    expect(expired.status).toBe(401);
    expect(expired.headers.get('access-control-allow-origin')).toBe(LISTED);
  });

  it('gives no permission to an unlisted origin, nor to the other mode origin, nor across the www. prefix', async () => {
    for (const origin of ['https://evil.example.com', TEST_LISTED, 'https://www.shop.example.com', 'http://shop.example.com']) {
      const r = await call(t.url, 'GET', '/guest/v1/consent', { headers: { ...guest, Origin: origin } });
      expect(r.headers.get('access-control-allow-origin'), origin).toBeNull();
      const p = await preflight('/guest/v1/consent', origin === TEST_LISTED ? 'https://nowhere.example' : origin);
      expect(p.headers.get('access-control-allow-origin'), origin).toBeNull();
    }
  });

  it('never opens the server API to browsers', async () => {
    const p = await preflight('/server/v1/contacts/x', LISTED);
    expect(p.headers.get('access-control-allow-origin')).toBeNull();
    const r = await call(t.url, 'PUT', '/server/v1/contacts/x', { headers: { Origin: LISTED }, json: {} });
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('public app details across origins', () => {
  it('is readable from the app mode web origins only', async () => {
    const listed = await call(t.url, 'GET', `/public/v1/apps/${app.live.app_key}`, { headers: { Origin: LISTED } });
    expect(listed.headers.get('access-control-allow-origin')).toBe(LISTED);
    const other = await call(t.url, 'GET', `/public/v1/apps/${app.live.app_key}`, { headers: { Origin: TEST_LISTED } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    const test = await call(t.url, 'GET', `/public/v1/apps/${app.test.app_key}`, { headers: { Origin: TEST_LISTED } });
    expect(test.headers.get('access-control-allow-origin')).toBe(TEST_LISTED);
  });
});

describe('web origin rules', () => {
  it('refuses http other than localhost, paths, wildcards, non-browser forms and a 21st origin, naming the entry', async () => {
    const id = (await t.svc.db.appMode.findUniqueOrThrow({ where: { appKey: app.live.app_key } })).id;
    const bad = [
      'http://shop.example.com',
      'https://shop.example.com/path',
      'https://*.example.com',
      'https://shop.example.com:443',
      'https://shop.example.com/',
    ];
    for (const origin of bad) {
      await expect(updateSettings(t.ctx, id, { webOrigins: [LISTED, origin] }), origin).rejects.toMatchObject({
        status: 400,
        errors: [{ field: 'webOrigins.1' }],
      });
    }
    const many = Array.from({ length: 21 }, (_, i) => `https://s${i}.example.com`);
    await expect(updateSettings(t.ctx, id, { webOrigins: many })).rejects.toMatchObject({ status: 400 });
    const ok = await updateSettings(t.ctx, id, { webOrigins: [...many.slice(0, 19), 'http://localhost:3000'] });
    expect(ok.webOrigins).toHaveLength(20);
    await updateSettings(t.ctx, id, { webOrigins: [LISTED] });
  });
});
