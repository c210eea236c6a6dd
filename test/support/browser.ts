import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type axe from 'axe-core';
import { chromium, type Browser, type Page } from 'playwright-core';

// The browser the page tests drive: Debian's chromium (CHROMIUM_PATH elsewhere), headless, with
// nothing of its own reaching out (no updates, sync or background requests), and axe-core run in a
// page the way the tests judge it.

/**
 * This process's browser: launched by the first file that asks, and kept for every later browser
 * file the worker runs (a launch and a close take half a second to a second of a busy machine, per
 * file). Each file works in contexts of its own and closes them when it is done (`releaseBrowser`),
 * so nothing of one file's pages, storage or cookies reaches the next. It ends with the worker
 * process: Playwright closes the browsers it launched when the process is stopped.
 */
export async function sharedBrowser(): Promise<Browser> {
  // No QUIC: the tests that watch what the browser sends (CORS, sign-up from another origin) see plain HTTP only.
  const launching = (shared ??= launchBrowser(['--disable-quic']));
  const browser = await launching.catch((e: unknown) => {
    if (shared === launching) shared = undefined;
    throw e;
  });
  if (browser.isConnected()) return browser;
  // Gone (it crashed, or a file closed it): a new one.
  if (shared === launching) shared = undefined;
  return sharedBrowser();
}
let shared: Promise<Browser> | undefined;

/** A file's end with the shared browser: its contexts (and their pages) closed, the browser kept for the next file. */
export async function releaseBrowser(browser: Browser | undefined): Promise<void> {
  if (!browser?.isConnected()) return;
  await Promise.all(browser.contexts().map((c) => c.close().catch(() => {})));
}

/** Headless chromium of a file's own; `args` add flags. */
export function launchBrowser(args: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      ...args,
    ],
  });
}

/** axe-core as its package builds it, minified: the same code as its `source` in under half the bytes to send and parse. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe-core's serious or critical findings on the page: its source is evaluated through the
 * browser's debugging channel (nothing fetched, and no page policy governs it), so the page needs
 * JavaScript on. Once per document: a single-page app moved on to another screen still holds it,
 * and it is run again as it is (each run reads the whole page afresh).
 */
export async function seriousFindings(page: Page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const found = await (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] });
    return found.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary })),
    }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}
