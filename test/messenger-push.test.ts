import { mkdirSync } from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateSettings } from '../src/domain/apps/settings.js';
import { openCredentials } from '../src/domain/push/credentials.js';
import { webPayload } from '../src/domain/push/payload.js';
import { releaseBrowser, seriousFindings, sharedBrowser } from './support/browser.js';
import { staffApp, type StaffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { userToken } from './support/http.js';
import { startAddressedServer, type TestServer } from './support/server.js';

// Web Push in the web messenger, as a customer's website has it: the app's VAPID public key in its
// public details, the service's worker part imported by the site's own one-line /sw.js, the notices
// screen's "Get notifications" (never a prompt on load), the subscription registered as a web device
// and forgotten at sign-out. Headless Chromium has no push service, so pushManager.subscribe cannot
// succeed there (it answers "permission denied"): the test shows that failure as the person sees it,
// then gives the page a subscription of the same shape (the browser's PushManager answered in the
// page) for what follows, whose every request reaches the running service. A push is handed to the
// registered worker through the browser's debugging channel, with the payload the sender builds.

const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

let t: TestServer;
let app: StaffApp;
let browser: Browser;
let site: http.Server;
let origin: string;
let publicKey: string;

const { ok: staff } = staffApi(
  () => t.url,
  () => app.owner,
);

/** A customer's website: the snippet booted with its own service worker, the worker (one line), and the user's token. */
function website(user: string): http.Server {
  return http.createServer(async (req, res) => {
    if (req.url === '/my-token') {
      const now = Math.floor(t.clock.now().getTime() / 1000);
      const token = await userToken(app.live.identity_secret, { sub: user, iat: now, exp: now + 3600 });
      return res.writeHead(200, { 'Content-Type': 'text/plain' }).end(token);
    }
    if (req.url === '/sw.js')
      return res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(`importScripts('${t.url}/messenger-sw.js');\n`);
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Acme shop</title></head>
<body><main><h1>Acme shop</h1></main>
<script>window.Messenger = { q: [['boot', [{ token: () => fetch('/my-token').then((r) => r.text()), serviceWorker: '/sw.js' }]]] };</script>
<script src="${t.url}/messenger.js" data-app-key="${app.live.app_key}" async></script>
</body></html>`);
  });
}

/**
 * The browser's PushManager answering with a subscription of the shape a push service gives (its endpoint
 * and keys), since headless Chromium has none; the worker's registration itself is the browser's.
 */
function subscriptionsInPage() {
  const made: { unsubscribed: number } = ((window as unknown as { pushMade: { unsubscribed: number } }).pushMade = { unsubscribed: 0 });
  let held: object | null = null;
  const fromBase64url = (s: string) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)).buffer;
  PushManager.prototype.getSubscription = async () => held as PushSubscription | null;
  PushManager.prototype.subscribe = async (options?: PushSubscriptionOptionsInit) => {
    const n = Math.random().toString(36).slice(2);
    const json = {
      endpoint: `https://push.example.com/send/${n}`,
      expirationTime: null,
      keys: {
        p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
        auth: 'tBHItJI5svbpez7KI4CCXg',
      },
    };
    const subscription = {
      endpoint: json.endpoint,
      options: { userVisibleOnly: true, applicationServerKey: fromBase64url(String(options?.applicationServerKey)) },
      toJSON: () => json,
      unsubscribe: async () => {
        held = null;
        made.unsubscribed++;
        return true;
      },
    };
    held = subscription;
    return subscription as unknown as PushSubscription;
  };
}

beforeAll(async () => {
  t = await startAddressedServer();
  app = await staffApp(t, 'Acme');
  site = website('push-user-1');
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  origin = `http://localhost:${(site.address() as { port: number }).port}`;
  await updateSettings(t.ctx, app.modes.live, { webOrigins: [origin] });
  browser = await sharedBrowser();
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await releaseBrowser(browser);
  site?.close();
  await t?.close();
});

const publicApp = async () => (await fetch(`${t.url}/public/v1/apps/${app.live.app_key}`)).json();
const devices = () => t.svc.db.device.findMany({ where: { appModeId: app.modes.live, contact: { externalId: 'push-user-1' } } });
const notices = (page: Page) => page.locator('[data-crm-messenger] [role="dialog"]');

async function openNotices(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto(origin);
  await page.locator('[data-crm-messenger] button.launcher').click();
  await notices(page).getByRole('button', { name: 'Notices' }).click();
  return page;
}

describe('Web Push in the web messenger', { timeout: 60_000 }, () => {
  it('answers the VAPID public key in the public app details once staff set the keys, never the private one', async () => {
    expect((await publicApp()).webPushKey).toBeNull();
    const set = await staff('mutation($m: ID!) { setVapidKeys(appModeId: $m, subject: "mailto:push@acme.example") { publicKey } }', {
      m: app.modes.live,
    });
    publicKey = set.setVapidKeys.publicKey;
    const answer = await fetch(`${t.url}/public/v1/apps/${app.live.app_key}`);
    const text = await answer.text();
    expect(JSON.parse(text).webPushKey).toBe(publicKey);
    const { web } = await openCredentials(t.ctx, app.modes.live);
    expect(web!.privateKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(text).not.toContain(web!.privateKey);
    // The test mode has no keys of its own.
    expect((await (await fetch(`${t.url}/public/v1/apps/${app.test.app_key}`)).json()).webPushKey).toBeNull();

    const worker = await fetch(`${t.url}/messenger-sw.js`);
    expect(worker.status).toBe(200);
    expect(worker.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
    expect(worker.headers.get('cache-control')).toBe('public, max-age=300');
    expect(await worker.text()).toContain('notificationclick');
  });

  it('offers notifications on the notices screen only, and says so when the person refuses or the browser cannot subscribe', async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    const page = await context.newPage();
    await page.goto(origin);
    await page.locator('[data-crm-messenger] button.launcher').waitFor();
    // Nothing registered nor asked on load.
    expect(await page.evaluate(() => navigator.serviceWorker.getRegistrations().then((r) => r.length))).toBe(0);
    await page.close();
    // The person says no to the browser's question: told where to change it, nothing registered.
    const refused = await openNotices(context);
    await notices(refused).getByRole('button', { name: 'Get notifications' }).click();
    await notices(refused).getByText('Notifications are blocked for this site').waitFor();
    await refused.close();
    await context.grantPermissions(['notifications'], { origin });

    const shown = await openNotices(context);
    const get = notices(shown).getByRole('button', { name: 'Get notifications' });
    await get.waitFor();
    expect(await seriousFindings(shown)).toEqual([]);
    await shown.screenshot({ path: `${SHOTS}messenger-push-offer.png` });
    await get.click();
    // The browser's own subscribe fails here (no push service): the person is told, and nothing is registered.
    await notices(shown).getByRole('alert').filter({ hasText: 'Notifications could not be turned on' }).waitFor();
    expect(await devices()).toEqual([]);
    // The site's worker was registered from the site's origin, the service's part imported into it.
    expect(
      await shown.evaluate(async () => {
        const r = await navigator.serviceWorker.getRegistration('/sw.js');
        return r?.active?.scriptURL;
      }),
    ).toBe(`${origin}/sw.js`);
    await context.close();
  });

  it('registers the subscription as a web device once, draws a push, turns off, and forgets the device at sign-out', async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    await context.grantPermissions(['notifications'], { origin });
    await context.addInitScript(subscriptionsInPage);
    const page = await openNotices(context);
    const asked: string[] = [];
    page.on('request', (r) => r.url() === `${t.url}/guest/v1/devices` && asked.push(r.method()));
    const panel = notices(page);
    await panel.getByRole('button', { name: 'Get notifications' }).click();
    await panel.getByRole('status').filter({ hasText: 'Notifications are on in this browser.' }).waitFor();
    const [device] = await devices();
    expect(device?.platform).toBe('web');
    const token = t.svc.secrets.open(device!.tokenSealed);
    expect(JSON.parse(token)).toMatchObject({ endpoint: expect.stringMatching(/^https:\/\/push\.example\.com\/send\//), keys: {} });
    expect(await page.evaluate(() => JSON.stringify((window as unknown as { pushMade: unknown }).pushMade))).toBe('{"unsubscribed":0}');
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}messenger-push-on.png` });

    // Back on the notices screen: the same subscription is not registered again on this page.
    await panel.getByRole('button', { name: 'Back' }).click();
    await panel.getByRole('button', { name: 'Notices' }).click();
    await panel.getByRole('status').filter({ hasText: 'Notifications are on' }).waitFor();
    expect(asked).toEqual(['PUT']);

    // A push as the sender builds it, handed to the site's worker: a notification with its title, body and link.
    const cdp = await context.newCDPSession(page);
    const registrationId = new Promise<string>((resolve) =>
      cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => {
        const ours = e.registrations.find((r) => r.scopeURL.startsWith(origin) && !r.isDeleted);
        if (ours) resolve(ours.registrationId);
      }),
    );
    await cdp.send('ServiceWorker.enable');
    const payload = webPayload({ sendId: 'send-1', title: 'Your parcel is here', body: 'At the door', link: '/orders/7' });
    await cdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId: await registrationId, data: payload });
    const drawn = () =>
      page.evaluate(async () => {
        const r = await navigator.serviceWorker.getRegistration('/sw.js');
        return (await r!.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data }));
      });
    await expect
      .poll(drawn)
      .toEqual([{ title: 'Your parcel is here', body: 'At the door', tag: 'crm-send-1', data: { link: '/orders/7', send_id: 'send-1' } }]);

    // Turned off: forgotten and ended; turned on again: a new subscription, registered.
    await panel.getByRole('button', { name: 'Turn off notifications' }).click();
    await panel.getByRole('button', { name: 'Get notifications' }).waitFor();
    expect(await devices()).toEqual([]);
    await panel.getByRole('button', { name: 'Get notifications' }).click();
    await panel.getByRole('status').filter({ hasText: 'Notifications are on' }).waitFor();
    expect(await devices()).toHaveLength(1);

    // Signing out forgets the device while the token still works, and ends the subscription.
    await page.evaluate(() => (window as unknown as { Messenger: { shutdown(): Promise<void> } }).Messenger.shutdown());
    expect(await devices()).toEqual([]);
    expect(asked).toEqual(['PUT', 'DELETE', 'PUT', 'DELETE']);
    expect(await page.evaluate(() => JSON.stringify((window as unknown as { pushMade: unknown }).pushMade))).toBe('{"unsubscribed":2}');
    await context.close();
  });
});
