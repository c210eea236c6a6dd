import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverApi, staffApp, type StaffApp } from './support/factories.js';
import { releaseBrowser, seriousFindings, sharedBrowser } from './support/browser.js';
import { call } from './support/http.js';
import { startAddressedServer, type TestServer } from './support/server.js';
import { runCommand, signedInConsole } from './support/console.js';

// The console's Contacts, the parts beyond search and the page: the list live (a person made by
// the server API appears without reload), a person's export downloaded as a file (the same as the
// server API's), and an erase followed from asked to done with the rows removed.
// Screenshots: test/screenshots/console-people-*.png.

const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

let t: TestServer;
let app: StaffApp;
let browser: Browser;
const errors: string[] = [];

beforeAll(async () => {
  t = await startAddressedServer();
  app = await staffApp(t, 'Acme Cloud');
  const server = serverApi(t, app.live.server_key);
  await server.identify('ada', { display_name: 'Ada Lovelace', email: 'ada@example.com', attributes: { plan: 'pro' } });
  await server.identify('alan', { display_name: 'Alan Turing', email: 'alan@example.com' });
  browser = await sharedBrowser();
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await releaseBrowser(browser);
  await t?.close();
});

describe('people in the console', { timeout: 60_000 }, () => {
  it('sees a person made elsewhere appear live, downloads an export, and follows an erase to its end', async () => {
    const page = await signedInConsole(browser, { url: t.url, token: app.owner, errors });
    // The list's subscription has answered (its first answer, a reload) before the person is made:
    // what follows comes as a change.
    let subscribed = false;
    page.on('websocket', (ws) => ws.on('framereceived', (f) => String(f.payload).includes('"contactsChanged"') && (subscribed = true)));
    await page.goto(`${t.url}/console/contacts`);
    const rows = page.locator('.contact-rows a.row');
    await expect.poll(() => rows.count()).toBe(2);
    await expect.poll(() => subscribed).toBe(true);

    // Made by the customer's backend: at the top of the open list (the latest updated), no reload.
    t.clock.advance(1000);
    const made = Date.now();
    await serverApi(t, app.live.server_key).identify('grace', { display_name: 'Grace Hopper', email: 'grace@example.com' });
    await rows.first().filter({ hasText: 'Grace Hopper' }).waitFor();
    console.log(`a person made by the server API showed in the list ${Date.now() - made} ms after the call`);
    expect(await rows.count()).toBe(3);
    expect(await page.locator('.connection-lost').count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}console-people-live.png` });
    expect(await seriousFindings(page)).toEqual([]);

    // The export, downloaded from the person's page: the server API's export, as a file.
    await rows.filter({ hasText: 'Ada Lovelace' }).click();
    await page.getByRole('heading', { level: 1, name: 'Ada Lovelace' }).waitFor();
    // By its button, or (as here) the command menu.
    await page.getByRole('button', { name: 'Download export' }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), runCommand(page, 'download export')]);
    expect(download.suggestedFilename()).toBe('contact-ada.json');
    const file = JSON.parse(await readFile((await download.path())!, 'utf8'));
    const byKey = await call(t.url, 'GET', '/server/v1/contacts/ada/export', {
      headers: { Authorization: `Bearer ${app.live.server_key}` },
    });
    expect(file).toEqual(byKey.json);
    expect(file.attributes).toEqual(expect.arrayContaining([{ name: 'plan', value: 'pro' }]));
    await page.getByRole('status').filter({ hasText: 'The download has started' }).waitFor();
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}console-people-export.png` });

    // Erase: asked, then followed (read again at a growing pause) until done, with what went.
    await page.goto(`${t.url}/console/contacts`);
    await rows.filter({ hasText: 'Alan Turing' }).click();
    await page.getByRole('heading', { level: 1, name: 'Alan Turing' }).waitFor();
    await page.getByRole('button', { name: 'Erase this person…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Erase Alan Turing?' });
    await dialog.getByLabel('Type their email or user id to confirm').fill('alan');
    await dialog.getByRole('button', { name: 'Erase', exact: true }).click();
    const progress = page.locator('.erase-progress');
    await progress.filter({ hasText: /Queued|Erasing/ }).waitFor();
    // No export is offered for someone being erased.
    expect(await page.getByRole('button', { name: 'Download export' }).count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}console-people-erasing.png` });
    await t.engine.runDue();
    await progress.filter({ hasText: 'Erased.' }).waitFor();
    expect(await progress.locator('div').filter({ hasText: 'contacts' }).locator('dd').textContent()).toBe('1');
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}console-people-erased.png` });
    expect(await t.svc.db.contact.count({ where: { externalId: 'alan' } })).toBe(0);
    expect(errors).toEqual([]);
  });
});
