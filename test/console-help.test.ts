import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marksOf, parseMarks, toBlocks, toEdit } from '../console/src/screens/help-content.js';
import { staffApp, type StaffApp } from './support/factories.js';
import { releaseBrowser, seriousFindings, sharedBrowser } from './support/browser.js';
import { png } from './support/pictures.js';
import { startAddressedServer, type TestServer } from './support/server.js';
import { runCommand, signedInConsole } from './support/console.js';
import { staffApi } from './support/graphql.js';

// The console's help center: collections made, reordered, renamed and removed; an article written
// by keyboard with several kinds of block and a picture, its draft saved as typing pauses and kept
// across a reload, previewed as the site shows it, published and read on the public help site,
// given a new address, changed again (published with unpublished changes), a second language
// begun, whose refused draft (no title) is kept across a reload until it can be saved; axe-core on
// the list and the editor. Screenshots: test/screenshots/console-help-*.png.

const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

let t: TestServer;
let app: StaffApp;
let browser: Browser;
const errors: string[] = [];

/** A staff GraphQL operation that must succeed, as the owner (or the member of `token`); its data. */
const { ok: staff } = staffApi(
  () => t.url,
  () => app.owner,
);

beforeAll(async () => {
  t = await startAddressedServer();
  app = await staffApp(t, 'Acme Docs');
  await staff('mutation($m: ID!, $i: AppSettingsInput!) { updateAppSettings(appModeId: $m, input: $i) { id } }', {
    m: app.modes.live,
    i: { languages: ['en', 'de'], brandColor: '#0f766e' },
  });
  browser = await sharedBrowser();
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await releaseBrowser(browser);
  await t?.close();
});

const open = (): Promise<Page> =>
  signedInConsole(browser, { url: t.url, token: app.owner, errors, viewport: { width: 1440, height: 900 } });

/** Disabled once the service has what is typed. */
const saveButton = (page: Page) => page.getByRole('button', { name: 'Save draft' });

