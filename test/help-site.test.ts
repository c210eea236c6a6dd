import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateSettings } from '../src/domain/apps/settings.js';
import { staffApp, type StaffApp } from './support/factories.js';
import { contrast, inkOf, READABLE, textOn } from '../src/lib/html/index.js';
import { helpAuthor } from './support/help.js';
import { png } from './support/pictures.js';
import { startAddressedServer, type TestServer } from './support/server.js';
import { releaseBrowser, seriousFindings, sharedBrowser } from './support/browser.js';

// The public help site in a real browser (Debian's chromium, JavaScript off): search, open an
// article with its picture, vote helpful with the plain form, switch language; the pages carry
// the app's brand, lang, title, description and canonical links. Screenshots go to test/screenshots/.

const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));
const LOGO = 'https://logo.acme.example/logo.png';

let t: TestServer;
let app: StaffApp;
let browser: Browser;
let article: { id: string; slug: string };
/** An app with nothing published, in the default brand colour. */
let empty: StaffApp;

type Rgb = [number, number, number];
const inside = (x: number, y: number, [x0, y0, x1, y1]: number[]) => x >= x0! && x < x1! && y >= y0! && y < y1!;
/** A picture of a sign-in page, as a writer would paste a screenshot: a bar, a card, two fields, a button and a link. */
const signInPicture = () =>
  png(720, 300, (x, y): Rgb => {
    if (y < 40) return [15, 118, 110];
    if (inside(x, y, [235, 120, 485, 145]) || inside(x, y, [235, 160, 485, 185]))
      return inside(x, y, [237, 122, 483, 143]) || inside(x, y, [237, 162, 483, 183]) ? [248, 250, 252] : [203, 213, 225];
    if (inside(x, y, [235, 205, 485, 232])) return [15, 118, 110];
    if (inside(x, y, [300, 246, 420, 249])) return [20, 184, 166];
    if (inside(x, y, [210, 70, 510, 270])) return [255, 255, 255];
    return [241, 245, 249];
  });
/** The app's logo: a white ring on teal. */
const logo = () => png(64, 64, (x, y): Rgb => (Math.abs(Math.hypot(x - 32, y - 32) - 16) < 5 ? [255, 255, 255] : [20, 184, 166]));

