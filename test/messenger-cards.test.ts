import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateSettings } from '../src/domain/apps/settings.js';
import { releaseBrowser, seriousFindings, sharedBrowser } from './support/browser.js';
import { staffApp, type StaffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { helpAuthor } from './support/help.js';
import { customerSites } from './support/messenger.js';
import { startAddressedServer, type TestServer } from './support/server.js';

// The messenger home's cards, as staff publish them, on a customer's page in headless Chromium: in
// their order, unpublished ones left out; a message card starts a conversation, an article card
// opens the article, a link card opens its address (a path: of the site itself) in a new tab.
// Screenshot: test/screenshots/messenger-cards.png.

const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

let t: TestServer;
let app: StaffApp;
let browser: Browser;
let site: string;
const { website, close: closeSites } = customerSites(
  () => t,
  () => app,
);

beforeAll(async () => {
  t = await startAddressedServer();
  app = await staffApp(t, 'Acme');
  site = await website('cards-user-1');
  await updateSettings(t.ctx, app.modes.live, { webOrigins: [site], helpOn: true });
  const { slug } = await helpAuthor(t, app).article({
    slug: 'sizes',
    versions: { en: { title: 'Finding your size', body: 'Measure twice.' } },
  });
  await staffApi(
    () => t.url,
    () => app.owner,
  ).ok('mutation($m: ID!, $i: MessengerSettingsInput!) { changeMessengerSettings(appModeId: $m, input: $i) { appModeId } }', {
    m: app.modes.live,
    i: {
      cards: [
        { kind: 'message', title: 'Ask about an order', text: 'We answer within the hour', published: true },
        { kind: 'article', title: 'Which size am I?', articleSlug: slug, published: true },
        { kind: 'link', title: 'Track your parcel', link: '/tracking', published: true },
        { kind: 'link', title: 'Not yet', link: 'https://example.com/later', published: false },
      ],
    },
  });
  browser = await sharedBrowser();
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await releaseBrowser(browser);
  closeSites();
  await t?.close();
});

describe('the home’s cards', { timeout: 60_000 }, () => {
  it('shows the published cards in order, and each leads where its kind says', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(site);
    await page.locator('[data-crm-messenger] button.launcher').click();
    const panel = page.locator('[data-crm-messenger] [role="dialog"]');
    const cards = panel.locator('.home-cards button');
    await cards.first().waitFor();
    expect(await cards.locator('.home-card-title').allTextContents()).toEqual([
      'Ask about an order',
      'Which size am I?',
      'Track your parcel',
    ]);
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}messenger-cards.png` });

    const [tab] = await Promise.all([page.waitForEvent('popup'), cards.nth(2).click()]);
    expect(tab.url()).toBe(`${site}/tracking`);
    await tab.close();

    await cards.nth(1).click();
    await panel.getByRole('heading', { name: 'Finding your size' }).waitFor();
    await panel.getByRole('button', { name: /back/i }).first().click();
    await cards.first().click();
    await panel.getByLabel('Your message').waitFor();
    await page.close();
  });
});
