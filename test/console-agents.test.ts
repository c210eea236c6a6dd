import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberOf, serverApi, staffApp, type StaffApp } from './support/factories.js';
import { releaseBrowser, seriousFindings, sharedBrowser } from './support/browser.js';
import { guestOf } from './support/messenger.js';
import { startAddressedServer, type TestServer } from './support/server.js';

// Two agents on one conversation in the console, each in a browser context of their own against
// one real server: each sees the other viewing and typing; a reply written before another agent's
// newer one is held and shown to its writer, then sent with "Send anyway"; the draft outlives the
// conversation changing under it and a reload; the person's panel. Screenshots:
// test/screenshots/console-agents-*.png.

const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

let t: TestServer;
let app: StaffApp;
let browser: Browser;
let conversationId: string;
let bea: { email: string; token: string };
const errors = new Map<Page, string[]>();

beforeAll(async () => {
  t = await startAddressedServer();
  app = await staffApp(t, 'Acme Cloud');
  const { workspaceId } = await t.svc.db.app.findUniqueOrThrow({ where: { id: app.appId } });
  bea = await memberOf(t, workspaceId, 'agent');
  await t.svc.db.team.create({ data: { id: randomUUID(), workspaceId, name: 'Billing', createdAt: new Date() } });
  await t.svc.db.staffUser.update({ where: { email: bea.email }, data: { name: 'Bea Lund' } });
  await t.svc.db.staffUser.update({ where: { email: app.ownerEmail }, data: { name: 'Ana Ruiz' } });
  const server = serverApi(t, app.live.server_key);
  await server.identify('grace', {
    display_name: 'Grace Hopper',
    email: 'grace@example.com',
    attributes: { plan: 'pro', seats: 12 },
    consent: { offers_by_email: true },
  });
  await server.sendEvents([{ id: 'grace-1', external_id: 'grace', name: 'invoice_viewed', at: new Date().toISOString(), props: {} }]);
  const grace = guestOf(t, app.live, 'grace');
  const device = await grace.send('PUT', '/guest/v1/devices', { platform: 'ios', token: 'a1'.repeat(32), app_version: '5.1.0' });
  expect(device.status, device.text).toBeLessThan(300);
  const started = await grace.start({ text: 'Hello, my invoice shows the wrong VAT number.' });
  expect(started.status, started.text).toBe(201);
  conversationId = started.json.id;
  browser = await sharedBrowser();
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await releaseBrowser(browser);
  await t?.close();
});