beforeAll(async () => {
  // The server's own address as BASE_URL: the pictures' signed addresses must reach it.
  t = await startAddressedServer();
  app = await staffApp(t, 'Acme Cloud');
  await updateSettings(t.ctx, app.modes.live, {
    languages: ['en', 'de'],
    defaultLanguage: 'en',
    brandName: 'Acme Cloud',
    brandColor: '#0f766e',
    brandLogoUrl: LOGO,
  });
  const write = helpAuthor(t, app);

  const picture = signInPicture();
  const made = (
    await write.api.ok(
      'mutation($m: ID!, $n: Int!) { createHelpPicture(appModeId: $m, type: png, size: $n) { url uploadUrl uploadMethod uploadHeaders } }',
      { m: app.modes.live, n: picture.length },
    )
  ).createHelpPicture;
  expect(
    (await fetch(made.uploadUrl, { method: made.uploadMethod, headers: made.uploadHeaders, body: new Uint8Array(picture) })).status,
  ).toBe(204);

  const start = await write.collection({ slug: 'getting-started', names: { en: 'Getting started', de: 'Erste Schritte' } });
  const account = await write.collection({ slug: 'account', names: { en: 'Account & security', de: 'Konto & Sicherheit' } });
  const billing = await write.collection({ slug: 'billing', names: { en: 'Billing and plans', de: 'Abrechnung und Tarife' } });
  const signIn = await write.collection({ slug: 'signing-in', parentId: account.id, names: { en: 'Signing in', de: 'Anmelden' } });
  await write.article({
    collectionId: start.id,
    versions: {
      en: { title: 'Create your first project', summary: 'From sign-up to your first deploy in five minutes.' },
      de: { title: 'Ihr erstes Projekt', summary: 'In fünf Minuten zum ersten Deployment.' },
    },
  });
  await write.article({
    slug: 'invite-your-team',
    collectionId: start.id,
    versions: { en: { title: 'Invite your team', summary: 'Work together on every project.' } },
  });
  article = await write.article({
    slug: 'reset-your-password',
    collectionId: signIn.id,
    versions: {
      en: {
        title: 'Reset your password',
        summary: 'Locked out? Set a new password in a minute, from any device.',
        body: [
          {
            type: 'paragraph',
            spans: [
              { text: 'If you forgot your password, you can set a new one from the sign-in page. ' },
              { text: 'You need access to your email.', bold: true },
            ],
          },
          // The writer's first heading is a level 2: under the page's h1 it is still an h2.
          { type: 'heading', level: 2, spans: [{ text: 'Steps' }] },
          {
            type: 'numbered_list',
            items: [
              { spans: [{ text: 'Open the sign-in page and choose ' }, { text: 'Forgot password', italic: true }] },
              { spans: [{ text: 'Enter the email address of your account.' }] },
              { spans: [{ text: 'Follow the link we send you and choose a new password.' }] },
            ],
          },
          { type: 'image', imageUrl: made.url, alt: 'The sign-in page with the Forgot password link' },
          { type: 'heading', level: 3, spans: [{ text: 'If the link has expired' }] },
          { type: 'callout', spans: [{ text: 'The link works for one hour. Ask for a new one if it has expired.' }] },
          {
            type: 'paragraph',
            spans: [
              { text: 'Still stuck? ' },
              { text: 'Read our security guide', link: 'https://acme.example/security' },
              { text: ' or write to us <script>alert(1)</script>.' },
            ],
          },
          { type: 'link', label: 'Go to the sign-in page', link: 'https://acme.example/sign-in' },
        ],
      },
      de: {
        title: 'Passwort zurücksetzen',
        summary: 'Ausgesperrt? So setzen Sie ein neues Passwort.',
        body: 'Öffnen Sie die Anmeldeseite und wählen Sie „Passwort vergessen“.',
      },
    },
  });
  await write.article({
    collectionId: signIn.id,
    versions: { en: { title: 'Turn on two-factor authentication', summary: 'Protect your account with a second step.' } },
  });
  await write.article({
    collectionId: billing.id,
    versions: { en: { title: 'Change your plan', summary: 'Upgrade, downgrade or cancel at any time.' } },
  });
  await write.article({ collectionId: billing.id, versions: { en: { title: 'Download invoices', summary: 'Every invoice as a PDF.' } } });
  await write.article({ audience: 'signed_in', collectionId: billing.id, versions: { en: { title: 'Internal pricing notes' } } });

  empty = await staffApp(t, 'Quiet Co');
  await updateSettings(t.ctx, empty.modes.live, { languages: ['en', 'de'], defaultLanguage: 'en' });

  browser = await sharedBrowser();
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await releaseBrowser(browser);
  await t?.close();
});

async function newPage(opts: { axe?: boolean } = {}) {
  // JavaScript off: the site must work as links and forms. For axe, which runs as a script in the
  // page, it is on and the page's policy (no script at all) set aside: the pages have no script of
  // their own, so nothing else changes.
  const context = await browser.newContext({
    ...(opts.axe ? { bypassCSP: true } : { javaScriptEnabled: false }),
    locale: 'en-US',
    viewport: { width: 1200, height: 900 },
  });
  // The logo's host, answered here: nothing leaves the machine.
  await context.route(`${LOGO}*`, (route) => route.fulfill({ contentType: 'image/png', body: logo() }));
  return context.newPage();
}

