import axe from 'axe-core';
import { chromium, type Browser, type Page } from 'playwright-core';

// The browser the page tests drive: Debian's chromium (CHROMIUM_PATH elsewhere), headless, with
// nothing of its own reaching out (no updates, sync or background requests), and axe-core run in a
// page the way the tests judge it.

/** Headless chromium; `args` add flags. */
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

/**
 * axe-core's serious or critical findings on the page: its source is evaluated through the
 * browser's debugging channel (nothing fetched, and no page policy governs it), so the page needs
 * JavaScript on.
 */
export async function seriousFindings(page: Page) {
  await page.evaluate(axe.source);
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
