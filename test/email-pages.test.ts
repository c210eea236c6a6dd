import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { releaseBrowser, seriousFindings, sharedBrowser } from './support/browser.js';
import { personWithEmail } from './support/email.js';
import { staffApp, type StaffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { call } from './support/http.js';
import { startAddressedServer, type TestServer } from './support/server.js';

// The unsubscribe page and the preference centre in headless Chromium, as a person reaches them
// from an email: the unsubscribe link asks first and leaves only the email's topic by email; the
// preference centre saves every box as a choice; both in the app's brand and the person's
// language, without JavaScript, axe-core clean. Screenshots: test/screenshots/email-*.png.

const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

let t: TestServer;
let app: StaffApp;
let browser: Browser;
const topics: Record<string, string> = {};
beforeAll(async () => {
  t = await startAddressedServer();
  app = await staffApp(t, 'Garden Shop');
  const api = staffApi(
    () => t.url,
    () => app.owner,
  );
  await api.ok('mutation($m: ID!) { updateAppSettings(appModeId: $m, input: { brandColor: "#1f7a4d" }) { id } }', { m: app.modes.live });
  for (const [key, name, channels, description] of [
    ['news', 'Garden news', ['email', 'in_app'], 'What is new in the shop, once a month'],
    ['tips', 'Planting tips', ['email', 'push'], ''],
  ] as const) {
    t.clock.advance(1000);
    const made = await api.ok(
      'mutation($m: ID!, $k: String!, $n: String!, $c: [PreferenceChannel!]!, $d: String) { addPreferenceTopic(appModeId: $m, key: $k, name: $n, channels: $c, description: $d) { id } }',
      { m: app.modes.live, k: key, n: name, c: channels, d: description },
    );
    topics[key] = made.addPreferenceTopic.id;
  }
  browser = await sharedBrowser();
  mkdirSync(SHOTS, { recursive: true });
}, 60_000);
afterAll(async () => {
  await releaseBrowser(browser);
  await t?.close();
});

const choices = async (token: string) => {
  const r = await call(t.url, 'GET', `/public/v1/preferences/${token}`);
  return Object.fromEntries(r.json.topics.flatMap((x: any) => x.channels.map((c: any) => [`${x.topic}|${c.channel}`, c.subscribed])));
};

describe('the pages an email leads to', { timeout: 60_000 }, () => {
  it('asks before unsubscribing, leaves the email’s topic by email only, and leads to the preference centre', async () => {
    const { sent } = await personWithEmail(t, app, { topicId: topics.news! });
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, javaScriptEnabled: false });
    await page.goto(`${t.url}/public/v1/email/unsubscribe/${sent.token('unsubscribe')}`);
    expect(new URL(page.url()).pathname).toBe(`/unsubscribe/${sent.token('unsubscribe')}`);
    await page.getByRole('heading', { name: 'Unsubscribe from Garden news?' }).waitFor();
    await page.getByText('You get emails about Garden news at a•••@example.com.').waitFor();
    expect(await choices(sent.token('preferences'))).toMatchObject({ 'news|email': true });
    await page.screenshot({ path: `${SHOTS}email-unsubscribe.png` });

    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await page.getByRole('heading', { name: 'You have unsubscribed from Garden news.' }).waitFor();
    expect(await choices(sent.token('preferences'))).toEqual({
      'news|email': false,
      'news|in_app': true,
      'tips|email': true,
      'tips|push': true,
    });
    await page.screenshot({ path: `${SHOTS}email-unsubscribed.png` });

    await page.getByRole('link', { name: 'Manage all your email preferences' }).click();
    await page.getByRole('heading', { name: 'Your preferences' }).waitFor();
    await page.close();
  });

  it('saves the preference centre’s boxes, each a choice, and says so; accessible at desktop and phone width', async () => {
    const { sent } = await personWithEmail(t, app, { topicId: topics.tips! });
    // JavaScript on for axe-core alone: the page has none (its policy allows none).
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${t.url}/preferences/${sent.token('preferences')}`);
    const news = page.getByRole('group', { name: 'Garden news' });
    await news.getByLabel('By email').uncheck();
    await page.getByRole('group', { name: 'Planting tips' }).getByLabel('By push notification').uncheck();
    await page.getByRole('button', { name: 'Save my preferences' }).click();
    await page.getByRole('status').getByText('Your preferences are saved.').waitFor();
    expect(await choices(sent.token('preferences'))).toEqual({
      'news|email': false,
      'news|in_app': true,
      'tips|email': true,
      'tips|push': false,
    });
    expect(await news.getByLabel('By email').isChecked()).toBe(false);
    // The page's own form: the words shown are kept with the change.
    const change = await t.svc.db.preferenceChange.findFirstOrThrow({ where: { topicKey: 'tips', channel: 'push', source: 'email' } });
    expect(change.wording).toBe('Your preferences: Choose what we send to a•••@example.com, and how.');
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}email-preferences.png`, fullPage: true });
    await page.setViewportSize({ width: 360, height: 800 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}email-preferences-phone.png`, fullPage: true });
    await page.close();
  });

  it('speaks the person’s language, and shows a link that opens nothing as a 404 page', async () => {
    const { sent } = await personWithEmail(t, app, { topicId: topics.news!, language: 'de' });
    const page = await browser.newPage();
    await page.goto(`${t.url}/unsubscribe/${sent.token('unsubscribe')}`);
    await page.getByRole('heading', { name: 'Von Garden news abmelden?' }).waitFor();
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    expect(await seriousFindings(page)).toEqual([]);
    const gone = await page.goto(`${t.url}/preferences/${sent.token('unsubscribe')}`);
    expect(gone!.status()).toBe(404);
    await page.getByRole('heading', { name: 'This link does not work' }).waitFor();
    await page.close();
  });
});