describe('the help site in a browser', () => {
  it('searches, opens an article with its picture, votes with the plain form and switches language', async () => {
    const page = await newPage();
    await page.goto(`${t.url}/help/${app.live.app_key}`);
    expect(new URL(page.url()).pathname).toBe(`/help/${app.live.app_key}/en`);
    expect(await page.getAttribute('html', 'lang')).toBe('en');
    expect(await page.title()).toBe('Acme Cloud Help Center');
    expect(await page.locator('.brand-name').textContent()).toBe('Acme Cloud');
    expect(await page.locator('.site-header').evaluate((e) => getComputedStyle(e).backgroundColor)).toBe('rgb(15, 118, 110)');
    expect(await page.locator('img.logo').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(64);
    expect(await page.locator('.card h2').allTextContents()).toEqual(['Getting started', 'Account & security', 'Billing and plans']);
    await page.screenshot({ path: `${SHOTS}help-home.png`, fullPage: true });

    // A misspelt search still finds the article.
    await page.fill('input[name=q]', 'pasword');
    await page.click('form[role=search] button');
    expect(new URL(page.url()).pathname).toBe(`/help/${app.live.app_key}/en/search`);
    expect(await page.locator('.results a').first().textContent()).toBe('Reset your password');
    await page.screenshot({ path: `${SHOTS}help-search.png`, fullPage: true });
    await page.fill('input[name=q]', 'password');
    await page.click('form[role=search] button');
    expect(await page.locator('.results mark').first().textContent()).toMatch(/password/i);

    await page.click('.results a >> text=Reset your password');
    expect(new URL(page.url()).pathname).toBe(`/help/${app.live.app_key}/en/articles/${article.slug}`);
    expect(await page.locator('h1.page-title').textContent()).toBe('Reset your password');
    expect(await page.getAttribute('meta[name=description]', 'content')).toBe(
      'Locked out? Set a new password in a minute, from any device.',
    );
    expect(await page.getAttribute('link[rel=canonical]', 'href')).toBe(
      `${t.svc.config.baseUrl}/help/${app.live.app_key}/en/articles/${article.slug}`,
    );
    expect(await page.locator('link[rel=alternate]').evaluateAll((ls) => ls.map((l) => l.getAttribute('hreflang')))).toEqual(['en', 'de']);
    expect(await page.locator('.crumbs a').allTextContents()).toEqual(['Help Center', 'Account & security', 'Signing in']);
    // The picture came through its redirect and signed address.
    await page.waitForLoadState('load');
    expect(await page.locator('.article img').evaluate((img: HTMLImageElement) => [img.complete, img.naturalWidth])).toEqual([true, 720]);
    // What the writer typed as markup is shown as text.
    expect(await page.locator('.article').textContent()).toContain('<script>alert(1)</script>');
    expect(await page.locator('.article script').count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}help-article.png`, fullPage: true });

    await page.click('button[value=yes]');
    expect(new URL(page.url()).pathname).toBe(`/help/${app.live.app_key}/en/articles/${article.slug}`);
    expect(await page.locator('.feedback .thanks').textContent()).toBe('Thanks for letting us know!');
    expect(await page.getAttribute('button[value=yes]', 'aria-pressed')).toBe('true');
    const votes = () =>
      t.svc.db.helpVisitorRating.findMany({ where: { articleId: article.id }, select: { helpful: true, language: true } });
    expect(await votes()).toEqual([{ helpful: true, language: 'en' }]);
    // Changing one's mind changes the same vote.
    await page.click('button[value=no]');
    expect(await votes()).toEqual([{ helpful: false, language: 'en' }]);
    expect(await t.svc.db.helpArticleRating.count({ where: { articleId: article.id } })).toBe(0);

    await page.click('.languages a[hreflang=de]');
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    expect(await page.locator('h1.page-title').textContent()).toBe('Passwort zurücksetzen');
    expect(await page.locator('.feedback p').first().textContent()).toBe('War dieser Artikel hilfreich?');
    // A related article served in English says so to the browser.
    expect(await page.locator('.side li').first().getAttribute('lang')).toBe('en');
    await page.screenshot({ path: `${SHOTS}help-article-de.png`, fullPage: true });
    await page.context().close();
  });

  it('keeps articles for signed-in users off the site, answers a missing page with a page, and serves a fallback under its own canonical', async () => {
    const page = await newPage();
    await page.goto(`${t.url}/help/${app.live.app_key}/en/collections/billing`);
    expect(await page.locator('.list a').allTextContents()).not.toContain('Internal pricing notes');
    // Not translated: the German page serves the English text, says so, and names the English page canonical.
    await page.goto(`${t.url}/help/${app.live.app_key}/de/articles/invite-your-team`);
    expect(await page.getAttribute('html', 'lang')).toBe('de');
    expect(await page.getAttribute('article', 'lang')).toBe('en');
    expect(await page.locator('.meta').textContent()).toContain('English');
    expect(await page.getAttribute('link[rel=canonical]', 'href')).toMatch(/\/en\/articles\/invite-your-team$/);
    const missing = await page.goto(`${t.url}/help/${app.live.app_key}/en/articles/no-such-article`);
    expect(missing!.status()).toBe(404);
    expect(await page.locator('.error h1').textContent()).toBe('We could not find that page.');
    await page.context().close();
  });
});

/** The page's headings as levels, in document order. */
const headingLevels = (page: Page) => page.locator('h1, h2, h3, h4, h5, h6').evaluateAll((hs) => hs.map((h) => Number(h.tagName[1])));

/**
 * What a reader of any page may expect: the site named once in the title, one h1 first, no heading
 * level skipped, and no serious or critical accessibility finding.
 */
async function expectReadable(page: Page, name: string) {
  const title = await page.title();
  expect(title.split('Help Center').length - 1, `${name}: ${title}`).toBe(1);
  const levels = await headingLevels(page);
  expect(levels[0], `${name}: ${levels.join(' ')}`).toBe(1);
  expect(
    levels.filter((l) => l === 1),
    `${name}: ${levels.join(' ')}`,
  ).toHaveLength(1);
  for (const [i, level] of levels.entries())
    if (i > 0) expect(level, `${name}: ${levels.join(' ')}`).toBeLessThanOrEqual(levels[i - 1]! + 1);
  const serious = await seriousFindings(page);
  expect(serious, `${name}: ${JSON.stringify(serious, null, 2)}`).toEqual([]);
  await page.screenshot({ path: `${SHOTS}help-${name}.png`, fullPage: true });
}

describe('every page of the help site', () => {
  it('says Help Center once in its title, has its headings in order, passes axe, and says so when there is nothing to show', async () => {
    const page = await newPage({ axe: true });
    const site = `${t.url}/help/${app.live.app_key}`;
    await page.goto(`${site}/en`);
    await expectReadable(page, 'home');
    await page.goto(`${site}/en/collections/account`);
    await expectReadable(page, 'collection');
    expect(await page.title()).toBe('Account & security · Acme Cloud Help Center');
    await page.goto(`${site}/en/articles/${article.slug}`);
    await expectReadable(page, 'article');
    // The writer's levels 2 and 3 are the page's h2 and h3, under its h1.
    expect(await headingLevels(page)).toEqual([1, 2, 3, 2]);
    expect(await page.locator('.article h2').textContent()).toBe('Steps');
    expect(await page.locator('.article h3').textContent()).toBe('If the link has expired');
    await page.goto(`${site}/en/search?q=password`);
    await expectReadable(page, 'search-results');
    // An excerpt says "…" where the body goes on, and only there; its list items stay apart.
    const excerpt = async (q: string, title: string) => {
      await page.goto(`${site}/en/search?q=${q}`);
      return page
        .locator('.results li', { has: page.locator(`a:text-is("${title}")`) })
        .locator('p')
        .textContent();
    };
    const fromTheStart = await excerpt('password', 'Reset your password');
    expect(fromTheStart).toMatch(/^If you forgot your password, .+…$/);
    const fromTheMiddle = await excerpt('email', 'Reset your password');
    expect(fromTheMiddle).toMatch(/^….+…$/);
    expect(fromTheMiddle).toContain('choose Forgot password · Enter the email address');
    expect(await excerpt('plan', 'Change your plan')).toBe('Change your plan');

    // A search that finds nothing says so and leads back.
    await page.goto(`${site}/en/search?q=zeppelin`);
    await expectReadable(page, 'search-empty');
    expect(await page.locator('.empty p').first().textContent()).toBe('No articles found. Try other words.');
    expect(await page.getAttribute('.empty a', 'href')).toBe(`/help/${app.live.app_key}/en`);

    // Nothing published yet: the home page says so, in the reader's language, without a search box that can find nothing.
    await page.goto(`${t.url}/help/${empty.live.app_key}/en`);
    await expectReadable(page, 'home-empty');
    expect(await page.locator('.empty-state h2').textContent()).toBe('No articles yet');
    expect(await page.locator('form[role=search]').count()).toBe(0);
    await page.goto(`${t.url}/help/${empty.live.app_key}/de`);
    expect(await page.locator('.empty-state h2').textContent()).toBe('Noch keine Artikel');

    const missing = await page.goto(`${site}/en/articles/no-such-article`);
    expect(missing!.status()).toBe(404);
    await expectReadable(page, 'not-found');
    // An app this service does not know: a plain page, still naming the Help Center once.
    expect((await page.goto(`${t.url}/help/app_unknown/en`))!.status()).toBe(404);
    await expectReadable(page, 'not-found-unknown-app');
    expect(await page.locator('.brand').textContent()).toBe('HHelp Center');
    expect(await page.locator('.site-name').count()).toBe(0);
    await page.context().close();
  });
});

/**
 * The contrast of an element's text with what is behind it, as drawn: its colour and its own
 * background over those of its ancestors, its opacity over what is behind it.
 */
const drawnContrast = (page: Page, selector: string) =>
  page.locator(selector).evaluate((el) => {
    const parse = (c: string) => (c.match(/[\d.]+/g) ?? []).map(Number) as [number, number, number, number?];
    const over = (top: number[], alpha: number, under: number[]) => under.map((u, i) => top[i]! * alpha + u * (1 - alpha));
    const chain: Element[] = [];
    for (let e: Element | null = el; e; e = e.parentElement) chain.unshift(e);
    let behind = [255, 255, 255];
    let text = behind;
    for (const e of chain) {
      const style = getComputedStyle(e);
      const [r, g, b, a = 1] = parse(style.backgroundColor);
      const opacity = Number(style.opacity);
      const own = over([r, g, b], a, behind);
      if (e === el) {
        const [tr, tg, tb, ta = 1] = parse(style.color);
        text = over(over([tr, tg, tb], ta, own), opacity, behind);
      }
      behind = over(own, opacity, behind);
    }
    const lum = (c: number[]) =>
      c
        .map((v) => ((v /= 255) <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
        .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i]!, 0);
    const [hi, lo] = [lum(text), lum(behind)].sort((x, y) => y - x);
    return (hi! + 0.05) / (lo! + 0.05);
  });

describe('the brand colour', () => {
  it('gives text that reads on it and links that read on white, whatever the colour', () => {
    for (let n = 0; n < 4096; n++) {
      const color = `#${[8, 4, 0].map((shift) => ((n >> shift) & 15).toString(16).repeat(2)).join('')}`;
      expect(contrast(textOn(color), color), color).toBeGreaterThanOrEqual(READABLE);
      for (const bg of ['#ffffff', '#f6f7f9', '#f3f6ff']) expect(contrast(inkOf(color), bg), color).toBeGreaterThanOrEqual(READABLE);
    }
    // A brand that reads on white is kept as it is.
    expect(inkOf('#0f766e')).toBe('#0f766e');
  });

  it('leaves the language switcher readable, the current language too (at the default brand colour and the app’s own)', async () => {
    const page = await newPage();
    for (const key of [empty.live.app_key, app.live.app_key]) {
      await page.goto(`${t.url}/help/${key}/en`);
      expect(await drawnContrast(page, '.languages a[aria-current]')).toBeGreaterThanOrEqual(READABLE);
      expect(await drawnContrast(page, '.languages a:not([aria-current])')).toBeGreaterThanOrEqual(READABLE);
      expect(await drawnContrast(page, '.site-name')).toBeGreaterThanOrEqual(READABLE);
    }
    await page.context().close();
  });
});

