import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverApi, staffApp, type StaffApp } from './support/factories.js';
import { releaseBrowser, seriousFindings, sharedBrowser } from './support/browser.js';
import { guestOf } from './support/messenger.js';
import { startAddressedServer, type TestServer } from './support/server.js';
import { STATES } from './support/tickets.js';
import { runCommand, signedInConsole } from './support/console.js';
import { staffApi } from './support/graphql.js';

// The console's tickets: a ticket made from an open conversation by its key appears live in a
// second console's list, which opens it by keys and moves it through its states by keys (the
// conversation's link following); a ticket made for a person from their page; a ticket type added
// in test mode. axe-core on the list, the ticket, the dialogs and the types.
// Screenshots: test/screenshots/console-tickets-*.png.

const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

let t: TestServer;
let app: StaffApp;
let browser: Browser;
let conversationId: string;
const errors: string[] = [];

/** A staff GraphQL operation that must succeed, as the owner (or the member of `token`); its data. */
const { ok: staff } = staffApi(
  () => t.url,
  () => app.owner,
);

beforeAll(async () => {
  t = await startAddressedServer();
  app = await staffApp(t, 'Acme Cloud');
  await serverApi(t, app.live.server_key).identify('grace', { display_name: 'Grace Hopper', email: 'grace@example.com' });
  const started = await guestOf(t, app.live, 'grace').start({ text: 'I was charged twice for order 1234.' });
  expect(started.status, started.text).toBe(201);
  conversationId = started.json.id;
  await staff('mutation($m: ID!, $s: [TicketStateInput!]!) { addTicketType(appModeId: $m, name: "Refund", states: $s) { id } }', {
    m: app.modes.live,
    s: STATES,
  });
  browser = await sharedBrowser();
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await releaseBrowser(browser);
  await t?.close();
});

const open = (): Promise<Page> => signedInConsole(browser, { url: t.url, token: app.owner, errors });

