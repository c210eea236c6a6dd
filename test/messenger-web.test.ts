import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateSettings } from '../src/domain/apps/settings.js';
import { billingBot, botOf } from './support/bot.js';
import { releaseBrowser, seriousFindings, sharedBrowser } from './support/browser.js';
import { staffApp, type StaffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { helpAuthor } from './support/help.js';
import { inAppStaff } from './support/inapp.js';
import { customerSites } from './support/messenger.js';
import { png } from './support/pictures.js';
import { startAddressedServer, type TestServer } from './support/server.js';

// The web messenger as a customer's website loads it: one script tag and Messenger.boot, on a page
// served from an origin the app allows (and one it does not, which gets nothing), against the running
// service, in headless Chromium. Screenshots: test/screenshots/messenger-*.png.

const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

let t: TestServer;
let app: StaffApp;
let browser: Browser;
const {
  website,
  tokensGiven,
  close: closeSites,
} = customerSites(
  () => t,
  () => app,
);

const { ok: staff } = staffApi(
  () => t.url,
  () => app.owner,
);

let allowed: string;
let other: string;
let withBot: string;
let travelling: string;
let touring: string;
let inFrench: string;
beforeAll(async () => {
  t = await startAddressedServer();
  app = await staffApp(t, 'Acme');
  allowed = await website('web-user-1');
  other = await website('web-user-2');
  withBot = await website('web-user-3');
  travelling = await website('web-user-4');
  touring = await website('web-user-5');
  inFrench = await website('web-user-6', ", language: 'fr-FR'");
  await updateSettings(t.ctx, app.modes.live, { webOrigins: [allowed, withBot, travelling, touring, inFrench] });
  browser = await sharedBrowser();
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await releaseBrowser(browser);
  closeSites();
  await t?.close();
});

/** The latest conversation of a website's user. */
async function conversationOf(externalId: string) {
  const contact = await t.svc.db.contact.findFirstOrThrow({ where: { appModeId: app.modes.live, externalId } });
  return t.svc.db.conversation.findFirstOrThrow({ where: { contactId: contact.id }, orderBy: { lastSeq: 'desc' } });
}

/** The paths a page asked the service for. */
function serviceRequests(page: Page): string[] {
  const paths: string[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith(t.url)) paths.push(`${r.method()} ${new URL(r.url()).pathname}`);
  });
  return paths;
}

const launcher = (page: Page) => page.locator('[data-crm-messenger] button.launcher');

