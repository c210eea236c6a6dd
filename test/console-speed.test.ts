import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exec, sql } from '../src/db/sql.js';
import { staffApp, type StaffApp } from './support/factories.js';
import { releaseBrowser, seriousFindings, sharedBrowser } from './support/browser.js';
import { signedInConsole } from './support/console.js';
import { guestOf } from './support/messenger.js';
import { startAddressedServer, type TestServer } from './support/server.js';

// The console on a long conversation, in headless Chromium against one real server: a
// conversation of 10,000 parts opens at its newest part with only the latest page in the page,
// older pages come in as the reader scrolls up with their place kept, and the Core Web Vitals
// (the web-vitals library, injected by the test: the console sends nothing anywhere) and the
// longest main-thread task are printed. Figures are printed, never asserted (timings belong to
// benchmarks). Screenshot: test/screenshots/console-speed-long.png.

const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));
// The library's browser build, beside its package entry (the package exports no path to it).
const WEB_VITALS = join(dirname(createRequire(import.meta.url).resolve('web-vitals')), 'web-vitals.iife.js');
const PARTS = 10_000;
const PAGE = 50;

let t: TestServer;
let app: StaffApp;
let browser: Browser;
let conversationId: string;

beforeAll(async () => {
  t = await startAddressedServer();
  app = await staffApp(t, 'Long talks');
  const started = await guestOf(t, app.live, 'lin').start({ text: 'Part 1 of a long story.' });
  expect(started.status, started.text).toBe(201);
  conversationId = started.json.id;
  // The other 9,999 parts in bulk, as written one by one they would be: alternate person and team.
  await exec(
    t.svc,
    sql`INSERT INTO conversation_part (id, app_mode_id, conversation_id, seq, kind, author_kind, author_name, text, blocks, created_at)
        SELECT ${conversationId} || '-p' || i, ${app.modes.live}, ${conversationId}, i, 'message',
               (CASE WHEN i % 2 = 0 THEN 'staff' ELSE 'contact' END)::"PartAuthorKind",
               CASE WHEN i % 2 = 0 THEN 'Ana Ruiz' ELSE 'User' END,
               'Part ' || i || ' of a long story.', '[]'::jsonb, now() - ((${PARTS} - i) || ' seconds')::interval
        FROM generate_series(2, ${PARTS}) i`,
  );
  await exec(
    t.svc,
    sql`UPDATE conversation SET last_seq = ${PARTS}, visible_seq = ${PARTS}, last_activity_at = now() WHERE id = ${conversationId}`,
  );
  browser = await sharedBrowser();
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await releaseBrowser(browser);
  await t?.close();
});

