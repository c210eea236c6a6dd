import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateSettings } from '../src/domain/apps/settings.js';
import { call, userToken } from './support/http.js';
import { seedApp, startTestServer, type TestServer } from './support/server.js';

// The guest credential matrix of the spec's Authentication part, over real HTTP.

let t: TestServer;
let app: Awaited<ReturnType<typeof seedApp>>;
let other: Awaited<ReturnType<typeof seedApp>>;
beforeAll(async () => {
  t = await startTestServer();
  app = await seedApp(t.svc, 'Guest app');
  other = await seedApp(t.svc, 'Other app');
});
afterAll(() => t.close());

const modeId = async (appKey: string) => (await t.svc.db.appMode.findUniqueOrThrow({ where: { appKey } })).id;
const consent = (headers: Record<string, string>) => call(t.url, 'GET', '/guest/v1/consent', { headers });
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

function expectProblem(r: Awaited<ReturnType<typeof call>>, status: number, code: string, detail?: RegExp) {
  expect(r.status).toBe(status);
  expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(r.json.code).toBe(code);
  expect(typeof r.json.title).toBe('string');
  if (detail) expect(r.json.detail).toMatch(detail);
}

describe('guest credentials', () => {
  it('opens with the app key and a token signed by the mode identity secret', async () => {
    const r = await consent({ 'X-CRM-App-Key': app.live.app_key, ...bearer(await userToken(app.live.identity_secret, { sub: 'u-1' })) });
    expect(r.status).toBe(200);
    const test = await consent({ 'X-CRM-App-Key': app.test.app_key, ...bearer(await userToken(app.test.identity_secret, { sub: 'u-1' })) });
    expect(test.status).toBe(200);
  });

  it('answers token_expired for an expired token, so the page renews it', async () => {
    const past = Math.floor(t.clock.now().getTime() / 1000) - 3600;
    const token = await userToken(app.live.identity_secret, { sub: 'u-1', iat: past - 60, exp: past });
    expectProblem(await consent({ 'X-CRM-App-Key': app.live.app_key, ...bearer(token) }), 401, 'token_expired');
  });

  it('follows the service clock for expiry', async () => {
    const soon = Math.floor(t.clock.now().getTime() / 1000) + 120;
    const token = await userToken(app.live.identity_secret, { sub: 'u-1', exp: soon });
    expect((await consent({ 'X-CRM-App-Key': app.live.app_key, ...bearer(token) })).status).toBe(200);
    t.clock.advance(10 * 60_000);
    try {
      expectProblem(await consent({ 'X-CRM-App-Key': app.live.app_key, ...bearer(token) }), 401, 'token_expired');
    } finally {
      t.clock.advance(-10 * 60_000);
    }
  });

  it('says unauthorized, and why, for a token signed with the other mode secret', async () => {
    const token = await userToken(app.test.identity_secret, { sub: 'u-1' });
    expectProblem(
      await consent({ 'X-CRM-App-Key': app.live.app_key, ...bearer(token) }),
      401,
      'unauthorized',
      /test mode's identity secret/,
    );
  });

  it('says unauthorized for a bad signature, a token without sub, a non-HS256 token and garbage', async () => {
    const key = { 'X-CRM-App-Key': app.live.app_key };
    expectProblem(
      await consent({ ...key, ...bearer(await userToken('not-the-secret-at-all-0123456789', { sub: 'u-1' })) }),
      401,
      'unauthorized',
      /signature/,
    );
    expectProblem(await consent({ ...key, ...bearer(await userToken(app.live.identity_secret, {})) }), 401, 'unauthorized', /"sub"/);
    const hs512 = await new SignJWT({ sub: 'u-1' })
      .setProtectedHeader({ alg: 'HS512' })
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(app.live.identity_secret));
    expectProblem(await consent({ ...key, ...bearer(hs512) }), 401, 'unauthorized', /HS256/);
    expectProblem(await consent({ ...key, ...bearer('not.a.token') }), 401, 'unauthorized');
    expectProblem(await consent({ ...key, Authorization: 'Basic abc' }), 401, 'unauthorized', /Bearer/);
  });

  it('refuses a sub longer than 200 characters', async () => {
    const token = await userToken(app.live.identity_secret, { sub: 'x'.repeat(201) });
    expectProblem(await consent({ 'X-CRM-App-Key': app.live.app_key, ...bearer(token) }), 401, 'unauthorized', /200/);
  });

  it('refuses no key, a wrong key, and a key of the other mode or another app', async () => {
    const token = await userToken(app.live.identity_secret, { sub: 'u-1' });
    expectProblem(await consent(bearer(token)), 401, 'unauthorized', /X-CRM-App-Key/);
    expectProblem(await consent({ 'X-CRM-App-Key': 'app_doesnotexist000000000', ...bearer(token) }), 401, 'unauthorized');
    expectProblem(await consent({ 'X-CRM-App-Key': 'crm_sk_nonsense', ...bearer(token) }), 401, 'unauthorized');
    expectProblem(
      await consent({ 'X-CRM-App-Key': app.test.app_key, ...bearer(token) }),
      401,
      'unauthorized',
      /live mode's identity secret/,
    );
    expectProblem(await consent({ 'X-CRM-App-Key': other.live.app_key, ...bearer(token) }), 401, 'unauthorized', /signature/);
  });

  it('takes X-CRM-User-Id only for apps with unverified sign-in', async () => {
    expectProblem(await consent({ 'X-CRM-App-Key': app.live.app_key, 'X-CRM-User-Id': 'u-2' }), 401, 'unauthorized', /unverified sign-in/);
    expectProblem(await consent({ 'X-CRM-App-Key': app.live.app_key }), 401, 'unauthorized', /Bearer/);
    await updateSettings(t.ctx, await modeId(app.test.app_key), { unverifiedSignin: true });
    const r = await consent({ 'X-CRM-App-Key': app.test.app_key, 'X-CRM-User-Id': 'u-2' });
    expect(r.status).toBe(200);
    expect(await t.svc.db.contact.count({ where: { externalId: 'u-2', appModeId: await modeId(app.test.app_key) } })).toBe(1);
    // The live mode keeps its own setting.
    expectProblem(await consent({ 'X-CRM-App-Key': app.live.app_key, 'X-CRM-User-Id': 'u-2' }), 401, 'unauthorized');
  });

  it('refuses a switched-off app with 403 and an archived one with 401', async () => {
    const token = await userToken(other.live.identity_secret, { sub: 'u-1' });
    const h = { 'X-CRM-App-Key': other.live.app_key, ...bearer(token) };
    await updateSettings(t.ctx, await modeId(other.live.app_key), { switchedOff: true });
    expectProblem(await consent(h), 403, 'app_switched_off');
    await updateSettings(t.ctx, await modeId(other.live.app_key), { switchedOff: false, archived: true });
    expectProblem(await consent(h), 401, 'unauthorized');
    await updateSettings(t.ctx, await modeId(other.live.app_key), { archived: false });
    expect((await consent(h)).status).toBe(200);
  });

  it('never reads cookies', async () => {
    const r = await consent({
      'X-CRM-App-Key': app.live.app_key,
      Cookie: `token=${await userToken(app.live.identity_secret, { sub: 'u-1' })}`,
    });
    expectProblem(r, 401, 'unauthorized');
  });

  it('records the SDK version the client sends', async () => {
    const r = await consent({
      'X-CRM-App-Key': app.live.app_key,
      'X-Crm-Sdk': 'web/2.3.1',
      ...bearer(await userToken(app.live.identity_secret, { sub: 'sdk-user' })),
    });
    expect(r.status).toBe(200);
    const c = await t.svc.db.contact.findFirstOrThrow({ where: { externalId: 'sdk-user' } });
    expect(c.lastSdk).toBe('web/2.3.1');
  });
});

describe('public app details', () => {
  it('answers brand, features, languages and mode for a key', async () => {
    const r = await call(t.url, 'GET', `/public/v1/apps/${app.test.app_key}`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      key: app.test.app_key,
      name: 'Guest app',
      mode: 'test',
      brand: { name: 'Guest app' },
      features: { messenger: true, helpCenter: true, inAppMessages: true },
      languages: ['en'],
      defaultLanguage: 'en',
      // The link page's members, spelled as the spec gives them.
      linkBase: null,
      appStoreUrl: null,
      playStoreUrl: null,
    });
    expect(JSON.stringify(r.json)).not.toContain(app.test.identity_secret);
  });

  it('shows parts switched off and answers 404 for an unknown key', async () => {
    await updateSettings(t.ctx, await modeId(app.live.app_key), { helpOn: false });
    expect((await call(t.url, 'GET', `/public/v1/apps/${app.live.app_key}`)).json.features).toEqual({
      messenger: true,
      helpCenter: false,
      inAppMessages: true,
    });
    expectProblem(await call(t.url, 'GET', '/public/v1/apps/app_nothinghere00000000000'), 404, 'not_found');
  });
});
