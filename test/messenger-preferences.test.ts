import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateSettings } from '../src/domain/apps/settings.js';
import { releaseBrowser, seriousFindings, sharedBrowser } from './support/browser.js';
import { staffApp, type StaffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { helpAuthor } from './support/help.js';
import { customerSites } from './support/messenger.js';
import { startAddressedServer, type TestServer } from './support/server.js';

// The web messenger's preferences and consent, the help center's collections and the rating's remark, as a
// person uses them on a customer's page in headless Chromium, each read back from the service as staff see it.
// Screenshots: test/screenshots/messenger-preferences*.png, messenger-collections.png, messenger-remark.png.

const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

let t: TestServer;
let app: StaffApp;
let browser: Browser;
const { website, close: closeSites } = customerSites(
  () => t,
  () => app,
);
const { ok: staff } = staffApi(
  () => t.url,
  () => app.owner,
);

let choosing: string;
let browsing: string;
let rating: string;
let promo: string;
beforeAll(async () => {
  t = await startAddressedServer();
  app = await staffApp(t, 'Acme');
  [choosing, browsing, rating] = await Promise.all([website('prefs-user-1'), website('prefs-user-2'), website('prefs-user-3')]);
  await updateSettings(t.ctx, app.modes.live, { webOrigins: [choosing, browsing, rating] });
  const topic =
    'mutation($m: ID!, $k: String!, $n: String!, $c: [PreferenceChannel!]!, $o: Boolean) { addPreferenceTopic(appModeId: $m, key: $k, name: $n, channels: $c, offers: $o) { id } }';
  await staff(topic, { m: app.modes.live, k: 'news', n: 'Garden news', c: ['email', 'in_app'] });
  await staff(topic, { m: app.modes.live, k: 'deals', n: 'Deals', c: ['email', 'push'], o: true });
  promo = (await staff(topic, { m: app.modes.live, k: 'promo', n: 'Spring promotion', c: ['email'] })).addPreferenceTopic.id;
  browser = await sharedBrowser();
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await releaseBrowser(browser);
  closeSites();
  await t?.close();
});

async function opened(page: Page, site: string): Promise<Locator> {
  await page.goto(site);
  await page.locator('[data-crm-messenger] button.launcher').click();
  const panel = page.locator('[data-crm-messenger] [role="dialog"]');
  await panel.getByRole('button', { name: 'Send us a message' }).waitFor();
  return panel;
}

/** The element that has the focus in the messenger's shadow root, as its text. */
const focused = (page: Page) => page.locator('[data-crm-messenger]').evaluate((host) => host.shadowRoot?.activeElement?.textContent ?? '');

describe('the web messenger’s preferences, collections and rating remark', { timeout: 60_000 }, () => {
  it('turns a topic off and consent to offers by push on, each saved as it changes, and says why a change was refused', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const panel = await opened(page, choosing);
    await panel.getByRole('button', { name: 'Your preferences' }).click();
    const news = panel.getByRole('group', { name: 'Garden news' });
    const byEmail = news.getByRole('switch', { name: 'By email' });
    expect(await byEmail.isChecked()).toBe(true);
    // An offers topic by push says it needs their consent until they give it.
    const dealsByPush = panel.getByRole('group', { name: 'Deals' }).getByRole('switch', { name: 'By push notification' });
    expect(await dealsByPush.getAttribute('aria-describedby')).toBeTruthy();

    // By keyboard: the switch takes the focus and Space turns it off.
    await byEmail.focus();
    await page.keyboard.press('Space');
    await panel.getByRole('status').getByText('Saved: Garden news (By email) is off.').waitFor();
    await panel.getByRole('switch', { name: 'Offers by push notification' }).click();
    await panel.getByRole('status').getByText('Saved: Offers by push notification is on.').waitFor();
    await expect.poll(() => dealsByPush.getAttribute('aria-describedby')).toBeNull();
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}messenger-preferences.png` });

    const seen = await staff(
      'query($m: ID!, $x: String!) { contact(appModeId: $m, externalId: $x) { consent { offersByPush } preferences { topics { topic { key } channels { channel subscribed } } } } }',
      { m: app.modes.live, x: 'prefs-user-1' },
    );
    expect(seen.contact.consent.offersByPush).toBe(true);
    const newsSeen = seen.contact.preferences.topics.find((p: { topic: { key: string } }) => p.topic.key === 'news');
    expect(newsSeen.channels).toEqual([
      { channel: 'email', subscribed: false },
      { channel: 'in_app', subscribed: true },
    ]);

    // A topic archived while the screen is open: the change is refused in the service's words and the switch goes back.
    await staff('mutation($id: ID!) { archivePreferenceTopic(id: $id) { id } }', { id: promo });
    const promoByEmail = panel.getByRole('group', { name: 'Spring promotion' }).getByRole('switch', { name: 'By email' });
    await promoByEmail.click();
    await panel.getByRole('alert').waitFor();
    expect(await panel.getByRole('alert').textContent()).not.toBe('That could not be saved.');
    await expect.poll(() => promoByEmail.isChecked()).toBe(true);

    // Back on the home, the focus is on the link the person came from.
    await panel.getByRole('button', { name: 'Back', exact: true }).click();
    await expect.poll(() => focused(page)).toBe('Your preferences');
    await page.close();

    const phone = await browser.newPage({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    const small = await opened(phone, choosing);
    await small.getByRole('button', { name: 'Your preferences' }).click();
    await small.getByRole('switch', { name: 'Offers by push notification', checked: true }).waitFor();
    expect(await small.evaluate((p) => p.scrollWidth <= 360)).toBe(true);
    expect(await seriousFindings(phone)).toEqual([]);
    await phone.screenshot({ path: `${SHOTS}messenger-preferences-phone.png` });
    await phone.close();
  });

  it('browses the help center’s collections and a section to an article, and gives the focus back on the way out', async () => {
    const author = helpAuthor(t, app);
    const shelf = await author.collection({ names: { en: 'Deliveries' } });
    const returns = await author.collection({ names: { en: 'Returns' }, parentId: shelf.id });
    await author.article({ collectionId: shelf.id, versions: { en: { title: 'When does my parcel come?' } } });
    await author.article({
      collectionId: returns.id,
      versions: { en: { title: 'Sending a parcel back', body: 'Print the label first.' } },
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const panel = await opened(page, browsing);
    await panel.getByRole('button', { name: 'Browse all collections' }).click();
    await panel.getByRole('button', { name: /^Deliveries/ }).click();
    await panel.getByRole('heading', { name: 'Returns' }).waitFor();
    expect(await panel.getByRole('list', { name: 'Deliveries' }).getByRole('button').allTextContents()).toEqual([
      'When does my parcel come?',
    ]);
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}messenger-collections.png` });
    await panel.getByRole('list', { name: 'Returns' }).getByRole('button', { name: 'Sending a parcel back' }).click();
    await panel.getByText('Print the label first.').waitFor();
    // Back: to the collection, the focus on the article read; again: to the collections, on the collection.
    await panel.getByRole('button', { name: 'Back', exact: true }).click();
    await expect.poll(() => focused(page)).toBe('Sending a parcel back');
    await panel.getByRole('button', { name: 'Back', exact: true }).click();
    await expect.poll(() => focused(page)).toMatch(/^Deliveries/);
    await page.close();
  });

  it('rates a closed conversation with a remark that staff read', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const panel = await opened(page, rating);
    await panel.getByRole('button', { name: 'Send us a message' }).click();
    await panel.getByLabel('Your message').fill('My parcel came broken');
    await page.keyboard.press('Enter');
    await panel.locator('.part.mine', { hasText: 'My parcel came broken' }).waitFor();
    const contact = await t.svc.db.contact.findFirstOrThrow({ where: { appModeId: app.modes.live, externalId: 'prefs-user-3' } });
    const { id } = await t.svc.db.conversation.findFirstOrThrow({ where: { contactId: contact.id } });
    await staff('mutation($id: ID!) { closeConversation(id: $id, askRating: true) { id } }', { id });

    await panel.getByRole('button', { name: 'Good' }).click();
    expect(await panel.getByRole('button', { name: 'Good' }).getAttribute('aria-pressed')).toBe('true');
    // The remark box takes the focus; it holds at most what the guest API takes.
    const remark = panel.getByLabel('Anything to add? (optional)');
    expect(await remark.evaluate((box) => box === (box.getRootNode() as ShadowRoot).activeElement)).toBe(true);
    expect(await remark.getAttribute('maxlength')).toBe('1000');
    await page.keyboard.type('Quick refund, thank you');
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}messenger-remark.png` });
    await panel.getByRole('button', { name: 'Send rating' }).click();
    await panel.getByText('Rated 4 of 5').waitFor();
    const seen = await staff('query($id: ID!) { conversation(id: $id) { rating ratingRemark } }', { id });
    expect(seen.conversation).toEqual({ rating: 4, ratingRemark: 'Quick refund, thank you' });
    await page.close();
  });
});