/** A console signed in as the owner, with web-vitals and a long-task observer in the page before its own script. */
async function consoleWithVitals(): Promise<Page> {
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1360, height: 820 } });
  context.setDefaultTimeout(30_000);
  const r = await fetch(`${t.url}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${app.owner}` },
    body: JSON.stringify({ query: '{ viewer { id name email } }' }),
  });
  const { viewer } = ((await r.json()) as { data: { viewer: { id: string; name: string; email: string } } }).data;
  const session = JSON.stringify({ token: app.owner, name: viewer.name, email: viewer.email, viewerId: viewer.id });
  await context.addInitScript((value) => localStorage.setItem('crm.console.session', value), session);
  // The library's build declares its global with var: in an init script (run in a function of its own) it is made global here.
  await context.addInitScript({ content: `${readFileSync(WEB_VITALS, 'utf8')}\nwindow.webVitals = webVitals;` });
  await context.addInitScript(() => {
    const w = window as unknown as {
      vitals: Record<string, number>;
      longest: number;
      webVitals: Record<string, (f: (m: { name: string; value: number }) => void, o: object) => void>;
    };
    w.vitals = {};
    w.longest = 0;
    for (const on of ['onTTFB', 'onFCP', 'onLCP', 'onCLS', 'onINP'])
      w.webVitals[on]!((m) => (w.vitals[m.name] = m.value), { reportAllChanges: true, durationThreshold: 16 });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.longest = Math.max(w.longest, e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  return context.newPage();
}

describe('the console on a 10,000-part conversation', () => {
  it('opens at the newest part with the latest page only, and keeps the reader’s place as older pages come in', async () => {
    const page = await consoleWithVitals();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${t.url}/console/inbox/open/${encodeURIComponent(conversationId)}`);
    const newest = page.locator(`.part[data-seq="${PARTS}"]`);
    await newest.waitFor();
    const parts = page.locator('.parts .part');
    // Opened at the end, with the latest page in the page and nothing older.
    expect(await parts.count()).toBe(PAGE);
    expect(await page.locator('.part[data-seq="1"]').count()).toBe(0);
    await expect
      .poll(() => newest.evaluate((el) => el.getBoundingClientRect().bottom <= el.closest('.parts')!.getBoundingClientRect().bottom + 1))
      .toBe(true);

    // Up to the top of what is read: the page before comes in above, the part read before stays where it was.
    const oldestShown = page.locator(`.part[data-seq="${PARTS - PAGE + 1}"]`);
    await page.locator('.parts').evaluate((el) => (el.scrollTop = -el.scrollHeight));
    await page.locator(`.part[data-seq="${PARTS - 2 * PAGE + 1}"]`).waitFor({ state: 'attached' });
    expect(await parts.count()).toBe(2 * PAGE);
    await expect
      .poll(() => oldestShown.evaluate((el) => el.getBoundingClientRect().top >= el.closest('.parts')!.getBoundingClientRect().top - 1))
      .toBe(true);

    // Interactions for INP: the snooze chooser opened by a click and closed, the reply box reached by its key.
    await page.getByRole('button', { name: 'Snooze…' }).click();
    await page.keyboard.press('Escape');
    await page.keyboard.press('r');
    await page.locator('textarea:focus').waitFor();
    const { vitals, longest } = await page.evaluate(() => {
      const w = window as unknown as { vitals: Record<string, number>; longest: number };
      return { vitals: w.vitals, longest: w.longest };
    });
    console.log(
      `console on ${PARTS} parts: ${Object.entries(vitals)
        .map(([k, v]) => `${k} ${k === 'CLS' ? v.toFixed(3) : `${Math.round(v)} ms`}`)
        .join(
          ', ',
        )}${'INP' in vitals ? '' : ', INP under 16 ms (no interaction long enough to be timed)'}; longest main-thread task ${Math.round(longest)} ms`,
    );
    expect(vitals).toHaveProperty('LCP');
    expect(vitals).toHaveProperty('FCP');
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}console-speed-long.png` });
    expect(errors).toEqual([]);
    await page.context().close();
  }, 90_000);
});

describe('the console on an inbox of 10,000 open conversations', () => {
  it('shows the latest 30 and pages on as the list is scrolled, never reading the rest', async () => {
    const busy = await staffApp(t, 'Busy inbox');
    const mode = busy.modes.live;
    await exec(
      t.svc,
      sql`INSERT INTO contact (id, app_mode_id, external_id) SELECT ${mode} || '-c' || i, ${mode}, 'person-' || i FROM generate_series(1, 10000) i`,
    );
    await exec(
      t.svc,
      sql`INSERT INTO conversation (id, app_mode_id, contact_id, preview, last_activity_at, visible_activity_at, created_at, updated_at)
          SELECT ${mode} || '-v' || i, ${mode}, ${mode} || '-c' || i, 'Question ' || i,
                 now() - (i || ' seconds')::interval, now() - (i || ' seconds')::interval, now(), now()
          FROM generate_series(1, 10000) i`,
    );
    const errors: string[] = [];
    const page = await signedInConsole(browser, { url: t.url, token: busy.owner, errors });
    const since = Date.now();
    await page.goto(`${t.url}/console/inbox/open`);
    const rows = page.locator('a.row');
    await rows.first().waitFor();
    const shownIn = Date.now() - since;
    expect(await rows.count()).toBe(30);
    expect(await rows.first().innerText()).toContain('person-1\n');
    await page.locator('.list-pane').evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect.poll(() => rows.count()).toBe(60);
    expect(await rows.nth(59).innerText()).toContain('person-60');
    console.log(`an inbox of 10,000: the first 30 shown ${shownIn} ms after the address was opened`);
    expect(errors).toEqual([]);
    await page.context().close();
  }, 60_000);
});
