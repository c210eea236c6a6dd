import { mkdirSync } from 'node:fs';
import { networkInterfaces } from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../src/demo.js';
import { releaseBrowser, seriousFindings, sharedBrowser } from './support/browser.js';
import { freePort } from '../bench/processes.js';
import { startTestServer, testConfig, type TestServer } from './support/server.js';

// The demo site of `npm start` (src/demo/site.ts): a customer's page with the web messenger on it,
// signed in as the demo contact by a token the service makes for a browser on this machine only,
// under a Content-Security-Policy that allows what the docs say a site must allow. A server made
// without it (every server on DATABASE_URL) has no /demo/. Screenshot: test/screenshots/demo-site.png.

const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

let t: TestServer;
let plain: TestServer;
let browser: Browser;
let appKey: string;
/** An address of this machine that is not loopback, when it has one: a request from it is another machine's. */
const outside = Object.values(networkInterfaces())
  .flat()
  .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

beforeAll(async () => {
  const port = await freePort();
  t = await startTestServer({ port, host: '0.0.0.0', demoSite: true, config: testConfig({ baseUrl: `http://127.0.0.1:${port}` }) });
  const banner = (await seedDemo(t.svc, t.url))!;
  appKey = /live app key\s+(app_\S+)/.exec(banner)![1]!;
  expect(banner).toContain(`demo site          ${t.url}/demo/`);
  plain = await startTestServer({ dbUrl: t.dbUrl });
  browser = await sharedBrowser();
  mkdirSync(SHOTS, { recursive: true });
}, 60_000);
afterAll(async () => {
  await releaseBrowser(browser);
  await plain?.close();
  await t?.close();
});

const token = (base: string, headers: Record<string, string> = {}) => fetch(`${base}/demo/token`, { method: 'POST', headers });

describe('the demo site', { timeout: 60_000 }, () => {
  it('serves the page with its policy, and a token for the demo contact to this machine and this origin only', async () => {
    const page = await fetch(`${t.url}/demo/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'; style-src 'self' 'unsafe-inline'/);
    const html = await page.text();
    expect(html).toContain(`<script src="/messenger.js" data-app-key="${appKey}" async></script>`);
    expect(await (await fetch(`${t.url}/`)).text()).toContain('href="/demo/"');

    const given = await token(t.url, { Origin: t.url });
    expect(given.status).toBe(200);
    expect(given.headers.get('cache-control')).toBe('no-store');
    const jwt = await given.text();
    const [, payload] = jwt.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as { sub: string; exp: number; iat: number };
    expect(claims.sub).toBe('ada');
    expect(claims.exp - claims.iat).toBe(600);
    const conversations = await fetch(`${t.url}/guest/v1/conversations`, {
      headers: { 'X-CRM-App-Key': appKey, Authorization: `Bearer ${jwt}` },
    });
    expect(((await conversations.json()) as { items: unknown[] }).items).toHaveLength(2);

    // Another page's origin gets nothing, whatever machine it runs on.
    const foreign = await token(t.url, { Origin: 'http://localhost:9' });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    // A server without the demo site has none of it.
    expect((await fetch(`${plain.url}/demo/`)).status).toBe(404);
    expect((await token(plain.url)).status).toBe(404);
  });

  it.runIf(outside !== undefined)('gives no token to a browser on another machine', async () => {
    const port = new URL(t.url).port;
    const refused = await token(`http://${outside}:${port}`);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/on the machine the service runs on/);
  });

  it('shows the messenger signed in as Ada, under the page’s policy, accessible', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const refused: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) refused.push(m.text());
    });
    await page.goto(`${t.url}/demo/`);
    // The demo's live banner comes from Ada's check-in: the token worked.
    await page.getByText('Welcome to the demo app').first().waitFor();
    await page.locator('[data-crm-messenger] button.launcher').click();
    const panel = page.locator('[data-crm-messenger] [role="dialog"]');
    await panel.getByRole('button', { name: 'Send us a message' }).waitFor();
    const findings = await seriousFindings(page);
    expect(JSON.stringify(findings, null, 1)).toBe('[]');
    expect(refused).toEqual([]);
    await page.screenshot({ path: `${SHOTS}demo-site.png` });
    await page.close();
  });
});