describe('the help center in the console', { timeout: 90_000 }, () => {
  it('makes collections, writes an article by keyboard, keeps its draft, previews and publishes it to the public site', async () => {
    const page = await open();
    await page.goto(`${t.url}/console/inbox/open`);
    await page.getByRole('link', { name: 'Help center' }).waitFor();
    await runCommand(page, 'help center');
    await page.waitForURL(/\/console\/help$/);

    // Collections: two made, the second moved up, renamed; a third made and removed.
    const collections = page.locator('.help-collections .help-list > li > a');
    for (const name of ['Getting started', 'Billing', 'Old notes']) {
      await page.getByLabel('New collection', { exact: true }).fill(name);
      await page.keyboard.press('Enter');
      await collections.filter({ hasText: name }).waitFor();
    }
    await page.getByRole('button', { name: 'Remove Old notes' }).click();
    await page.getByRole('dialog', { name: 'Remove Old notes?' }).getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('button', { name: 'Move Billing up' }).click();
    await page.getByRole('button', { name: 'Rename Billing' }).click();
    await page.getByLabel('New name for Billing').fill('Billing and plans');
    await page.keyboard.press('Enter');
    await expect.poll(() => collections.allTextContents()).toEqual(['All articles', 'Billing and plans', 'Getting started']);
    const { helpCollections } = await staff('query($m: ID!) { helpCollections(appModeId: $m) { edges { node { texts { name } } } } }', {
      m: app.modes.live,
    });
    expect(helpCollections.edges.map((e: any) => e.node.texts[0].name)).toEqual(['Billing and plans', 'Getting started']);

    // A new article in Getting started opens in the editor.
    await collections.filter({ hasText: 'Getting started' }).click();
    await page.getByLabel('New article in Getting started').fill('Reset your password');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/console\/help\/articles\/[^/]+\/en$/);
    const articleId = page.url().split('/').at(-2)!;
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('Reset your password');

    // Blocks by keyboard: a kind is chosen from "Add a block" with Enter, its field takes the focus.
    const add = async (kind: string, text: string) => {
      await page.locator('.add-block').getByRole('button', { name: kind, exact: true }).focus();
      await page.keyboard.press('Enter');
      await page.keyboard.type(text);
    };
    await page.getByLabel('Summary (shown under the title and in lists)').focus();
    await page.keyboard.type('When the old one is forgotten.');
    await add('Heading', 'Before you start');
    await add('Paragraph', 'You need the [email address](https://example.com/account) you signed up with.');
    await add('Numbered list', 'Open Settings');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Choose Security');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Press Reset password');
    // Ctrl+B puts the marks for bold in, the words typed go between them.
    await add('Callout', 'The link in the email works for ');
    await page.keyboard.press('Control+b');
    await page.keyboard.type('one hour');
    await page.keyboard.press('End');
    await page.keyboard.type('.');
    // Alt+↑ moves the callout above the list; the focus stays in it.
    await page.keyboard.press('Alt+ArrowUp');
    // Alt+Enter: a paragraph after it.
    await page.keyboard.press('Alt+Enter');
    await page.keyboard.type('Then follow the steps.');
    // A picture, uploaded to the service: added after the block last worked in.
    await page.locator('.add-block').getByRole('button', { name: 'Picture', exact: true }).click();
    await page
      .locator('.block-image input[type=file]')
      .setInputFiles({ name: 'reset-screen.png', mimeType: 'image/png', buffer: png(40, 24) });
    await page.locator('.block-image').getByText('Uploaded.').waitFor();
    expect(await page.locator('.block-kind').allTextContents()).toEqual([
      '1. Heading',
      '2. Paragraph',
      '3. Callout',
      '4. Paragraph',
      '5. Picture',
      '6. Numbered list',
    ]);
    await expect.poll(() => saveButton(page).isDisabled()).toBe(true);

    // The preview is the site's markup in the site's styles.
    const preview = page.locator('.help-preview-host');
    expect(await preview.locator('h1.page-title').textContent()).toBe('Reset your password');
    expect(await preview.locator('.article h2').textContent()).toBe('Before you start');
    expect(await preview.locator('.article aside.callout').textContent()).toBe('The link in the email works for one hour.');
    expect(await preview.locator('.article aside.callout strong').textContent()).toBe('one hour');
    expect(await preview.locator('.article p a').getAttribute('href')).toBe('https://example.com/account');
    expect(await preview.locator('.article ol li').count()).toBe(3);
    await expect.poll(() => preview.locator('.article img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(40);
    expect(await page.locator('.help-editor .help-state.big').textContent()).toContain('Draft');
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}console-help-editor.png` });

    // A reload keeps the draft (the service has it).
    await page.reload();
    await page.getByLabel('Title', { exact: true }).waitFor();
    await expect.poll(() => page.locator('.block-kind').count()).toBe(6);
    expect(await page.getByLabel('Callout (block 3): set apart, for a tip or a warning').inputValue()).toBe(
      'The link in the email works for **one hour**.',
    );
    expect(await page.getByLabel('Numbered list (block 6): one item a line').inputValue()).toBe(
      'Open Settings\nChoose Security\nPress Reset password',
    );

    // Publish: the public help site shows it.
    await page.getByRole('button', { name: 'Publish', exact: true }).click();
    await page.locator('.help-editor .help-state.big', { hasText: 'Published' }).waitFor();
    await page.locator('.help-article').evaluate((el) => el.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}console-help-published.png` });
    const href = await page.getByRole('link', { name: 'the public help site' }).getAttribute('href');
    expect(href).toMatch(/^\/help\/app_[^/]+\/en\/articles\/reset-your-password$/);
    const site = await page.context().newPage();
    await site.goto(`${t.url}${href}`);
    expect(await site.locator('h1.page-title').textContent()).toBe('Reset your password');
    expect(await site.locator('.article aside.callout').textContent()).toBe('The link in the email works for one hour.');
    expect(await site.locator('.article aside.callout strong').textContent()).toBe('one hour');
    expect(await site.locator('.article p a', { hasText: 'email address' }).getAttribute('href')).toBe('https://example.com/account');
    expect(await site.locator('.article ol li').allTextContents()).toEqual(['Open Settings', 'Choose Security', 'Press Reset password']);
    await expect.poll(() => site.locator('.article img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(40);
    await site.screenshot({ path: `${SHOTS}console-help-public.png`, fullPage: true });
    await site.close();

    // A new address: the public link follows.
    await page.getByText('Address, collection and readers').click();
    await page.getByLabel(/^Address \(the same in every language/).fill('reset-password');
    await page.getByRole('button', { name: 'Save these' }).click();
    await expect
      .poll(() => page.getByRole('link', { name: 'the public help site' }).getAttribute('href'))
      .toMatch(/\/en\/articles\/reset-password$/);

    // A change a minute after publishing: "Published, with unpublished changes" until published again.
    t.clock.advance(60_000);
    await page.getByLabel('Paragraph (block 2)').press('End');
    await page.keyboard.type(' Or your phone number.');
    await page.locator('.help-editor .help-state.big', { hasText: 'Published, with unpublished changes' }).waitFor();
    await expect.poll(() => saveButton(page).isDisabled()).toBe(true);

    // Another language starts from the English words.
    await page.getByLabel('Add a language').selectOption('de');
    await page.waitForURL(/\/de$/);
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('Reset your password');
    await page.getByLabel('Title', { exact: true }).fill('Passwort zurücksetzen');
    await page.locator('.help-language-tabs a', { hasText: 'German' }).locator('.state-draft').waitFor();
    // What the service refuses (no title) is kept in the tab across a reload, then saved once it can be.
    await page.getByLabel('Title', { exact: true }).fill('');
    await page.locator('.save-state', { hasText: 'Not saved: Give the article a title to save it.' }).waitFor();
    await page.getByLabel('Paragraph (block 2)').fill('Sie brauchen die E-Mail-Adresse.');
    // Kept in the tab once the screen has drawn the change (a reload before that would find the words before it).
    await expect
      .poll(() => page.evaluate(() => Object.values(sessionStorage).some((v) => v.includes('Sie brauchen die E-Mail-Adresse.'))))
      .toBe(true);
    await page.reload();
    await page.locator('.help-restored', { hasText: 'What you typed before and was not saved yet is kept here.' }).waitFor();
    await page.locator('.save-state', { hasText: 'Not saved: Give the article a title to save it.' }).waitFor();
    expect(await page.getByLabel('Paragraph (block 2)').inputValue()).toBe('Sie brauchen die E-Mail-Adresse.');
    await page.getByLabel('Title', { exact: true }).fill('Passwort zurücksetzen');
    await expect.poll(() => saveButton(page).isDisabled()).toBe(true);

    // The list shows each language's state.
    await page.getByRole('link', { name: 'Back to the help center' }).click();
    const row = page.locator('.help-article-rows a.row', { hasText: 'Reset your password' });
    await row.locator('.state-changed', { hasText: 'English: Published, with unpublished changes' }).waitFor();
    await row.locator('.state-draft', { hasText: 'German: Draft' }).waitFor();
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}console-help-list.png` });

    const { helpArticle } = await staff(
      'query($id: ID!) { helpArticle(id: $id) { slug drafts { edges { node { language title blocks } } } published { edges { node { language blocks } } } } }',
      { id: articleId },
    );
    expect(helpArticle.slug).toBe('reset-password');
    const german = helpArticle.drafts.edges.find((e: any) => e.node.language === 'de').node;
    expect(german.title).toBe('Passwort zurücksetzen');
    expect(german.blocks[1].spans[0].text).toBe('Sie brauchen die E-Mail-Adresse.');
    expect(helpArticle.published.edges.map((e: any) => e.node.blocks.map((b: any) => b.type))).toEqual([
      ['heading', 'paragraph', 'callout', 'paragraph', 'image', 'numbered_list'],
    ]);
    expect(errors).toEqual([]);
  });
});

describe('marks in an article’s words', () => {
  it('reads bold, italic, links and the rest into spans and writes them back the same, a lone mark being only a character', () => {
    expect(parseMarks('a **bold** and *italic* [the guide](https://example.com/g) ==lit==')).toEqual([
      { text: 'a ' },
      { text: 'bold', bold: true },
      { text: ' and ' },
      { text: 'italic', italic: true },
      { text: ' ' },
      { text: 'the guide', link: 'https://example.com/g' },
      { text: ' ' },
      { text: 'lit', highlight: true },
    ]);
    expect(parseMarks('2 * 3 and a lone ** star')).toEqual([{ text: '2 * 3 and a lone ** star' }]);
    for (const words of ['***both*** ~~gone~~ __under__', 'escaped \\*not italic\\* and \\[x\\]', '[**bold link**](https://x.io) 2 * 3'])
      expect(marksOf(parseMarks(words))).toBe(words);
    // Spans the marks cannot say (a colour) are kept while their words are unchanged.
    const coloured = { type: 'paragraph', spans: [{ text: 'red', color: '#ff0000' }, { text: ' words' }] };
    const edit = toEdit({ title: 'T', summary: '', blocks: [coloured] });
    expect(toBlocks(edit.blocks)).toEqual([coloured]);
    expect(toBlocks([{ ...edit.blocks[0]!, text: 'new **words**' }])).toEqual([
      { type: 'paragraph', spans: [{ text: 'new ' }, { text: 'words', bold: true }] },
    ]);
  });
});