describe('the help site over HTTP', () => {
  it('escapes by construction, sets a strict policy, and is 404 while the help center is off', async () => {
    const home = await fetch(`${t.url}/help/${app.live.app_key}/en`);
    expect(home.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = home.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('script-src');
    const text = await home.text();
    expect(text).not.toMatch(/<script/i);
    expect(text).not.toMatch(/https?:\/\/(?!127\.0\.0\.1|logo\.acme\.example)[^"'\s]+/);
    const search = await (
      await fetch(`${t.url}/help/${app.live.app_key}/en/search?q=${encodeURIComponent('"><img src=x onerror=alert(1)>')}`)
    ).text();
    expect(search).toContain('&quot;&gt;&lt;img src=x onerror=alert(1)&gt;');
    expect(search).not.toContain('<img src=x');
    // Another spelling of a language the app has is sent to its own address.
    const moved = await fetch(`${t.url}/help/${app.live.app_key}/de-AT/articles/${article.slug}`, { redirect: 'manual' });
    expect(moved.status).toBe(302);
    expect(moved.headers.get('location')).toBe(`/help/${app.live.app_key}/de/articles/${article.slug}`);
    const notALanguage = await fetch(`${t.url}/help/${app.live.app_key}/help/search?q=x`, { redirect: 'manual' });
    expect(notALanguage.headers.get('location')).toBe(`/help/${app.live.app_key}/en/search?q=x`);
    expect((await fetch(`${t.url}/help/app_unknown/en`)).status).toBe(404);
    await updateSettings(t.ctx, app.modes.live, { helpOn: false });
    const off = await fetch(`${t.url}/help/${app.live.app_key}/en`);
    expect(off.status).toBe(404);
    expect(off.headers.get('content-type')).toBe('text/html; charset=utf-8');
    await updateSettings(t.ctx, app.modes.live, { helpOn: true });
  });
});
