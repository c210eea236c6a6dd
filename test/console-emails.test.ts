import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../bench/processes.js';
import { releaseBrowser, seriousFindings, sharedBrowser } from './support/browser.js';
import { runCommand, signedInConsole } from './support/console.js';
import { sentEmail } from './support/email.js';
import { serverApi, staffApp, type StaffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { startTestServer, testConfig, type TestServer } from './support/server.js';
import { smtpServer } from './support/smtp.js';

// The console's emails, in headless Chromium against a real test server whose mail goes to a real
// SMTP server: an email written with a topic, a refusal shown beside the field it names, its preview
// as mailed (a sandboxed frame of the preview page, and the plain text; read again after a save; for a
// person a sending would skip), a test copy to the member, a sending to everyone confirmed by its
// count, followed from Sending to Done live (emailSendingChanged: the page polls no more), its statistics (sent, skipped by reason in words, opened by a person and only by a
// machine, unsubscribed), a sending stopped; then the complaint rate in words and the suppression list
// (refused, added, found, removed) in settings. axe-core on each; screenshots test/screenshots/console-emails*.png.

const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));
const BROWSER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

let t: TestServer;
let smtp: Awaited<ReturnType<typeof smtpServer>>;
let app: StaffApp;
let browser: Browser;
let api: ReturnType<typeof staffApi>;

beforeAll(async () => {
  smtp = await smtpServer();
  const port = await freePort();
  t = await startTestServer({
    port,
    config: testConfig({ baseUrl: `http://127.0.0.1:${port}`, smtpUrl: smtp.url, mailFrom: 'Garden <news@mail.garden.test>' }),
  });
  app = await staffApp(t, 'Garden');
  api = staffApi(
    () => t.url,
    () => app.owner,
  );
  await api.ok('mutation($m: ID!) { addPreferenceTopic(appModeId: $m, key: "news", name: "Garden news", channels: [email]) { id } }', {
    m: app.modes.live,
  });
  const server = serverApi(t, app.live.server_key);
  for (const [id, email] of [
    ['ann', 'ann@example.com'],
    ['bob', 'bob@example.com'],
    ['cy', 'cy@example.com'],
    ['dan', null],
  ] as const)
    await server.identify(id, email ? { email } : {});
  // Bob's address bounced before: the sending skips him and says why.
  await t.svc.db.emailSuppression.create({
    data: { appModeId: app.modes.live, address: 'bob@example.com', reason: 'bounce', createdAt: t.clock.now() },
  });
  browser = await sharedBrowser();
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await releaseBrowser(browser);
  await t?.close();
  await smtp?.close();
});

/** Lets the sendings' processes run what is due until `done` holds (the test server's engine runs only when told). */
async function runUntil(done: () => boolean | Promise<boolean>) {
  await expect
    .poll(
      async () => {
        await t.engine.runDue();
        return done();
      },
      { timeout: 20_000 },
    )
    .toBe(true);
}

const mailTo = (address: string) => smtp.received.filter((r) => r.envelope.to.includes(address));
const stat = (scope: ReturnType<Page['locator']>, key: string) => scope.locator(`[data-stat="${key}"]`).first().textContent();

