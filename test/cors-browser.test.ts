import http from 'node:http';
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateSettings } from '../src/domain/apps/settings.js';
import { userToken } from './support/http.js';
import { seedApp, startTestServer, testConfig, type TestServer } from './support/server.js';
import { launchBrowser } from './support/browser.js';

// A real browser (Debian's chromium) obeying the service's CORS answers.

let t: TestServer;
let browser: Browser;
let listedPage: http.Server;
let unlistedPage: http.Server;
let listedOrigin: string;
let unlistedOrigin: string;
let appKey: string;
let token: string;

const servePage = async () => {
  const srv = http.createServer((_req, res) =>
    res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>shop</title>'),
  );
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return { srv, origin: `http://localhost:${(srv.address() as { port: number }).port}` };
};

beforeAll(async () => {
  t = await startTestServer({ config: testConfig({}, { guestAddressPerMinute: 3 }) });
  const app = await seedApp(t.svc);
  ({ srv: listedPage, origin: listedOrigin } = await servePage());
  ({ srv: unlistedPage, origin: unlistedOrigin } = await servePage());
  const live = await t.svc.db.appMode.findUniqueOrThrow({ where: { appKey: app.live.app_key } });
  await updateSettings(t.ctx, live.id, { webOrigins: [listedOrigin] });
  appKey = app.live.app_key;
  token = await userToken(app.live.identity_secret, { sub: 'browser-user' });
  browser = await launchBrowser(['--disable-quic']);
});
afterAll(async () => {
  await browser?.close();
  listedPage?.close();
  unlistedPage?.close();
  await t?.close();
});

async function fetchFrom(origin: string) {
  const page = await browser.newPage();
  try {
    await page.goto(origin);
    return await page.evaluate(
      async ({ url, appKey, token }) => {
        try {
          const res = await fetch(url, {
            method: 'PUT',
            headers: {
              'X-CRM-App-Key': appKey,
              Authorization: `Bearer ${token}`,
              'Content-Type': 'application/json',
              'X-Crm-Sdk': 'web/1.0.0',
            },
            body: JSON.stringify({ offers_by_push: true }),
          });
          return { status: res.status, retryAfter: res.headers.get('Retry-After'), body: await res.json() };
        } catch (err) {
          return { error: String(err) };
        }
      },
      { url: `${t.url.replace('127.0.0.1', 'localhost')}/guest/v1/consent`, appKey, token },
    );
  } finally {
    await page.close();
  }
}

describe('in a browser', () => {
  it('a listed origin reads a guest answer, then a 429 and its Retry-After; an unlisted origin is blocked', async () => {
    const first = await fetchFrom(listedOrigin);
    expect(first).toMatchObject({ status: 200, body: { offers_by_push: true } });

    const blocked = await fetchFrom(unlistedOrigin);
    expect(blocked).toEqual({ error: expect.stringMatching(/Failed to fetch/) });

    let limited: Awaited<ReturnType<typeof fetchFrom>> | undefined;
    for (let i = 0; i < 5 && !(limited && 'status' in limited && limited.status === 429); i++) limited = await fetchFrom(listedOrigin);
    expect(limited).toMatchObject({ status: 429, body: { code: 'rate_limited' } });
    expect(Number((limited as { retryAfter: string }).retryAfter)).toBeGreaterThan(0);
  });
});
