import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffApp, type StaffApp } from './support/factories.js';
import { releaseBrowser, seriousFindings, sharedBrowser } from './support/browser.js';
import { signedInConsole } from './support/console.js';
import { guestOf } from './support/messenger.js';
import { png } from './support/pictures.js';
import { startAddressedServer, type TestServer } from './support/server.js';

// Pictures in a reply from the console, by keyboard: one chosen with the file chooser, one that is
// no picture refused at upload (shown failed, then removed), two pasted into the reply (one
// removed); sent, the part shows them, loaded from the console's own origin. Screenshots:
// test/screenshots/console-pictures-composer.png and -sent.png.

const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

let t: TestServer;
let app: StaffApp;
let browser: Browser;
let conversationId: string;
const errors: string[] = [];

beforeAll(async () => {
  t = await startAddressedServer();
  app = await staffApp(t, 'Acme Cloud');
  const started = await guestOf(t, app.live, 'grace').start({ text: 'The chart on my dashboard is empty.' });
  expect(started.status).toBe(201);
  conversationId = started.json.id;
  browser = await sharedBrowser();
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await releaseBrowser(browser);
  await t?.close();
});

/** A green-to-blue picture of this size, as a PNG file. */
const picture = (name: string, width: number, height: number) => ({
  name,
  mimeType: 'image/png',
  buffer: png(width, height, (x, y) => [40, 120 + Math.round((100 * x) / width), 80 + Math.round((150 * y) / height)]),
});

describe('pictures in a reply from the console', { timeout: 60_000 }, () => {
  it('chooses one, pastes two, removes one and a failed one, sends, and shows them in the part', async () => {
    const page = await signedInConsole(browser, { url: t.url, token: app.owner, errors });
    await page.goto(`${t.url}/console/inbox/open/${conversationId}`);
    await page.locator('.part-text', { hasText: 'chart on my dashboard' }).waitFor();
    const items = page.locator('.picture-item');

    // By keyboard: r to the reply, Tab to "Add pictures", Space opens the chooser. The chooser is
    // awaited from the start, so that its interception is set up in the browser before Space is
    // pressed (set up beside the key press, it raced it on a loaded machine and missed the chooser).
    const chosen = page.waitForEvent('filechooser');
    await page.keyboard.press('r');
    await page.keyboard.type('Here is how it should look:');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('file');
    await page.keyboard.press('Space');
    const chooser = await chosen;
    // A text file named as a picture: made, then refused by the service at upload.
    await chooser.setFiles([
      picture('dashboard.png', 64, 40),
      { name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not a picture') },
    ]);
    await items.filter({ hasText: 'Ready' }).waitFor();
    await items.filter({ hasText: 'Failed: the bytes are not a JPEG, PNG, GIF or WebP picture' }).waitFor();
    const send = page.getByRole('button', { name: 'Send reply' });
    expect(await send.isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Remove notes.png' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => items.count()).toBe(1);

    // Two pasted into the reply, as a screenshot is (a real paste of the clipboard's picture files).
    await page.locator('#composer-text').focus();
    await page.evaluate(
      async ([a, b]) => {
        const data = new DataTransfer();
        for (const [i, bytes] of [a!, b!].entries())
          data.items.add(new File([new Uint8Array(bytes)], i ? 'second.png' : 'image.png', { type: 'image/png' }));
        document.activeElement!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      },
      [[...picture('', 48, 48).buffer], [...picture('', 30, 20).buffer]],
    );
    await expect.poll(() => items.filter({ hasText: 'Ready' }).count()).toBe(3);
    // The text stayed as typed: the paste brought pictures only.
    expect(await page.locator('#composer-text').inputValue()).toBe('Here is how it should look:');
    expect(await page.locator('.picture-item img').evaluateAll((imgs) => imgs.map((i) => i.getAttribute('alt')))).toEqual([
      'dashboard.png',
      'Pasted picture',
      'second.png',
    ]);
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}console-pictures-composer.png` });
    await page.getByRole('button', { name: 'Remove second.png' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => items.count()).toBe(2);

    // Sent by Ctrl+Enter: the part shows both, loaded from this origin.
    await page.locator('#composer-text').focus();
    await page.keyboard.press('Control+Enter');
    const sent = page.locator('.part.by-staff', { hasText: 'Here is how it should look' });
    await sent.waitFor();
    await expect.poll(() => items.count()).toBe(0);
    const shown = sent.locator('.part-pictures img');
    await expect.poll(() => shown.evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).naturalWidth))).toEqual([64, 48]);
    expect(await shown.evaluateAll((imgs) => imgs.map((i) => i.getAttribute('alt')))).toEqual([
      expect.stringMatching(/^Picture 1 of 2 from owner-/),
      expect.stringMatching(/^Picture 2 of 2 from owner-/),
    ]);
    for (const src of await shown.evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).src)))
      expect(src.startsWith(`${t.url}/blobs/`)).toBe(true);
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}console-pictures-sent.png` });

    // The service has them as the reply's, in order; the person sees them.
    const part = await t.svc.db.conversationPart.findFirstOrThrow({ where: { conversationId, authorKind: 'staff' } });
    const used = await t.svc.db.attachment.findMany({ where: { partId: part.id }, orderBy: { position: 'asc' } });
    expect(used.map((a) => [a.width, a.height])).toEqual([
      [64, 40],
      [48, 48],
    ]);
    expect(part.attachmentIds).toEqual(used.map((a) => a.id));
    expect(errors.filter((e) => !e.includes('422'))).toEqual([]);
  });
});
