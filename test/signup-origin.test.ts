import http from 'node:http';
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseBrowser, seriousFindings, sharedBrowser } from './support/browser.js';
import { startTestServer, testConfig, type TestServer } from './support/server.js';

// Cross-origin rule 6 in a real browser (Debian's chromium): a page on the deployment's home page
// origin calls POST /public/v1/signup and reads every answer (the 202, a 400 naming the field, a
// 429 and its Retry-After); a page on any other origin gets no cross-origin permission. And the
// page the confirmation link leads to, as a person sees it (screenshot, axe-core).

let t: TestServer;
let browser: Browser;
let homePage: http.Server;
let otherPage: http.Server;
let home: string;
let other: string;

const servePage = async () => {
  const srv = http.createServer((_req, res) =>
    res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><html lang="en"><title>home</title></html>'),
  );
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return { srv, origin: `http://localhost:${(srv.address() as { port: number }).port}` };
};

beforeAll(async () => {
  ({ srv: homePage, origin: home } = await servePage());
  ({ srv: otherPage, origin: other } = await servePage());
  t = await startTestServer({ config: testConfig({ signup: { homeOrigin: home, botCheck: undefined } }) });
  browser = await sharedBrowser();
});
afterAll(async () => {
  await releaseBrowser(browser);
  homePage?.close();
  otherPage?.close();
  await t?.close();
});

const signupBody = (email: string, more: Record<string, unknown> = {}) => ({
  app_name: 'Browser App',
  email,
  password: 'a long enough password',
  workspace_name: 'Browser Works',
  ...more,
});

/** The page at `origin` posts each body to the sign-up route in turn, reading each answer it can. */
async function signUpFrom(origin: string, bodies: unknown[]) {
  const page = await browser.newPage();
  try {
    await page.goto(origin);
    return await page.evaluate(
      async ({ url, bodies }) => {
        const answers = [];
        for (const body of bodies)
          try {
            const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
            answers.push({ status: res.status, retryAfter: res.headers.get('Retry-After'), body: await res.json() });
          } catch (err) {
            answers.push({ error: String(err) });
          }
        return answers;
      },
      { url: `${t.url.replace('127.0.0.1', 'localhost')}/public/v1/signup`, bodies },
    );
  } finally {
    await page.close();
  }
}

describe('sign-up across origins, in a browser', () => {
  it('the home page origin reads the 202, a 400 naming the field, and a 429 with its Retry-After', async () => {
    const email = 'home-page@example.org';
    const [accepted, refused] = await signUpFrom(home, [signupBody(email), signupBody('x', { password: 'short' })]);
    expect(accepted).toEqual({
      status: 202,
      retryAfter: null,
      body: { email, next: 'confirm_email', expires_in_seconds: 86_400, mail_window_seconds: 3_600 },
    });
    expect(refused).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
    expect(refused!.body.errors.map((e: { field: string }) => e.field)).toEqual(['email', 'password']);

    const limitedEmail = 'limited@example.org';
    const answers = await signUpFrom(
      home,
      Array.from({ length: 6 }, () => signupBody(limitedEmail)),
    );
    expect(answers.slice(0, 5).map((a) => a.status)).toEqual([202, 202, 202, 202, 202]);
    expect(answers[5]).toMatchObject({ status: 429, body: { code: 'rate_limited' } });
    expect(Number(answers[5]!.retryAfter)).toBeGreaterThan(0);
  });

  it('another origin gets no cross-origin permission: the browser blocks every answer, refusals included', async () => {
    const answers = await signUpFrom(other, [signupBody('other-origin@example.org'), signupBody('x')]);
    expect(answers).toEqual([{ error: expect.stringMatching(/Failed to fetch/) }, { error: expect.stringMatching(/Failed to fetch/) }]);
    // Its preflight is answered without an allowance; the home origin's with one.
    const preflight = (origin: string) =>
      fetch(`${t.url}/public/v1/signup`, {
        method: 'OPTIONS',
        headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
      });
    expect((await preflight(other)).headers.get('access-control-allow-origin')).toBeNull();
    const allowed = await preflight(home);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(home);
    expect(allowed.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('the confirmation page asks with one button, reads well, and confirming leads to the staff console', async () => {
    // No SMTP here: the mail is kept in the database, where the test reads its link.
    await t.engine.runDue();
    const mail = await t.svc.db.outgoingMail.findFirstOrThrow({
      where: { kind: 'signup.confirm', recipients: { some: { email: 'home-page@example.org' } } },
    });
    const link = /https?:\/\/\S+\/signup\/confirm\/[A-Za-z0-9_-]{43}/.exec(mail.text ?? '')![0];
    const path = new URL(link).pathname;
    const page = await browser.newPage({ viewport: { width: 900, height: 640 } });
    try {
      await page.goto(t.url + path);
      expect(await page.locator('h1').textContent()).toBe('Confirm your sign-up');
      expect(await page.locator('main').textContent()).toContain('Browser Works');
      expect(await seriousFindings(page)).toEqual([]);
      await page.screenshot({ path: 'test/screenshots/signup-confirm.png' });
      await Promise.all([page.waitForURL(/\/console\//), page.getByRole('button', { name: 'Confirm and create my workspace' }).click()]);
      expect(await t.svc.db.staffUser.count({ where: { email: 'home-page@example.org' } })).toBe(1);
      // The link again: the page says so, and offers the way to sign in.
      await page.goto(t.url + path);
      expect(await page.locator('h1').textContent()).toBe('This sign-up is confirmed already');
      expect(await seriousFindings(page)).toEqual([]);
      await page.screenshot({ path: 'test/screenshots/signup-confirmed.png' });
    } finally {
      await page.close();
    }
  });
});
