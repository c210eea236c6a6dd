import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverApi, staffApp, type StaffApp } from './support/factories.js';
import { releaseBrowser, seriousFindings, sharedBrowser } from './support/browser.js';
import { guestOf } from './support/messenger.js';
import { startAddressedServer, type TestServer } from './support/server.js';
import { runCommand, signedInConsole } from './support/console.js';
import { staffApi } from './support/graphql.js';

// The console's Contacts: a search finds a person by email, the keyboard opens their page (their
// attributes and past conversations), a past conversation opens in the inbox (its snooze line in
// the reader's time), and erasing them asks for their email first and shows the erase to its end.
// Screenshots: test/screenshots/console-contacts-*.png.

const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

let t: TestServer;
let app: StaffApp;
let browser: Browser;
const conversations: string[] = [];
const errors: string[] = [];

/** A staff GraphQL operation that must succeed, as the owner (or the member of `token`); its data. */
const { ok: staff } = staffApi(
  () => t.url,
  () => app.owner,
);

beforeAll(async () => {
  t = await startAddressedServer();
  app = await staffApp(t, 'Acme Cloud');
  const server = serverApi(t, app.live.server_key);
  for (const [id, name] of [
    ['ada', 'Ada Lovelace'],
    ['alan', 'Alan Turing'],
  ])
    await server.identify(id!, { display_name: name, email: `${id}@example.com` });
  await server.identify('grace', {
    display_name: 'Grace Hopper',
    email: 'grace@example.com',
    attributes: { plan: 'pro', seats: 12 },
  });
  const grace = guestOf(t, app.live, 'grace');
  for (const text of ['My invoice shows the wrong VAT number.', 'Can I add two more seats?']) {
    const started = await grace.start({ text });
    expect(started.status, started.text).toBe(201);
    conversations.push(started.json.id);
  }
  // The first is snoozed: its event line names a time.
  await staff('mutation($id: ID!, $until: DateTime!) { snoozeConversation(id: $id, until: $until) { id } }', {
    id: conversations[0],
    until: new Date(Date.now() + 26 * 3_600_000).toISOString(),
  });
  browser = await sharedBrowser();
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await releaseBrowser(browser);
  await t?.close();
});

const open = (): Promise<Page> => signedInConsole(browser, { url: t.url, token: app.owner, errors });

describe('contacts in the console', { timeout: 60_000 }, () => {
  it('finds a person by email, opens their page by keys, opens a past conversation, and erases them after confirming', async () => {
    const page = await open();
    await page.goto(`${t.url}/console/inbox/open`);
    // Contacts from the command menu.
    await page.locator('.conversations').waitFor();
    await runCommand(page, 'contacts');
    await page.waitForURL(/\/console\/contacts$/);
    const rows = page.locator('.contact-rows a.row');
    await expect.poll(() => rows.count()).toBe(3);

    await page.getByLabel('Search by email, name or user id').fill('GRACE@example');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('Grace Hopper');
    await page.screenshot({ path: `${SHOTS}console-contacts-search.png` });
    expect(await seriousFindings(page)).toEqual([]);

    // Out of the field, j moves to the row and Enter opens the page.
    await page.locator('.contacts h1').click();
    await page.keyboard.press('j');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/console\/contacts\/[^/]+$/);
    await page.getByRole('heading', { level: 1, name: 'Grace Hopper' }).waitFor();
    expect(await page.locator('.attributes div', { hasText: 'plan' }).locator('dd').textContent()).toBe('pro');
    const past = page.locator('.past-conversations a');
    await expect.poll(() => past.count()).toBe(2);
    expect((await past.allTextContents()).some((text) => text.includes('wrong VAT number'))).toBe(true);
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}console-contacts-person.png` });

    // A past conversation opens in the inbox; the panel beside it lists the other one.
    await past.filter({ hasText: 'wrong VAT number' }).click();
    await page.waitForURL(new RegExp(`/console/inbox/snoozed/${conversations[0]}$`));
    const line = page.locator('.event-line', { hasText: 'snoozed the conversation until' });
    await line.waitFor();
    // The snooze's time in the reader's words and zone, not as the service wrote it.
    expect(await line.textContent()).not.toMatch(/\d{4}-\d\d-\d\dT/);
    const panel = page.getByRole('complementary', { name: 'About the person' });
    await panel.locator('.past-conversations a', { hasText: 'two more seats' }).waitFor();
    expect(await panel.locator('.past-conversations [aria-current]').textContent()).toContain('(this one)');
    await page.screenshot({ path: `${SHOTS}console-contacts-conversation.png` });

    // Erase: refused until their email is typed; then followed until done. The panel links their page.
    await panel.getByRole('link', { name: 'Their page (erase)' }).click();
    await page.getByRole('heading', { level: 1, name: 'Grace Hopper' }).waitFor();
    await page.getByRole('button', { name: 'Erase this person…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Erase Grace Hopper?' });
    const erase = dialog.getByRole('button', { name: 'Erase', exact: true });
    await page.keyboard.type('grace@example.org');
    expect(await erase.isDisabled()).toBe(true);
    await dialog.getByLabel('Type their email or user id to confirm').fill('grace@example.com');
    expect(await erase.isDisabled()).toBe(false);
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}console-contacts-confirm.png` });
    await erase.click();
    const progress = page.locator('.erase-progress');
    await progress.filter({ hasText: /Queued|Erasing|Erased/ }).waitFor();
    await t.engine.runDue();
    await progress.filter({ hasText: 'Erased.' }).waitFor();
    const removed = async (kind: string) =>
      progress
        .locator('div')
        .filter({ has: page.getByText(kind, { exact: true }) })
        .locator('dd')
        .textContent();
    expect(await removed('contacts')).toBe('1');
    expect(await removed('conversations')).toBe('2');
    expect(await removed('conversation parts')).toBe('3');
    // The page's screens opened since had no subscription: the socket closing then is not a lost connection.
    expect(await page.locator('.connection-lost').count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}console-contacts-erased.png` });
    expect(await t.svc.db.contact.count({ where: { externalId: 'grace' } })).toBe(0);
    expect(errors).toEqual([]);
  });
});
