import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffApp, type StaffApp } from './support/factories.js';
import { guestOf } from './support/messenger.js';
import { startAddressedServer, type TestServer } from './support/server.js';
import { releaseBrowser, seriousFindings, sharedBrowser } from './support/browser.js';
import { runCommand } from './support/console.js';

// The staff console (console/, served at /console) in headless Chromium against a real server: the
// shell's headers, signing in (and a refusal), the inbox with a guest's conversation, a reply, the
// keys, test mode, and a guest's message appearing live in two open consoles. Screenshots go to
// test/screenshots/console-*.png.

const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

let t: TestServer;
let app: StaffApp;
let browser: Browser;
let conversationId: string;
let henryConversationId: string;
const opened: BrowserContext[] = [];
/** Whatever a page logs as an error (a blocked script or socket shows here), by page. */
const errors = new Map<Page, string[]>();

beforeAll(async () => {
  // The server's own address as BASE_URL: the socket's Origin check compares with it.
  t = await startAddressedServer();
  app = await staffApp(t, 'Acme Cloud');
  // Henry's first, so Grace's is the newest and first in the list.
  const henry = await guestOf(t, app.live, 'henry').start({ text: 'Can I change my plan mid-month?' });
  expect(henry.status, henry.text).toBe(201);
  henryConversationId = henry.json.id;
  const guest = guestOf(t, app.live, 'grace');
  const started = await guest.start({ text: 'Hello, my invoice shows the wrong VAT number.' });
  expect(started.status, started.text).toBe(201);
  conversationId = started.json.id;
  browser = await sharedBrowser();
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  for (const c of opened) await c.close().catch(() => {});
  await releaseBrowser(browser);
  await t?.close();
});

/** A page; with `signedIn`, the owner's session is in its storage already, as after signing in (console/src/api/session.ts). */
async function newPage(opts: { signedIn?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
  if (opts.signedIn)
    await context.addInitScript((value) => localStorage.setItem('crm.console.session', value), JSON.stringify(await ownerSession()));
  opened.push(context);
  // Generous: beside the whole suite on a busy 2-core machine a screen can take seconds; a screen that never comes still fails.
  context.setDefaultTimeout(20_000);
  // Nothing leaves the machine: a request to any other host fails the test.
  await context.route(
    (url) => url.host !== new URL(t.url).host,
    (route) => {
      errors.get(page)?.push(`request to another host: ${route.request().url()}`);
      return route.abort();
    },
  );
  const page = await context.newPage();
  errors.set(page, []);
  page.on('console', (m) => m.type() === 'error' && errors.get(page)!.push(m.text()));
  page.on('pageerror', (e) => errors.get(page)!.push(String(e)));
  return page;
}

let session: { token: string; name: string; email: string; viewerId: string } | undefined;
async function ownerSession() {
  if (session) return session;
  const r = await fetch(`${t.url}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${app.owner}` },
    body: JSON.stringify({ query: '{ viewer { id name email } }' }),
  });
  const { viewer } = ((await r.json()) as { data: { viewer: { id: string; name: string; email: string } } }).data;
  return (session = { token: app.owner, name: viewer.name, email: viewer.email, viewerId: viewer.id });
}