describe('emails in the console', { timeout: 90_000 }, () => {
  it('writes an email, shows a refusal beside its field, sends a test and a sending to everyone, and shows its statistics', async () => {
    const errors: string[] = [];
    const page = await signedInConsole(browser, { url: t.url, token: app.owner, errors });
    /** The names of the queries and mutations the page sent. */
    const reads: string[] = [];
    page.on('request', (r) => {
      if (!r.url().endsWith('/graphql') || r.method() !== 'POST') return;
      const name = /^\s*(?:query|mutation)\s+(\w+)/.exec(String((r.postDataJSON() as { query?: string } | null)?.query ?? ''));
      if (name) reads.push(name[1]!);
    });
    await page.goto(`${t.url}/console/inbox/open`);
    await page.locator('.conversations, .quiet-text').first().waitFor();
    await runCommand(page, 'go to emails');
    await page.waitForURL(/\/console\/emails$/);
    await page.getByText('No emails yet.').waitFor();
    await page.locator('.complaint-rate', { hasText: '0.00%' }).waitFor();

    // Write it: a refusal naming the sender's address is shown beside that field, which takes the focus.
    await page.getByRole('button', { name: 'Write an email' }).click();
    await page.waitForURL(/\/console\/emails\/new$/);
    const form = page.getByRole('form', { name: 'Write an email' });
    await form.getByLabel('Subject', { exact: true }).fill('Spring is here');
    await form.getByLabel(/^Preheader/).fill('Seeds, bulbs and a sale');
    await form.getByLabel('Paragraph (block 1)').fill('The **seeds** are in: [see them](https://garden.test/seeds?a=1&b=2).');
    await form.getByLabel('Topic', { exact: true }).selectOption({ label: 'Garden news: people who left it by email get nothing' });
    await form.getByLabel(/^Sender’s name/).fill('Garden shop');
    await form.getByLabel(/^Sender’s address/).fill('news at garden');
    await form.getByRole('button', { name: 'Save the email' }).click();
    const refusal = page.locator('#email-fromAddress-error');
    await refusal.waitFor();
    expect(await refusal.textContent()).toMatch(/address/i);
    expect(await form.getByLabel(/^Sender’s address/).getAttribute('aria-invalid')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('email-fromAddress');
    expect(await t.svc.db.emailMessage.count({ where: { appModeId: app.modes.live } })).toBe(0);
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}console-emails-refused.png` });

    await form.getByLabel(/^Sender’s address/).fill('news@garden.test');
    await form.getByRole('button', { name: 'Save the email' }).click();
    await page.waitForURL(/\/console\/emails\/[0-9a-f-]{36}$/);
    const pane = page.locator('.email-page');
    await pane.getByRole('heading', { name: 'Spring is here', level: 2 }).waitFor();
    await page.getByRole('list', { name: 'Emails' }).locator('a.row', { hasText: 'Spring is here' }).waitFor();
    const id = page.url().split('/').pop()!;
    const kept = await t.svc.db.emailMessage.findUniqueOrThrow({ where: { id } });
    expect(kept).toMatchObject({
      subject: 'Spring is here',
      preheader: 'Seeds, bulbs and a sale',
      fromName: 'Garden shop',
      fromAddress: 'news@garden.test',
    });
    expect(kept.blocks).toEqual([
      {
        type: 'paragraph',
        spans: [
          { text: 'The ' },
          { text: 'seeds', bold: true },
          { text: ' are in: ' },
          { text: 'see them', link: 'https://garden.test/seeds?a=1&b=2' },
          { text: '.' },
        ],
      },
    ]);

    // The preview: the email as mailed in a sandboxed frame without scripts, its link as written, nothing tracked.
    const preview = pane.getByRole('region', { name: 'Preview (as saved)' });
    const frameElement = preview.locator('iframe[title="The email as mailed"]');
    await frameElement.waitFor();
    expect(await frameElement.getAttribute('sandbox')).toBe('allow-popups allow-popups-to-escape-sandbox');
    expect(await frameElement.getAttribute('srcdoc')).toBeNull();
    const frame = page.frameLocator('iframe[title="The email as mailed"]');
    await frame.getByText('The seeds are in:').waitFor();
    expect(await frame.getByRole('link', { name: 'see them' }).getAttribute('href')).toBe('https://garden.test/seeds?a=1&b=2');
    expect(await frame.getByRole('link', { name: 'Unsubscribe' }).getAttribute('href')).toBe(`${t.url}/unsubscribe/preview`);
    // Its styles apply (the page's own policy allows the email's inline styles): the email's grey background.
    const frameHandle = (await frameElement.elementHandle())!;
    const inner = (await frameHandle.contentFrame())!;
    expect(await inner.evaluate(() => document.querySelectorAll('script').length)).toBe(0);
    expect(await inner.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(244, 245, 247)');
    expect(await preview.locator('.email-preview-head').textContent()).toContain('"Garden shop" <news@garden.test>');
    expect(await seriousFindings(page)).toEqual([]);
    await frameElement.scrollIntoViewIfNeeded();
    // The frame is painted by a process of its own (another origin): a moment for its paint to reach the page.
    await page.waitForTimeout(500);
    await page.screenshot({ path: `${SHOTS}console-emails-preview.png` });
    await preview.getByRole('button', { name: 'Plain text' }).click();
    const text = preview.getByLabel('The email as plain text');
    expect(await text.textContent()).toContain('The seeds are in: see them (https://garden.test/seeds?a=1&b=2).');
    expect(await text.textContent()).toContain('Unsubscribe: ');
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}console-emails-preview-text.png` });
    // A save shows in the preview.
    await pane
      .getByRole('form', { name: 'The email' })
      .getByLabel('Paragraph (block 1)')
      .fill('The **bulbs** are in: [see them](https://garden.test/seeds?a=1&b=2).');
    await pane.getByRole('button', { name: 'Save', exact: true }).click();
    await preview.getByRole('button', { name: 'As mailed (HTML)' }).click();
    await page.frameLocator('iframe[title="The email as mailed"]').getByText('The bulbs are in:').waitFor();
    // For Bob, whose address bounced: a sending now would skip him.
    await preview.getByLabel(/^Preview for a person/).fill('bob');
    await preview.getByRole('button', { name: 'Show' }).click();
    await preview.getByRole('status').filter({ hasText: 'A sending now would skip bob: address on the suppression list.' }).waitFor();
    expect(await preview.locator('.email-preview-head').textContent()).toContain('bob@example.com');

    // A test copy to the member themselves.
    await pane.getByRole('combobox', { name: 'To', exact: true }).waitFor();
    await pane.getByRole('button', { name: 'Send a test' }).click();
    await pane
      .getByRole('status')
      .filter({ hasText: `Test copy on its way to ${app.ownerEmail}` })
      .waitFor();
    await pane.getByRole('listitem', { name: 'Test copy 1' }).waitFor();
    await runUntil(() => mailTo(app.ownerEmail).length === 1);
    expect(mailTo(app.ownerEmail)[0]!.mail.subject).toBe('Spring is here');
    await pane.getByRole('listitem', { name: 'Test copy 1' }).locator('[data-state="done"]').waitFor();

    // To everyone: the confirmation names the people with an address (Dan has none).
    await pane.getByRole('radio', { name: 'Everyone' }).check();
    await pane.getByRole('button', { name: 'Send…' }).click();
    const ask = page.getByRole('dialog', { name: 'Send this email to 3 people?' });
    await ask.waitFor();
    expect(await seriousFindings(page)).toEqual([]);
    await ask.getByRole('button', { name: 'Send to 3 people' }).click();
    const sending = pane.getByRole('listitem', { name: 'Sending 2' });
    await sending.locator('[data-state="sending"]').waitFor();
    await sending.getByRole('button', { name: 'Stop sending 2…' }).waitFor();
    await sending.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}console-emails-sending.png` });

    // The process sends; the page, told live of the sending's progress (it polls no more), shows it done with its statistics.
    const listReads = () => reads.filter((r) => r === 'EmailSendings').length;
    const before = listReads();
    await runUntil(() => mailTo('ann@example.com').length === 1 && mailTo('cy@example.com').length === 1);
    await sending.locator('[data-state="done"]').waitFor();
    await expect.poll(() => stat(sending, 'sent')).toBe('2');
    expect(listReads()).toBe(before);
    expect(await stat(sending, 'skipped')).toBe('1');
    expect(await sending.getByRole('list', { name: 'Skipped, by reason' }).textContent()).toBe(
      '1 skipped: address on the suppression list',
    );
    expect(mailTo('bob@example.com')).toEqual([]);
    expect(await sending.textContent()).toContain('3 with an address when it began');

    // Ann opens it (a person, a minute later), a scanner fetches Cy's pixel (HEAD), Cy unsubscribes in one click.
    t.clock.advance(60_000);
    const pixel = (address: string) => /<img src="([^"]+)"/.exec(String(mailTo(address)[0]!.mail.html))![1]!.replace(/&amp;/g, '&');
    expect((await fetch(pixel('ann@example.com'), { headers: { 'User-Agent': BROWSER_AGENT } })).status).toBe(200);
    expect((await fetch(pixel('cy@example.com'), { method: 'HEAD', headers: { 'User-Agent': BROWSER_AGENT } })).status).toBe(200);
    const header = mailTo('cy@example.com')[0]!
      .mail.headerLines.find((h) => h.key === 'list-unsubscribe')!
      .line.replace(/\r?\n\s+/g, '');
    const unsubscribe = /<([^>]+)>/.exec(header)![1]!;
    const left = await fetch(unsubscribe, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(left.status).toBe(200);
    await pane.getByRole('button', { name: 'Read again' }).click();
    await expect.poll(() => stat(sending, 'opened')).toBe('1');
    expect(await stat(sending, 'machineOpenedOnly')).toBe('1');
    expect(await stat(sending, 'unsubscribed')).toBe('1');
    const totals = pane.getByRole('group', { name: 'Statistics of every sending' });
    await expect.poll(() => stat(totals, 'opened')).toBe('1');
    expect(await stat(totals, 'sent')).toBe('2');
    expect(await seriousFindings(page)).toEqual([]);
    await sending.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}console-emails-sent.png` });

    // A sending to one person, stopped (asked first) before its process ran: nothing more goes.
    await pane.getByRole('radio', { name: 'One person, by user id' }).check();
    await pane.getByRole('textbox', { name: 'User id' }).fill('ann');
    await pane.getByRole('button', { name: 'Send…' }).click();
    await page.getByRole('dialog', { name: 'Send this email to 1 person?' }).getByRole('button', { name: 'Send to 1 person' }).click();
    const third = pane.getByRole('listitem', { name: 'Sending 3' });
    await third.getByRole('button', { name: 'Stop sending 3…' }).click();
    await page.getByRole('dialog', { name: 'Stop sending 3?' }).getByRole('button', { name: 'Stop sending' }).click();
    await third.locator('[data-state="stopped"]').waitFor();
    await t.engine.runDue();
    expect(mailTo('ann@example.com')).toHaveLength(1);
    // An email that was sent offers no delete.
    expect(await pane.getByRole('button', { name: 'Delete…' }).count()).toBe(0);
    expect(errors).toEqual([]);
  });

  it('says the complaint rate in words and keeps the suppression list in settings', async () => {
    // One email of the last days marked as spam: over 0.3% of what was sent.
    const contact = await t.svc.db.contact.findUniqueOrThrow({
      where: { appModeId_externalId: { appModeId: app.modes.live, externalId: 'dan' } },
    });
    const spam = await sentEmail(t, {
      appModeId: app.modes.live,
      contactId: contact.id,
      address: 'dan@example.com',
      topicId: null,
      links: [],
    });
    await t.svc.db.emailSend.update({ where: { id: spam.sendId }, data: { sentAt: t.clock.now(), complainedAt: t.clock.now() } });

    const errors: string[] = [];
    const page = await signedInConsole(browser, { url: t.url, token: app.owner, errors });
    await page.goto(`${t.url}/console/emails`);
    await page.locator('.complaint-rate.compact[data-level="over"]').waitFor();
    await page.getByRole('link', { name: 'Suppression list and complaints' }).click();
    await page.waitForURL(/\/console\/settings\/email$/);
    const rate = page.locator('.complaint-rate');
    await rate.waitFor();
    expect(await rate.getAttribute('data-level')).toBe('over');
    expect(await rate.textContent()).toMatch(/Over 0\.3%/);

    // Bob is on the list since his bounce; an address that is none is refused beside the field.
    const list = page.getByRole('table');
    await list.getByRole('row', { name: /bob@example\.com/ }).waitFor();
    expect(await list.getByRole('row', { name: /bob@example\.com/ }).textContent()).toContain('Bounced');
    const add = page.getByRole('form', { name: 'Add an address' });
    await add.getByLabel('Address to add').fill('not an address');
    await add.getByRole('button', { name: 'Add to the list' }).click();
    await page.locator('#suppress-address-error').waitFor();
    expect(await add.getByLabel('Address to add').getAttribute('aria-invalid')).toBe('true');
    await add.getByLabel('Address to add').fill('Zed@Example.com');
    await add.getByRole('button', { name: 'Add to the list' }).click();
    await list.getByRole('row', { name: /zed@example\.com/ }).waitFor();
    expect(await list.getByRole('row', { name: /zed@example\.com/ }).textContent()).toContain('Added by a member');

    // Found by its address; taken off.
    await page.getByRole('searchbox', { name: 'Find an address' }).fill('zed@example.com');
    await page.getByRole('button', { name: 'Find', exact: true }).click();
    await expect.poll(() => list.getByRole('row').count()).toBe(2); // the head and Zed
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}console-emails-settings.png` });
    // Taken off saying why: the reason is kept in the list's history.
    await list.getByRole('button', { name: 'Remove zed@example.com' }).click();
    await page.getByRole('textbox', { name: 'Why take it off?' }).fill('They asked us to write again');
    await page.getByRole('form', { name: 'Remove zed@example.com' }).getByRole('button', { name: 'Remove' }).click();
    await page.getByText('zed@example.com is not on the list.').waitFor();
    expect(
      await t.svc.db.emailSuppressionRemoval.findMany({ where: { appModeId: app.modes.live }, select: { address: true, reason: true } }),
    ).toEqual([{ address: 'zed@example.com', reason: 'They asked us to write again' }]);
    expect(await t.svc.db.emailSuppression.count({ where: { appModeId: app.modes.live, address: 'zed@example.com' } })).toBe(0);
    await page.getByRole('button', { name: 'Show every address' }).click();
    await list.getByRole('row', { name: /bob@example\.com/ }).waitFor();
    expect(errors).toEqual([]);
  });
});
