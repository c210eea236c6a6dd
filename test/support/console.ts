import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { releaseBrowser, sharedBrowser } from './browser.js';
import { staffApp, type StaffApp } from './factories.js';
import { startAddressedServer, type TestServer } from './server.js';

// What the console's browser tests share.

/** Where the console's tests put the screenshots to look at. */
export const SHOTS = fileURLToPath(new URL('../screenshots/', import.meta.url));

export interface ConsoleSuite {
  t: TestServer;
  /** The staff app "Acme Cloud" (its owner signs in). */
  app: StaffApp;
  browser: Browser;
  /** What the pages logged as errors. */
  errors: string[];
}

/**
 * A test file's server on an address, its staff app "Acme Cloud" and a browser, started before its
 * tests and closed after them (the browser is the process's, its contexts closed) (`prepare` runs once the app is made, before the browser starts). The
 * members are there once the tests run.
 */
export function consoleSuite(prepare?: (s: Omit<ConsoleSuite, 'browser'>) => Promise<void>): ConsoleSuite {
  const s = { errors: [] as string[] } as ConsoleSuite;
  beforeAll(async () => {
    s.t = await startAddressedServer();
    s.app = await staffApp(s.t, 'Acme Cloud');
    await prepare?.(s);
    s.browser = await sharedBrowser();
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    await releaseBrowser(s.browser);
    await s.t?.close();
  });
  return s;
}

/**
 * Runs a command of the console's command menu (Ctrl/⌘-K) by its words, as a person would: the
 * menu open and its filter focused before typing, and Enter once the chosen command shows every
 * word (on a busy machine keys typed sooner would reach the page behind it, and an Enter pressed
 * before the list is filtered would run its first command).
 */
export async function runCommand(page: Page, words: string) {
  await page.keyboard.press('Control+k');
  const filter = page.locator('#command-filter:focus');
  await filter.waitFor();
  await page.keyboard.type(words);
  const chosen = page.locator('#command-list [role="option"][aria-selected="true"]');
  await expect
    .poll(async () => {
      const label = ((await chosen.textContent().catch(() => '')) ?? '').toLowerCase();
      return words
        .toLowerCase()
        .split(/\s+/)
        .every((w) => label.includes(w));
    })
    .toBe(true);
  await page.keyboard.press('Enter');
}

/**
 * A console page signed in as the staff user of `token` (their session in its storage, as after
 * signing in), in a browser context of its own; whatever the page logs as an error goes to `errors`.
 */
export async function signedInConsole(
  browser: Browser,
  opts: { url: string; token: string; errors: string[]; viewport?: { width: number; height: number } },
): Promise<Page> {
  const r = await fetch(`${opts.url}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${opts.token}` },
    body: JSON.stringify({ query: '{ viewer { id name email } }' }),
  });
  const { viewer } = ((await r.json()) as { data: { viewer: { id: string; name: string; email: string } } }).data;
  const viewport = opts.viewport ?? { width: 1360, height: 820 };
  const context = await browser.newContext({ locale: 'en-US', timezoneId: 'Europe/Berlin', viewport });
  context.setDefaultTimeout(15_000);
  const session = JSON.stringify({ token: opts.token, name: viewer.name, email: viewer.email, viewerId: viewer.id });
  // The console's own page only: a frame it holds (an email's preview, sandboxed) has no storage to write.
  await context.addInitScript((value) => {
    if (window.top === window) localStorage.setItem('crm.console.session', value);
  }, session);
  const page = await context.newPage();
  page.on('console', (m) => m.type() === 'error' && opts.errors.push(m.text()));
  page.on('pageerror', (e) => opts.errors.push(String(e)));
  return page;
}