async function signIn(page: Page, email = app.ownerEmail, password = app.ownerPassword) {
  await page.goto(`${t.url}/console`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  if (password === app.ownerPassword) await page.waitForURL(`${t.url}/console/inbox/open`);
}

/** How long a polled expectation waits (vitest's default is one second). */
const POLL = { timeout: 20_000 };

const row = (page: Page, text: string) => page.locator('a.row', { hasText: text });

describe('the staff console', { timeout: 60_000 }, () => {
  it('answers its shell with a strict policy and no-cache, on every path under /console/, and its hashed assets for a year', async () => {
    const bare = await fetch(`${t.url}/console`, { redirect: 'manual' });
    expect(bare.status).toBe(308);
    expect(bare.headers.get('location')).toBe('/console/');
    for (const path of ['/console/', '/console/inbox/open/some-conversation', '/console/sign-in']) {
      const r = await fetch(`${t.url}${path}`);
      expect(r.status, path).toBe(200);
      expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(r.headers.get('cache-control')).toBe('no-cache');
      const csp = r.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain(`connect-src 'self' ws://${new URL(t.url).host} wss://${new URL(t.url).host}`);
      expect(csp).not.toContain('unsafe-inline');
      const html = await r.text();
      // No inline script: every script names its file.
      expect([...html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)].every((m) => /\bsrc=/.test(m[0]) && m[1]!.trim() === '')).toBe(
        true,
      );
      expect(html).not.toMatch(/https?:\/\//);
    }
    const head = await fetch(`${t.url}/console/`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    const html = await (await fetch(`${t.url}/console/`)).text();
    const assets = [...html.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const asset of assets) {
      for (const method of ['GET', 'HEAD']) {
        const r = await fetch(`${t.url}${asset}`, { method });
        expect(r.status, `${method} ${asset}`).toBe(200);
        expect(r.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      }
    }
    const missing = await fetch(`${t.url}/console/assets/index-nothere.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cache-control')).toBe('no-cache');
  });

  it('refuses a wrong password in words, passes axe on the sign-in screen, and signs in to the inbox with the conversation a guest started', async () => {
    const page = await newPage();
    await page.goto(`${t.url}/console/inbox/open`);
    // Without a session, any screen is the sign-in screen.
    await expect.poll(() => page.url(), POLL).toBe(`${t.url}/console/sign-in`);
    expect(await seriousFindings(page)).toEqual([]);
    await signIn(page, app.ownerEmail, 'not the password at all');
    const refusal = page.getByRole('alert');
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/\w{3,}/);
    expect(page.url()).toBe(`${t.url}/console/sign-in`);
    await page.screenshot({ path: `${SHOTS}console-sign-in-refused.png` });

    await page.getByLabel('Password').fill(app.ownerPassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await row(page, 'grace').waitFor();
    expect(page.url()).toBe(`${t.url}/console/inbox/open`);
    expect(await page.getByRole('heading', { name: 'Open conversations' }).isVisible()).toBe(true);
    expect(await seriousFindings(page)).toEqual([]);
    expect(errors.get(page)).toEqual([]);
  });

  it('opens a conversation by keys, replies with r and Ctrl+Enter, and shows the reply as a part; a deep link opens the same; assign and close by e', async () => {
    const page = await newPage({ signedIn: true });
    await page.goto(`${t.url}/console/`);
    await row(page, 'grace').waitFor();
    // j on a Russian layout: the key says о, its place on the keyboard is KeyJ, and that is what counts. Pressed
    // until the focus is on Grace's row (the rows' order is their latest activity, which other writers may move).
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-id'));
    for (let i = 0; i < 5 && (await focused()) !== conversationId; i++)
      await page.evaluate(() => document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'о', code: 'KeyJ', bubbles: true })));
    expect(await focused()).toBe(conversationId);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'grace' }).waitFor();
    expect(page.url()).toBe(`${t.url}/console/inbox/open/${conversationId}`);
    await page.keyboard.press('r');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('composer-text');
    await page.keyboard.type('Thanks Grace, I am correcting the VAT number now.');
    await page.keyboard.press('Control+Enter');
    await page.locator('.part-text', { hasText: 'correcting the VAT number' }).waitFor();
    // A note by n, shown as internal.
    await page.locator('body').click({ position: { x: 5, y: 700 } });
    await page.keyboard.press('n');
    await page.keyboard.type('Checked the billing record: VAT id was mistyped.');
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.locator('.part.internal', { hasText: 'mistyped' }).waitFor();
    await page.screenshot({ path: `${SHOTS}console-conversation.png` });
    expect(await seriousFindings(page)).toEqual([]);

    // The command menu: Ctrl+K lists the actions and screens.
    await page.keyboard.press('Control+k');
    await page.getByRole('dialog', { name: 'Commands' }).waitFor();
    await page.keyboard.type('snoozed');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Snoozed conversations' }).waitFor();

    const deep = await newPage({ signedIn: true });
    await deep.goto(`${t.url}/console/inbox/open/${conversationId}`);
    await deep.locator('.part-text', { hasText: 'correcting the VAT number' }).waitFor();

    // Assign to me, then close with e: the conversation says so and leaves the open list.
    await deep.goto(`${t.url}/console/inbox/open/${henryConversationId}`);
    await deep.getByRole('heading', { name: 'henry' }).waitFor();
    await deep.getByRole('button', { name: 'Assign to me' }).click();
    await deep.locator('.meta', { hasText: `Assigned to ${(await ownerSession()).name}` }).waitFor();
    await deep.keyboard.press('e');
    await deep.locator('.meta .state', { hasText: 'Closed' }).waitFor();
    await expect.poll(() => row(deep, 'henry').count(), POLL).toBe(0);
    expect(errors.get(page)).toEqual([]);
    expect(errors.get(deep)).toEqual([]);
  });

  it("shows a guest's new message live in two open consoles, without reload", async () => {
    const [one, two] = await Promise.all([newPage({ signedIn: true }), newPage({ signedIn: true })]);
    await Promise.all([one.goto(`${t.url}/console/inbox/open/${conversationId}`), two.goto(`${t.url}/console/inbox/open`)]);
    await row(two, 'grace').waitFor();
    await one.locator('.part-text', { hasText: 'wrong VAT number' }).waitFor();
    // Both sockets are up before the guest writes (the subscription answers reload first).
    await new Promise((r) => setTimeout(r, 300));

    const sent = await guestOf(t, app.live, 'grace').message(conversationId, { text: 'Also: my company moved to Berlin.' });
    expect(sent.status, sent.text).toBe(201);
    const since = Date.now();
    await Promise.all([
      one.locator('.part-text', { hasText: 'moved to Berlin' }).waitFor({ timeout: 5000 }),
      one.locator('a.row .preview', { hasText: 'moved to Berlin' }).waitFor({ timeout: 5000 }),
      two.locator('a.row .preview', { hasText: 'moved to Berlin' }).waitFor({ timeout: 5000 }),
    ]);
    console.log(`a guest's message seen live in both consoles within ${Date.now() - since} ms`);
    await one.screenshot({ path: `${SHOTS}console-live.png` });
    // Unread where the conversation is not on screen (in words too), read where it is; opening it reads it, on the service too.
    await row(two, 'grace').and(two.locator('.unread')).waitFor();
    expect(await row(two, 'grace').innerText()).toContain('Unread:');
    expect(await row(one, 'grace').getAttribute('class')).not.toContain('unread');
    await two.screenshot({ path: `${SHOTS}console-unread.png` });
    await row(two, 'grace').click();
    await two.locator('.part-text', { hasText: 'moved to Berlin' }).waitFor();
    await expect.poll(() => row(two, 'grace').getAttribute('class')).not.toContain('unread');
    const marks = async () => {
      const r = await fetch(`${t.url}/graphql`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${app.owner}` },
        body: JSON.stringify({
          query: 'query($ids: [ID!]!) { conversationReadMarks(ids: $ids) { readSeq } }',
          variables: { ids: [conversationId] },
        }),
      });
      return ((await r.json()) as { data: { conversationReadMarks: { readSeq: number }[] } }).data.conversationReadMarks;
    };
    const { lastSeq } = await t.svc.db.conversation.findUniqueOrThrow({ where: { id: conversationId } });
    await expect.poll(marks).toEqual([{ readSeq: lastSeq }]);
    expect(errors.get(one)).toEqual([]);
    expect(errors.get(two)).toEqual([]);
  });

  it('shows whose conversations the member chooses (theirs, nobody’s, a team’s), and a live change only when it is one of them', async () => {
    const owner = await ownerSession();
    const gql = (query: string, variables: Record<string, unknown>) =>
      fetch(`${t.url}/graphql`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${app.owner}` },
        body: JSON.stringify({ query, variables }),
      }).then((r) => r.json() as Promise<{ data: Record<string, { id: string }> }>);
    const { workspaceId } = await t.svc.db.app.findUniqueOrThrow({ where: { id: app.appId } });
    const team = (await gql('mutation($w: ID!) { createTeam(workspaceId: $w, name: "Billing") { id } }', { w: workspaceId })).data
      .createTeam!;
    const ivy = (await guestOf(t, app.live, 'ivy').start({ text: 'Mine to answer' })).json.id as string;
    await guestOf(t, app.live, 'kim').start({ text: 'Nobody’s yet' });
    await gql('mutation($id: ID!, $a: ID) { assignConversation(id: $id, assigneeId: $a) { id } }', { id: ivy, a: owner.viewerId });
    const page = await newPage({ signedIn: true });
    await page.goto(`${t.url}/console/inbox/open`);
    await row(page, 'ivy').waitFor();
    const whose = page.getByLabel('Whose conversations');
    await whose.selectOption({ label: 'Mine' });
    await row(page, 'kim').waitFor({ state: 'detached' });
    await row(page, 'ivy').waitFor();
    expect(await row(page, 'kim').count()).toBe(0);
    // By the command menu too.
    await runCommand(page, 'show unassigned');
    expect(await whose.inputValue()).toBe('unassigned');
    await row(page, 'kim').waitFor();
    expect(await row(page, 'ivy').count()).toBe(0);
    // A new conversation (nobody's) joins live; assigned to a team only, it stays; assigned to the member, it leaves.
    const jack = (await guestOf(t, app.live, 'jack').start({ text: 'Anyone there?' })).json.id as string;
    await row(page, 'jack').waitFor();
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}console-filter.png` });
    await gql('mutation($id: ID!, $t: ID) { assignConversation(id: $id, teamId: $t) { id } }', { id: jack, t: team.id });
    await gql('mutation($id: ID!, $a: ID) { assignConversation(id: $id, assigneeId: $a) { id } }', { id: jack, a: owner.viewerId });
    await row(page, 'jack').waitFor({ state: 'detached' });
    // A team's, and the choice kept across a reload.
    await whose.selectOption({ label: 'Team Billing' });
    await row(page, 'jack').waitFor();
    expect(await row(page, 'ivy').count()).toBe(0);
    expect(await row(page, 'kim').count()).toBe(0);
    await page.reload();
    await row(page, 'jack').waitFor();
    expect(await whose.inputValue()).toBe(`team:${team.id}`);
    expect(errors.get(page)).toEqual([]);
  });

  it('says so when the connection is lost, and resumes from the last change seen: what came meanwhile shows', async () => {
    const page = await newPage({ signedIn: true });
    // The console's socket, through a hand the test holds: it can cut it, and reads what each new one asks.
    const sockets: { close(): Promise<void> }[] = [];
    const subscribed: { after: string | null }[] = [];
    await page.routeWebSocket(/\/graphql$/, (ws) => {
      const server = ws.connectToServer();
      ws.onMessage((message) => {
        const m = JSON.parse(String(message)) as { type: string; payload?: { variables?: { after?: string | null } } };
        if (m.type === 'subscribe') subscribed.push({ after: m.payload?.variables?.after ?? null });
        server.send(message);
      });
      sockets.push({ close: () => ws.close({ code: 4500, reason: 'cut' }) });
    });
    await page.goto(`${t.url}/console/inbox/open`);
    await row(page, 'grace').waitFor();
    await expect.poll(() => subscribed.length, POLL).toBe(1);
    expect(subscribed[0]!.after).toBeNull();
    // A change seen live, so there is a version to resume from.
    // Henry's first, so Grace's is the newest and first in the list.
    const henry = await guestOf(t, app.live, 'henry').start({ text: 'Can I change my plan mid-month?' });
    expect(henry.status, henry.text).toBe(201);
    henryConversationId = henry.json.id;
    const guest = guestOf(t, app.live, 'grace');
    expect((await guest.message(conversationId, { text: 'Is anyone there?' })).status).toBe(201);
    await page.locator('a.row .preview', { hasText: 'anyone there' }).waitFor();

    await sockets[0]!.close();
    await page.getByRole('status').filter({ hasText: 'Connection lost' }).waitFor();
    await page.screenshot({ path: `${SHOTS}console-connection-lost.png` });
    expect((await guest.message(conversationId, { text: 'Sent while the console was away.' })).status).toBe(201);
    await page.locator('a.row .preview', { hasText: 'while the console was away' }).waitFor({ timeout: 15_000 });
    expect(await page.getByText('Connection lost').count()).toBe(0);
    expect(subscribed.length).toBeGreaterThanOrEqual(2);
    expect(subscribed.at(-1)!.after).toMatch(/./);
  });

  it('shows "Test mode" in words on every screen in test mode', async () => {
    const page = await newPage({ signedIn: true });
    await page.goto(`${t.url}/console/`);
    await row(page, 'grace').waitFor();
    expect(await page.getByText('Test mode', { exact: true }).count()).toBe(0);
    await page.getByRole('radio', { name: 'Test' }).check();
    await page.locator('.test-bar').waitFor();
    expect(await page.locator('.test-bar').textContent()).toContain('Test mode');
    await page.getByText('No open conversations.').waitFor();
    // Paged as it is scrolled: 32 conversations in test mode, 30 to a page.
    const started = Date.now();
    for (let batch = 0; batch < 4; batch++)
      await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          guestOf(t, app.test, `tester-${batch * 8 + i}`).start({ text: `Test question ${batch * 8 + i}` }),
        ),
      );
    console.log(`32 test conversations made in ${Date.now() - started} ms`);
    await page.reload();
    await row(page, 'tester-').first().waitFor();
    expect(await page.locator('a.row').count()).toBe(30);
    await page.locator('a.row').last().scrollIntoViewIfNeeded();
    await expect.poll(() => page.locator('a.row').count(), POLL).toBe(32);
    await page.getByRole('link', { name: 'Closed' }).click();
    await page.getByRole('heading', { name: 'Closed conversations' }).waitFor();
    expect(await page.locator('.test-bar').isVisible()).toBe(true);
    // Kept after a reload, as the place the console works in.
    await page.reload();
    await page.locator('.test-bar').waitFor();
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}console-test-mode.png` });
    // On a phone: one pane at a time, the bar still there.
    await page.setViewportSize({ width: 390, height: 760 });
    await page.goto(`${t.url}/console/inbox/open/${conversationId}`);
    await page.getByRole('radio', { name: 'Live' }).check();
    await page.locator('.part-text').first().waitFor();
    await page.screenshot({ path: `${SHOTS}console-phone.png` });
    expect(errors.get(page)).toEqual([]);
  });
});