describe('the web messenger on a customer’s page', { timeout: 60_000 }, () => {
  it('loads closed with only the check-in and the app’s details, opens, starts a conversation and gets a staff reply live', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const asked = serviceRequests(page);
    await page.goto(allowed);
    await launcher(page).waitFor();
    await expect.poll(() => asked.includes('POST /guest/v1/checkin')).toBe(true);
    // Closed: the first script, the app's details and the check-in; the screens are not loaded.
    expect(new Set(asked)).toEqual(new Set(['GET /messenger.js', `GET /public/v1/apps/${app.live.app_key}`, 'POST /guest/v1/checkin']));

    await launcher(page).click();
    const panel = page.locator('[data-crm-messenger] [role="dialog"]');
    await panel.getByRole('button', { name: 'Send us a message' }).waitFor();
    expect(asked.some((p) => /^GET \/messenger\/assets\/screens-[A-Z0-9]+\.js$/.test(p))).toBe(true);
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}messenger-home.png` });

    await panel.getByRole('button', { name: 'Send us a message' }).click();
    await panel.getByLabel('Your message').fill('Where is my parcel?');
    await page.keyboard.press('Enter');
    await panel.locator('.part.mine', { hasText: 'Where is my parcel?' }).waitFor();
    const conversation = await conversationOf('web-user-1');
    await staff('mutation($id: ID!) { replyToConversation(id: $id, text: "It left our shop this morning.") { seq } }', {
      id: conversation.id,
    });
    await panel.locator('.part:not(.mine)', { hasText: 'It left our shop this morning.' }).waitFor({ timeout: 5_000 });
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}messenger-conversation.png` });

    // Escape closes it and gives the focus back to the launcher.
    await page.keyboard.press('Escape');
    await expect.poll(() => panel.isVisible()).toBe(false);
    expect(await launcher(page).evaluate((b) => (b.getRootNode() as ShadowRoot).activeElement === b)).toBe(true);

    // Every request carried the SDK's name and the messenger's.
    await page.close();
  });

  it('answers the help bot from its opening, sends a picture, and rates the conversation the team closed', async () => {
    await botOf(
      () => t,
      () => app,
    ).saved(billingBot());
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(withBot);
    await launcher(page).click();
    const panel = page.locator('[data-crm-messenger] [role="dialog"]');
    await panel.getByText('Hi! How can we help?').waitFor();
    await panel.getByRole('button', { name: 'Billing' }).click();
    await panel.getByText('Is it about an invoice or a refund?').waitFor();
    await panel.getByRole('button', { name: 'An invoice' }).click();
    await panel.getByText('What email is the invoice sent to?').waitFor();
    await panel.getByLabel('Your answer').fill('ada@example.com');
    await page.keyboard.press('Enter');
    await panel.getByText('And the order number?').waitFor();
    await panel.getByLabel('Your answer').fill('42');
    await page.keyboard.press('Enter');
    await panel.getByText('Passing you to our billing people.').waitFor();

    await panel.locator('input[type="file"]').setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: png(40, 30) });
    await panel.locator('.chosen li.ready').waitFor();
    await panel.getByLabel('Your message').fill('Here is the receipt');
    await page.keyboard.press('Enter');
    await panel.locator('.part.mine', { hasText: 'Here is the receipt' }).locator('img').waitFor();
    expect(await panel.locator('.chosen li').count()).toBe(0);

    const conversation = await conversationOf('web-user-3');
    await staff('mutation($id: ID!) { closeConversation(id: $id, askRating: true) { id } }', { id: conversation.id });
    await panel.getByRole('button', { name: 'Great' }).click();
    await panel.getByRole('button', { name: 'Send rating' }).click();
    await panel.getByText('Rated 5 of 5').waitFor();
    await expect.poll(() => panel.getByRole('button', { name: 'Great' }).count()).toBe(0);
    expect((await t.svc.db.conversation.findUniqueOrThrow({ where: { id: conversation.id } })).rating).toBe(5);
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}messenger-bot-picture-rating.png` });
    await page.close();
  });

  it('sends a message typed offline once when the page is back online, and renews an expired token on its own', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(travelling);
    await launcher(page).click();
    const panel = page.locator('[data-crm-messenger] [role="dialog"]');
    await panel.getByRole('button', { name: 'Send us a message' }).click();
    await panel.getByLabel('Your message').fill('Hello from the train');
    await page.keyboard.press('Enter');
    await panel.locator('.part.mine', { hasText: 'Hello from the train' }).waitFor();
    expect(tokensGiven.get('web-user-4')).toBe(1);

    await page.context().setOffline(true);
    await panel.getByLabel('Your message').fill('Typed in the tunnel');
    await page.keyboard.press('Enter');
    await panel.getByText('Waiting for the connection').waitFor();
    // Meanwhile the token's hour is over, on the service's clock.
    t.clock.advance(2 * 3_600_000);
    await page.context().setOffline(false);
    await panel.locator('.part.mine', { hasText: 'Typed in the tunnel' }).waitFor({ timeout: 15_000 });
    const conversation = await conversationOf('web-user-4');
    expect(await t.svc.db.conversationPart.count({ where: { conversationId: conversation.id, text: 'Typed in the tunnel' } })).toBe(1);
    // Refused as expired once, the token was fetched again from the website's route.
    expect(tokensGiven.get('web-user-4')).toBe(2);
    await page.close();
  });

  it('finds a help article as the person types, shows its blocks and takes their vote', async () => {
    const author = helpAuthor(t, app);
    const { slug } = await author.article({
      versions: {
        en: {
          title: 'Returning a parcel',
          body: [
            { type: 'heading', level: 1, spans: [{ text: 'Before you send it' }] },
            { type: 'paragraph', spans: [{ text: 'Pack the parcel in its ' }, { text: 'original box', bold: true }, { text: '.' }] },
            { type: 'list', items: [{ spans: [{ text: 'Print the label' }] }, { spans: [{ text: 'Drop it at a post office' }] }] },
            { type: 'callout', spans: [{ text: 'Refunds take five working days.' }] },
          ],
        },
      },
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(allowed);
    await launcher(page).click();
    const panel = page.locator('[data-crm-messenger] [role="dialog"]');
    await panel.getByLabel('Search for help').fill('return parcel');
    await panel.getByRole('list', { name: 'Articles found' }).getByRole('button', { name: 'Returning a parcel' }).click();
    await panel.getByRole('heading', { name: 'Before you send it' }).waitFor();
    expect(await panel.locator('.article strong').textContent()).toBe('original box');
    expect(await panel.locator('.article li').allTextContents()).toEqual(['Print the label', 'Drop it at a post office']);
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}messenger-article.png` });
    await panel.getByRole('button', { name: 'Yes' }).click();
    await panel.getByText('Thanks for telling us.').waitFor();
    const article = await t.svc.db.helpArticle.findFirstOrThrow({ where: { slug } });
    expect(await t.svc.db.helpArticleRating.count({ where: { articleId: article.id, helpful: true } })).toBe(1);
    await page.close();
  });

  it('shows the person’s notices, newest first, and reads them', async () => {
    for (const title of ['Your order shipped', 'Your parcel arrives today']) {
      t.clock.advance(1000);
      await staff('mutation($m: ID!, $x: String!, $t: String!) { postNotice(appModeId: $m, externalId: $x, title: $t) { id } }', {
        m: app.modes.live,
        x: 'web-user-1',
        t: title,
      });
    }
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(allowed);
    await launcher(page).click();
    const panel = page.locator('[data-crm-messenger] [role="dialog"]');
    await panel.getByText('2 unread').waitFor();
    await panel.getByRole('button', { name: 'Notices' }).click();
    const titles = panel.locator('.notices strong');
    await expect.poll(() => titles.allTextContents()).toEqual(['Your parcel arrives today', 'Your order shipped']);
    const contact = await t.svc.db.contact.findFirstOrThrow({ where: { appModeId: app.modes.live, externalId: 'web-user-1' } });
    await expect.poll(() => t.svc.db.notice.count({ where: { contactId: contact.id, readAt: null } })).toBe(0);
    expect(await seriousFindings(page)).toEqual([]);
    await page.close();
  });

  it('serves the SDK alone as a module a website imports to draw its own UI', async () => {
    const page = await browser.newPage();
    await page.goto(allowed);
    // As the website's own script (a string: the test's transform would rewrite an import() in a function).
    const id: string = await page.evaluate(`(async () => {
      const { createClient } = await import('${t.url}/sdk.js');
      const crm = createClient({ baseUrl: '${t.url}', appKey: '${app.live.app_key}', token: () => fetch('/my-token').then((r) => r.text()) });
      const started = await crm.startConversation({ text: 'Written in our own UI' });
      await crm.close();
      return started.id;
    })()`);
    const part = await t.svc.db.conversationPart.findFirstOrThrow({ where: { conversationId: id, text: 'Written in our own UI' } });
    expect(part.authorKind).toBe('contact');
    await page.close();
  });

  it('speaks the person’s language', async () => {
    const page = await browser.newPage();
    await page.goto(inFrench);
    await page.getByRole('button', { name: 'Ouvrir les messages' }).click();
    const panel = page.locator('[data-crm-messenger] [role="dialog"]');
    await panel.getByRole('button', { name: 'Écrivez-nous' }).click();
    await panel.getByLabel('Votre message').waitFor();
    expect(await panel.getAttribute('lang')).toBe('fr');
    expect(await panel.getAttribute('aria-label')).toBe('Messages de Acme');
    expect(await launcher(page).getAttribute('aria-label')).toBe('Fermer les messages');
    await page.close();
  });

  it('fits a phone 360 px wide', async () => {
    const page = await browser.newPage({ viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true });
    await page.goto(allowed);
    await launcher(page).click();
    const panel = page.locator('[data-crm-messenger] [role="dialog"]');
    await panel.getByRole('button', { name: 'Send us a message' }).waitFor();
    const box = await panel.boundingBox();
    expect(box).toMatchObject({ x: 0, y: 0, width: 360 });
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}messenger-phone.png` });
    await page.close();
  });

  it('gives a page on an origin the app does not allow nothing: no launcher, no guest request', async () => {
    const page = await browser.newPage();
    const asked = serviceRequests(page);
    await page.goto(other);
    await expect.poll(() => asked.includes(`GET /public/v1/apps/${app.live.app_key}`)).toBe(true);
    await page.waitForTimeout(300);
    expect(await page.locator('[data-crm-messenger]').count()).toBe(0);
    expect(asked.filter((p) => p.includes('/guest/v1/'))).toEqual([]);
    await page.close();
  });

  // Last: the live messages it makes would show on every page of the app after it.
  it('shows a banner and a post from the check-in, each receipt sent once, and draws neither again', async () => {
    const inApp = inAppStaff(
      () => t,
      () => app.owner,
    );
    const shownBanner = await inApp.live(app.modes.live, 'banner', {
      content: { blocks: [{ type: 'paragraph', spans: [{ text: 'Free delivery all week.' }] }], link: 'https://shop.example/delivery' },
    });
    const shownPost = await inApp.live(app.modes.live, 'post', {
      content: {
        blocks: [
          { type: 'heading', level: 1, spans: [{ text: 'Our spring catalogue' }] },
          { type: 'paragraph', spans: [{ text: 'Two hundred new plants.' }] },
        ],
        buttons: [
          { id: 'later', label: 'Maybe later' },
          { id: 'look', label: 'Have a look', link: 'https://shop.example/spring' },
        ],
      },
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const asked = serviceRequests(page);
    const receipts: { message_id: string; action: string }[] = [];
    page.on('request', (r) => r.method() === 'POST' && r.url().endsWith('/guest/v1/receipts') && receipts.push(r.postDataJSON()));
    await page.goto(travelling);
    const post = page.locator('[data-crm-messenger] [role="dialog"][aria-label^="Message from"]');
    await post.getByRole('heading', { name: 'Our spring catalogue' }).waitFor();
    const bannerRegion = page.locator('[data-crm-messenger] [role="region"]');
    await bannerRegion.getByText('Free delivery all week.').waitFor();
    expect(asked.filter((p) => /^GET \/messenger\/assets\/inapp-/.test(p))).toHaveLength(1);
    expect(asked.some((p) => /screens-/.test(p))).toBe(false);
    // The focus is in the post, and stays there.
    expect(await post.evaluate((d) => d.contains((d.getRootNode() as ShadowRoot).activeElement))).toBe(true);
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}messenger-inapp.png` });

    await post.getByRole('button', { name: 'Maybe later' }).click();
    await expect.poll(() => post.count()).toBe(0);
    await bannerRegion.getByRole('button', { name: 'Dismiss the announcement' }).click();
    await expect.poll(() => bannerRegion.count()).toBe(0);
    // Another check-in answering them again (a visit to another screen of the page) draws nothing again.
    await page.evaluate(() => (window as unknown as { Messenger: { checkin(): void } }).Messenger.checkin());
    await page.waitForTimeout(300);
    expect(await post.count()).toBe(0);

    const of = (id: string) => receipts.filter((r) => r.message_id === id).map((r) => r.action);
    await expect.poll(() => of(shownPost.id).length).toBe(2);
    expect(of(shownPost.id)).toEqual(['seen', 'clicked']);
    await expect.poll(() => of(shownBanner.id).length).toBe(2);
    expect(of(shownBanner.id)).toEqual(['seen', 'dismissed']);
    const stats = (id: string) =>
      staff('query($id: ID!) { inAppMessage(id: $id) { stats { variants { variant seen clicked dismissed } } } }', { id }).then((d) =>
        d.inAppMessage.stats.variants.filter((v: { seen: number }) => v.seen > 0),
      );
    // A receipt the page has sent may still be on its way into the service: read until it is counted.
    await expect.poll(() => stats(shownPost.id)).toEqual([{ variant: expect.any(String), seen: 1, clicked: 1, dismissed: 0 }]);
    await expect.poll(() => stats(shownBanner.id)).toEqual([{ variant: expect.any(String), seen: 1, clicked: 0, dismissed: 1 }]);
    await page.close();
    await inApp.state(shownPost.id, 'ended');
    await inApp.state(shownBanner.id, 'ended');
  });

  it('steps through a carousel by its choice and its button’s branch to the end, each receipt sent once', async () => {
    const inApp = inAppStaff(
      () => t,
      () => app.owner,
    );
    const para = (text: string) => [{ type: 'paragraph', spans: [{ text }] }];
    const shown = await inApp.live(app.modes.live, 'carousel', {
      content: {
        screens: [
          {
            id: 'welcome',
            blocks: para('Where do you grow things?'),
            choice: {
              options: [
                { id: 'garden', label: 'In my garden', next: 'tips' },
                { id: 'balcony', label: 'On my balcony', next: 'pots' },
              ],
            },
          },
          {
            id: 'pots',
            blocks: para('Pots for small spaces'),
            buttons: [{ id: 'more', label: 'Show me', do: 'link', link: 'https://shop.example/pots', screen: 'end' }],
          },
          { id: 'tips', blocks: para('Tips for gardens') },
        ],
      },
    });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const receipts: { message_id: string; action: string; screen?: string; answers?: string[]; path?: string[] }[] = [];
    page.on('request', (r) => r.method() === 'POST' && r.url().endsWith('/guest/v1/receipts') && receipts.push(r.postDataJSON()));
    await page.goto(touring);
    const carousel = page.locator('[data-crm-messenger] [role="dialog"][aria-label^="Message from"]');
    await carousel.getByText('Where do you grow things?').waitFor();
    expect(await carousel.getByRole('img', { name: 'Screen 1 of 3' }).count()).toBe(1);
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}messenger-carousel.png` });
    await carousel.getByRole('button', { name: 'On my balcony' }).click();
    await carousel.getByText('Pots for small spaces').waitFor();
    const popup = page.waitForEvent('popup');
    await carousel.getByRole('button', { name: 'Show me' }).click();
    await (await popup).close();
    await expect.poll(() => carousel.count()).toBe(0);
    await expect.poll(() => receipts.length).toBe(4);
    expect(receipts.map(({ action, screen, answers, path }) => ({ action, screen, answers, path }))).toEqual([
      { action: 'seen', screen: 'welcome', answers: undefined, path: undefined },
      { action: 'answered', screen: 'welcome', answers: ['balcony'], path: ['welcome'] },
      { action: 'clicked', screen: 'pots', answers: undefined, path: ['welcome', 'pots'] },
      { action: 'completed', screen: 'pots', answers: undefined, path: ['welcome', 'pots'] },
    ]);
    // The last receipt the page sent may still be on its way into the service: read until it is counted.
    const stats = () =>
      staff('query($id: ID!) { inAppMessage(id: $id) { stats { variants { seen clicked completed } } } }', { id: shown.id }).then((d) =>
        d.inAppMessage.stats.variants.filter((v: { seen: number }) => v.seen),
      );
    await expect.poll(stats).toEqual([{ seen: 1, clicked: 1, completed: 1 }]);
    await page.close();
  });
});
