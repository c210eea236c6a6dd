import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateSettings } from '../src/domain/apps/settings.js';
import { MAX_TEXT } from '../src/domain/conversations/content.js';
import { releaseBrowser, seriousFindings, sharedBrowser } from './support/browser.js';
import { staffApp, type StaffApp } from './support/factories.js';
import { guestOf, customerSites } from './support/messenger.js';
import { startAddressedServer, type TestServer } from './support/server.js';
import { startedBy, ticketsOf } from './support/tickets.js';

// Tickets in the web messenger, as a person on a customer's website sees them: on home and in the
// list, one ticket with its type, state and conversation, live while it is on screen (the team's
// move and reply made over the staff API), and a reply that reaches the team once. Screenshots:
// test/screenshots/messenger-ticket*.png.

const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

let t: TestServer;
let app: StaffApp;
let browser: Browser;
let site: string;
let ticket: { id: string; number: number; conversation: { id: string } };
const sites = customerSites(
  () => t,
  () => app,
);
const tickets = ticketsOf(
  () => t,
  () => app,
);

beforeAll(async () => {
  t = await startAddressedServer();
  app = await staffApp(t, 'Acme');
  site = await sites.website('ticket-user-1');
  await updateSettings(t.ctx, app.modes.live, { webOrigins: [site] });
  const conversationId = await startedBy(guestOf(t, app.live, 'ticket-user-1'));
  ticket = await tickets.fromConversation(conversationId, await tickets.addType('Refund'));
  browser = await sharedBrowser();
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await releaseBrowser(browser);
  sites.close();
  await t?.close();
});

const panelOf = (page: Page) => page.locator('[data-crm-messenger] [role="dialog"]');
/** The data-ticket of the control with the focus, inside the messenger's shadow root. */
const focusedTicket = (page: Page) =>
  page.locator('[data-crm-messenger]').evaluate((host) => host.shadowRoot?.activeElement?.getAttribute('data-ticket') ?? null);

async function openMessenger(page: Page) {
  await page.goto(site);
  await page.locator('[data-crm-messenger] button.launcher').click();
  const panel = panelOf(page);
  await panel.getByRole('heading', { name: 'Your tickets' }).waitFor();
  return panel;
}

describe('tickets in the web messenger', { timeout: 60_000 }, () => {
  it('shows the ticket on home and in the list, follows the team’s move and reply live, and sends a reply once', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const panel = await openMessenger(page);
    const row = (where: Page | ReturnType<typeof panelOf>) =>
      where.getByRole('button', { name: `#${ticket.number} Refund for order 1234` });
    await row(panel).waitFor();
    expect(await panel.locator(`[data-ticket="${ticket.id}"] .ticket-state`).textContent()).toBe('Submitted');
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}messenger-ticket-home.png` });

    // The list, then the ticket from it.
    await panel.getByRole('button', { name: 'All your tickets' }).click();
    await panel.getByRole('heading', { name: 'Tickets' }).waitFor();
    await row(panel).click();
    await panel.getByRole('heading', { name: `Ticket #${ticket.number}` }).waitFor();
    const state = panel.locator('.ticket dd .ticket-state');
    expect(await state.textContent()).toBe('Submitted');
    expect(await panel.locator('.ticket dd').first().textContent()).toBe('Refund');
    await panel.locator('.part.mine', { hasText: 'My parcel never came' }).waitFor();

    // The team moves it and replies: both show while it is on screen.
    await tickets.move(ticket.id, 'in_progress');
    await expect.poll(() => state.textContent(), { timeout: 5_000 }).toBe('In progress');
    expect(await panel.locator('.steps [aria-current="step"]').textContent()).toBe('In progress');
    await tickets.ok('mutation($id: ID!) { replyToConversation(id: $id, text: "We have asked the carrier.") { seq } }', {
      id: ticket.conversation.id,
    });
    await panel.locator('.part:not(.mine)', { hasText: 'We have asked the carrier.' }).waitFor({ timeout: 5_000 });

    // A reply the service refuses says why, in its words, and is kept to mend.
    await panel.getByLabel('Your reply').fill('x'.repeat(MAX_TEXT + 1));
    await page.keyboard.press('Enter');
    await panel
      .getByRole('alert')
      .filter({ hasText: `at most ${MAX_TEXT} characters` })
      .waitFor();
    expect((await panel.getByLabel('Your reply').inputValue()).length).toBe(MAX_TEXT + 1);

    // The person replies; it reaches the team once.
    await panel.getByLabel('Your reply').fill('Thank you, I will wait');
    await page.keyboard.press('Enter');
    await panel.locator('.part.mine', { hasText: 'Thank you, I will wait' }).waitFor();
    expect(await panel.getByLabel('Your reply').inputValue()).toBe('');
    const parts = await t.svc.db.conversationPart.count({
      where: { conversationId: ticket.conversation.id, text: 'Thank you, I will wait' },
    });
    expect(parts).toBe(1);
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}messenger-ticket.png` });

    // Back to the list, the focus on the ticket left; back home, on the way to the list.
    await panel.getByRole('button', { name: 'Back' }).click();
    await panel.getByRole('heading', { name: 'Tickets' }).waitFor();
    await expect.poll(() => focusedTicket(page)).toBe(ticket.id);
    expect(await seriousFindings(page)).toEqual([]);
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter'); // the way back, by keyboard
    await panel.getByRole('heading', { name: 'Your tickets' }).waitFor();
    await expect
      .poll(() => page.locator('[data-crm-messenger]').evaluate((host) => host.shadowRoot?.activeElement?.textContent))
      .toBe('All your tickets');
    await page.close();
  });

  it('fits a phone 360 px wide, and gives the focus back to the ticket on home', async () => {
    const page = await browser.newPage({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    const panel = await openMessenger(page);
    await panel.locator(`[data-ticket="${ticket.id}"]`).click();
    await panel.getByLabel('Your reply').waitFor();
    await panel.locator('.ticket dd .ticket-state', { hasText: 'In progress' }).waitFor();
    expect(await panel.evaluate((p) => p.scrollWidth)).toBeLessThanOrEqual(360);
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}messenger-ticket-phone.png` });
    await panel.getByRole('button', { name: 'Back' }).click();
    await panel.getByRole('heading', { name: 'Your tickets' }).waitFor();
    await expect.poll(() => focusedTicket(page)).toBe(ticket.id);
    await page.close();
  });
});