describe('tickets in the console', { timeout: 60_000 }, () => {
  it('makes a ticket from a conversation, sees it live in another console, moves it by keys, makes one for a person, adds a type', async () => {
    // The second console watches the tickets list (reached from the command menu).
    const watcher = await open();
    await watcher.goto(`${t.url}/console/inbox/open`);
    await watcher.locator('.conversations').waitFor();
    await runCommand(watcher, 'go to tickets');
    await watcher.waitForURL(/\/console\/tickets\/all$/);
    await watcher.getByText('No tickets here yet.').waitFor();

    // The first makes a ticket from the open conversation: t, the title, Enter.
    const agent = await open();
    await agent.goto(`${t.url}/console/inbox/open/${conversationId}`);
    await agent.getByRole('button', { name: 'Make a ticket…' }).waitFor();
    // The types are held back: the title and Enter typed before they come make the ticket once they do.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await agent.route('**/graphql', async (route) => {
      if (route.request().postData()?.includes('query TicketTypes')) await held;
      await route.continue();
    });
    await agent.keyboard.press('t');
    const dialog = agent.getByRole('dialog', { name: 'Make a ticket' });
    await agent.keyboard.type('Refund the second charge');
    await agent.keyboard.press('Enter');
    expect(await dialog.isVisible()).toBe(true);
    release();
    await agent.getByRole('link', { name: 'Ticket #1: Submitted' }).waitFor();
    expect(await dialog.count()).toBe(0);
    await agent.unroute('**/graphql');

    // It appears in the other console without a reload.
    const rows = watcher.locator('.ticket-rows a.row');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('#1 Refund the second charge');
    expect(await rows.first().textContent()).toContain('Grace Hopper');
    expect(await seriousFindings(watcher)).toEqual([]);
    await watcher.screenshot({ path: `${SHOTS}console-tickets-list.png` });

    // j and Enter open it; m moves it, on and on.
    await watcher.keyboard.press('j');
    await watcher.keyboard.press('Enter');
    await watcher.waitForURL(/\/console\/tickets\/all\/[^/]+$/);
    await watcher.getByRole('heading', { name: '#1 Refund the second charge' }).waitFor();
    expect(await watcher.getByRole('link', { name: 'Grace Hopper', exact: true }).getAttribute('href')).toMatch(
      /^\/console\/contacts\/[^/]+$/,
    );
    expect(await watcher.locator('.ticket-facts a', { hasText: 'charged twice' }).getAttribute('href')).toBe(
      `/console/inbox/open/${conversationId}`,
    );
    const state = watcher.locator('.ticket-page .meta .ticket-state');
    const moveTo = async (typed: string, label: string) => {
      await watcher.keyboard.press('m');
      await watcher.getByRole('dialog', { name: 'Move the ticket to' }).waitFor();
      if (label === 'Resolved') expect(await seriousFindings(watcher)).toEqual([]);
      await watcher.keyboard.type(typed);
      await watcher.keyboard.press('Enter');
      await state.filter({ hasText: label }).waitFor();
    };
    await moveTo('progress', 'In progress');
    // The conversation's link follows the move live; then its console shows the tickets in progress.
    await agent.getByRole('link', { name: 'Ticket #1: In progress' }).waitFor();
    await agent.screenshot({ path: `${SHOTS}console-tickets-conversation.png` });
    await agent.goto(`${t.url}/console/tickets/in_progress`);
    await agent.locator('.ticket-rows a.row', { hasText: '#1 Refund the second charge' }).waitFor();
    await moveTo('resolved', 'Resolved');
    // Moved out of that state elsewhere, it leaves the list there.
    await agent.getByText('No tickets here yet.').waitFor();
    const steps = watcher.locator('.ticket-history li');
    await expect.poll(() => steps.count()).toBe(3);
    expect(await steps.last().textContent()).toContain('Moved from In progress to Resolved');
    // The list follows the moves live.
    await rows.filter({ hasText: 'Resolved' }).waitFor();
    expect(await seriousFindings(watcher)).toEqual([]);
    await watcher.screenshot({ path: `${SHOTS}console-tickets-ticket.png` });
    // On a phone, the ticket alone with a way back to the list.
    await watcher.setViewportSize({ width: 390, height: 800 });
    expect(await watcher.locator('.list-pane').isVisible()).toBe(false);
    await watcher.getByRole('button', { name: 'Back to the list' }).waitFor();
    await watcher.screenshot({ path: `${SHOTS}console-tickets-phone.png` });
    await watcher.setViewportSize({ width: 1360, height: 820 });
    const stored = await t.svc.db.ticket.findFirstOrThrow({ where: { conversationId } });
    expect(stored.state).toBe('resolved');

    // A ticket for the person from their page (a conversation of its own).
    await watcher.getByRole('link', { name: 'Grace Hopper', exact: true }).click();
    await watcher.getByRole('heading', { level: 1, name: 'Grace Hopper' }).waitFor();
    await watcher.getByRole('link', { name: 'Ticket #1: Resolved' }).waitFor();
    await watcher.getByRole('button', { name: 'Make a ticket…' }).click();
    await watcher.getByText('Starts in Submitted.').waitFor();
    await watcher.getByLabel('Title (required)').fill('Send a corrected invoice');
    expect(await seriousFindings(watcher)).toEqual([]);
    await watcher.screenshot({ path: `${SHOTS}console-tickets-make.png` });
    await watcher.getByRole('button', { name: 'Make the ticket' }).click();
    await watcher.getByRole('link', { name: 'Ticket #2: Submitted' }).waitFor();
    await watcher.screenshot({ path: `${SHOTS}console-tickets-person.png` });
    const made = await t.svc.db.ticket.findFirstOrThrow({ where: { number: 2, appModeId: app.modes.live } });
    expect(made.conversationId).not.toBe(conversationId);

    // Ticket types, in test mode: a type added with the states offered.
    await runCommand(watcher, 'test mode');
    await watcher.getByRole('note', { name: 'Test mode' }).waitFor();
    await watcher.getByRole('link', { name: 'Ticket types' }).click();
    await watcher.getByText('No ticket type yet.').waitFor();
    await watcher.getByRole('button', { name: 'Add a ticket type…' }).click();
    await watcher.getByLabel('Name').fill('Bug report');
    expect(await seriousFindings(watcher)).toEqual([]);
    await watcher.getByRole('button', { name: 'Add the type' }).click();
    await watcher.getByRole('heading', { name: 'Bug report' }).waitFor();
    expect(await watcher.getByRole('list', { name: 'Bug report: states' }).locator('li').allTextContents()).toEqual([
      'Submitted',
      'In progress',
      'Waiting on you',
      'Resolved (done)',
    ]);
    await watcher.screenshot({ path: `${SHOTS}console-tickets-types.png` });
    const added = await t.svc.db.ticketType.findFirstOrThrow({ where: { name: 'Bug report' } });
    expect(added.appModeId).toBe(app.modes.test);
    await watcher.getByRole('button', { name: 'Archive' }).click();
    await watcher.getByRole('button', { name: 'Bring back' }).waitFor();
    expect((await t.svc.db.ticketType.findUniqueOrThrow({ where: { id: added.id } })).archivedAt).not.toBeNull();
    expect(errors).toEqual([]);
  });
});