/** A console signed in as the member of `token` (their session in its storage, as after signing in). */
async function consoleOf(token: string): Promise<Page> {
  const r = await fetch(`${t.url}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: '{ viewer { id name email } }' }),
  });
  const { viewer } = ((await r.json()) as { data: { viewer: { id: string; name: string; email: string } } }).data;
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1360, height: 820 } });
  context.setDefaultTimeout(20_000);
  const session = JSON.stringify({ token, name: viewer.name, email: viewer.email, viewerId: viewer.id });
  await context.addInitScript((value) => localStorage.setItem('crm.console.session', value), session);
  const page = await context.newPage();
  errors.set(page, []);
  page.on('console', (m) => m.type() === 'error' && errors.get(page)!.push(m.text()));
  page.on('pageerror', (e) => errors.get(page)!.push(String(e)));
  return page;
}

/** Waits until `page` shows `text` in the presence line; answers how long it took. */
async function seen(page: Page, text: string): Promise<number> {
  const since = Date.now();
  await page.locator('.presence', { hasText: text }).waitFor();
  return Date.now() - since;
}

describe('two agents on one conversation in the console', { timeout: 60_000 }, () => {
  it('shows each the other viewing and typing, holds a reply written before a newer one, keeps the draft, and shows the person', async () => {
    const [ana, b] = await Promise.all([consoleOf(app.owner), consoleOf(bea.token)]);
    const at = `${t.url}/console/inbox/open/${conversationId}`;
    await Promise.all([ana.goto(at), b.goto(at)]);
    await Promise.all([ana, b].map((p) => p.locator('.part-text', { hasText: 'wrong VAT number' }).waitFor()));
    // Each sees the other viewing (not themselves).
    await Promise.all([seen(ana, 'Bea Lund is viewing'), seen(b, 'Ana Ruiz is viewing')]);
    expect(await ana.locator('.presence').textContent()).not.toContain('Ana Ruiz');

    // Guest parts bear the person's name, not "User"; the panel shows who they are.
    expect(await ana.locator('.part.by-contact strong').first().textContent()).toBe('Grace Hopper');
    const panel = ana.getByRole('complementary', { name: 'About the person' });
    await panel.locator('dt', { hasText: 'plan' }).waitFor();
    expect(await panel.locator('.attributes div', { hasText: 'plan' }).locator('dd').textContent()).toBe('pro');
    expect(await panel.locator('.attributes div', { hasText: 'seats' }).locator('dd').textContent()).toBe('12');
    for (const fact of ['Grace Hopper', 'grace@example.com', 'invoice_viewed', 'iOS 5.1.0'])
      expect(await panel.textContent()).toContain(fact);
    expect(await panel.locator('div', { hasText: 'By email' }).locator('dd').textContent()).toBe('Yes');

    // Ana writes a reply (not sent): Bea sees her typing.
    await ana.keyboard.press('r');
    await ana.keyboard.type('H');
    console.log(`Bea sees Ana typing ${await seen(b, 'Ana Ruiz is typing')} ms after her first key`);
    await ana.keyboard.type('i Grace, I will correct the VAT number today.');
    // Bea types, and Ana sees it; then Bea sends hers first.
    await b.keyboard.press('r');
    await b.keyboard.type('G');
    console.log(`Ana sees Bea typing ${await seen(ana, 'Bea Lund is typing')} ms after her first key`);
    await b.keyboard.type('race, the VAT number is fixed');
    await ana.screenshot({ path: `${SHOTS}console-agents-typing.png` });
    await b.keyboard.press('Control+Enter');
    await ana.locator('.part-text', { hasText: 'the VAT number is fixed' }).waitFor();
    // Bea assigns it to herself by the a key's chooser: the conversation changes under Ana's draft.
    await b.locator('body').click({ position: { x: 700, y: 300 } });
    await b.keyboard.press('a');
    await b.getByRole('dialog', { name: 'Assign to' }).waitFor();
    const assignTo = b.getByRole('dialog', { name: 'Assign to' });
    await assignTo.getByRole('option', { name: /Bea Lund \(me\)/ }).waitFor();
    expect(await assignTo.getByRole('option', { name: /Billing/ }).textContent()).toContain('Team');
    expect(await seriousFindings(b)).toEqual([]);
    await b.screenshot({ path: `${SHOTS}console-agents-assign.png` });
    await b.keyboard.type('bea');
    await b.keyboard.press('Enter');
    await ana.locator('.meta', { hasText: 'Assigned to Bea Lund' }).waitFor();
    const draft = 'Hi Grace, I will correct the VAT number today.';
    expect(await ana.locator('#composer-text').inputValue()).toBe(draft);
    // Kept in the tab's session storage: a reload keeps it.
    await ana.reload();
    await ana.locator('.part-text', { hasText: 'the VAT number is fixed' }).waitFor();
    expect(await ana.locator('#composer-text').inputValue()).toBe(draft);

    // Ana sends: held, Bea's reply shown to her first, the draft kept.
    await ana.locator('#composer-text').focus();
    await ana.keyboard.press('Control+Enter');
    const held = ana.locator('.held');
    await held.waitFor();
    expect(await held.locator('.part-text', { hasText: 'the VAT number is fixed' }).count()).toBe(1);
    expect(await held.textContent()).toContain('Bea Lund');
    expect(await ana.locator('#composer-text').inputValue()).toBe(draft);
    expect(await ana.locator('.part-text', { hasText: 'correct the VAT number today' }).count()).toBe(0);
    await ana.screenshot({ path: `${SHOTS}console-agents-held.png` });
    expect(await seriousFindings(ana)).toEqual([]);

    await held.getByRole('button', { name: 'Send anyway' }).click();
    await ana.locator('.part-text', { hasText: 'correct the VAT number today' }).waitFor();
    await b.locator('.part-text', { hasText: 'correct the VAT number today' }).waitFor();
    expect(await held.count()).toBe(0);
    expect(await ana.locator('#composer-text').inputValue()).toBe('');
    expect(await ana.evaluate((id) => sessionStorage.getItem(`crm.console.draft.${id}`), conversationId)).toBeNull();

    // A team by the same chooser, typed and chosen before its choices have come (their answer held back a second).
    await b.route('**/graphql', async (route) => {
      if (route.request().postData()?.includes('query AssignChoices')) await new Promise((r) => setTimeout(r, 1000));
      await route.continue();
    });
    await b.locator('body').click({ position: { x: 700, y: 300 } });
    await b.keyboard.press('a');
    await b.keyboard.type('billing');
    await b.keyboard.press('Enter');
    expect(await b.locator('#chooser-list').textContent()).toContain('Loading');
    await ana.locator('.meta', { hasText: 'Assigned to Bea Lund, Billing' }).waitFor();

    // Snooze by s, a choice by keyboard.
    await b.locator('body').click({ position: { x: 700, y: 300 } });
    await b.keyboard.press('s');
    await b.getByRole('dialog', { name: 'Snooze' }).waitFor();
    await b.keyboard.press('ArrowDown');
    await b.keyboard.press('Enter');
    await ana.locator('.meta .state', { hasText: 'Snoozed' }).waitFor();
    await ana.screenshot({ path: `${SHOTS}console-agents-panel.png` });
    expect(await seriousFindings(b)).toEqual([]);

    // Ana closes by e with "Ask for a rating" on (as it starts): the person is asked.
    expect(await ana.getByLabel('Ask for a rating').isChecked()).toBe(true);
    await ana.locator('body').click({ position: { x: 700, y: 300 } });
    await ana.keyboard.press('e');
    await ana.locator('.meta .state', { hasText: 'Closed' }).waitFor();
    expect((await t.svc.db.conversation.findUniqueOrThrow({ where: { id: conversationId } })).ratingAsked).toBe(true);

    // On a narrower screen the panel waits behind "About the person".
    await ana.setViewportSize({ width: 1000, height: 760 });
    expect(await panel.isVisible()).toBe(false);
    await ana.getByRole('button', { name: 'About the person' }).click();
    await panel.waitFor();
    await ana.screenshot({ path: `${SHOTS}console-agents-narrow.png` });
    await panel.getByRole('button', { name: 'Hide' }).click();
    await panel.waitFor({ state: 'hidden' });

    // Bea leaves: Ana no longer sees her.
    await b.goto(`${t.url}/console/inbox/open`);
    await expect.poll(() => ana.locator('.presence', { hasText: 'Bea Lund' }).count()).toBe(0);
    expect(errors.get(ana)).toEqual([]);
    expect(errors.get(b)).toEqual([]);
  });
});
