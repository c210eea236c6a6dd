import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../bench/processes.js';
import { memberOf, staffApp, type StaffApp } from './support/factories.js';
import { releaseBrowser, seriousFindings, sharedBrowser } from './support/browser.js';
import { makeTestCertificate, startReceiver, type Receiver } from './support/https-receiver.js';
import { startTestServer, testConfig, type TestServer } from './support/server.js';
import { runCommand, signedInConsole } from './support/console.js';
import { staffApi } from './support/graphql.js';

// The console's Settings, walked as an owner would: the app renamed; the messenger's home given a
// face and a card; a web origin refused beside its field as the
// service refuses it, then added; a refusal from the service beside the field it names; a server
// key made and its secret shown once (gone after leaving the page), then revoked; a webhook
// endpoint pointing at a local receiver, "Send test" and its try appearing live in the delivery
// log (a try sent from elsewhere too); a member invited; a team made; a topic added; the help bot
// saved after a refusal beside its field; an agent's members page with what they may not do
// disabled and why. axe-core on every page. Screenshots: test/screenshots/console-settings-*.png.

const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

let t: TestServer;
let app: StaffApp;
let browser: Browser;
let receiver: Receiver;
const errors: string[] = [];

/** A staff GraphQL operation that must succeed, as the owner (or the member of `token`); its data. */
const { ok: staff } = staffApi(
  () => t.url,
  () => app.owner,
);

beforeAll(async () => {
  const cert = await makeTestCertificate();
  receiver = await startReceiver(cert);
  const port = await freePort();
  t = await startTestServer({
    port,
    config: testConfig({ baseUrl: `http://127.0.0.1:${port}`, outboundTestTrust: { allow: [receiver.hostPort], ca: cert.cert } }),
  });
  app = await staffApp(t, 'Acme Cloud');
  browser = await sharedBrowser();
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await releaseBrowser(browser);
  await t?.close();
  await receiver?.close();
});

const open = (token: string): Promise<Page> =>
  signedInConsole(browser, { url: t.url, token: token, errors, viewport: { width: 1360, height: 1000 } });

/** No serious or critical axe-core finding, and the page as it looks (scrolled to `at`, else its top). */
async function judge(page: Page, name: string, at?: Locator) {
  expect(await seriousFindings(page)).toEqual([]);
  if (at) await at.evaluate((el) => el.scrollIntoView({ block: 'start' }));
  else await page.locator('main').evaluate((main) => main.scrollTo(0, 0));
  await page.screenshot({ path: `${SHOTS}console-settings-${name}.png` });
  // The page scrolls inside its own pane: the shell (header, navigation) never scrolls away.
  expect(await page.evaluate(() => document.documentElement.scrollHeight - innerHeight)).toBe(0);
}

describe('settings in the console', { timeout: 90_000 }, () => {
  it('walks the app, keys, webhooks, members, teams, topics and the help bot as an owner, and as an agent', async () => {
    const page = await open(app.owner);
    await page.goto(`${t.url}/console/settings/app`);
    await page.getByRole('heading', { level: 1, name: 'App settings' }).waitFor();

    // The app renamed (a refusal first, beside the name); the switcher names it at once.
    const appName = page.getByLabel('App name (both modes)');
    await appName.fill(' ');
    await page.getByRole('button', { name: 'Rename' }).click();
    await page.locator('#app-name-error', { hasText: 'must be 1 to 100 characters' }).waitFor();
    await appName.fill('Acme Cloud EU');
    await appName.press('Enter');
    await page.locator('#app-switch option:checked', { hasText: 'Acme Cloud EU' }).waitFor({ state: 'attached' });
    expect((await t.svc.db.app.findUniqueOrThrow({ where: { id: app.appId } })).name).toBe('Acme Cloud EU');

    // A web origin refused beside its field, as the service words it; then one added.
    const origin = page.getByLabel('Add an origin');
    await origin.fill('http://shop.example.com');
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    expect(await page.locator('#origin-new-error').textContent()).toContain('must use https (http is allowed only for localhost)');
    expect(await origin.getAttribute('aria-invalid')).toBe('true');
    await origin.fill('https://shop.example.com');
    await origin.press('Enter');
    await page.getByRole('list', { name: 'Web origins' }).getByText('https://shop.example.com').waitFor();
    // A refusal by the service, beside the field it names.
    const color = page.getByLabel('Brand colour');
    await color.fill('red');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.locator('#app-brandColor-error', { hasText: 'must be #rrggbb' }).waitFor();
    // The refused field takes the focus.
    expect(await color.evaluate((field) => field === document.activeElement)).toBe(true);
    await page.screenshot({ path: `${SHOTS}console-settings-app-refused.png` });
    await color.fill('#0f766e');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Saved.').waitFor();
    // The messenger's home: a face and a card, its link refused beside it first.
    const messenger = page.getByRole('form', { name: 'Messenger' });
    await messenger.getByLabel('Show a member').selectOption({ index: 1 });
    await messenger.getByRole('button', { name: 'Add face' }).click();
    await messenger.getByRole('button', { name: 'Add a card' }).click();
    await messenger.getByLabel('Card 1 opens').selectOption('link');
    await messenger.getByLabel('Title').fill('Pricing');
    await messenger.getByLabel(/^Link/).fill('ftp://example.com/pricing');
    await messenger.getByRole('button', { name: 'Save messenger' }).click();
    await page.locator('#card-0-link-error').waitFor();
    await messenger.getByLabel(/^Link/).fill('https://example.com/pricing');
    await messenger.getByRole('button', { name: 'Save messenger' }).click();
    await messenger.getByText('Saved.').waitFor();
    const { messengerSettings } = await staff(
      'query($m: ID!) { messengerSettings(appModeId: $m) { faces { staffUserId } cards { link } } }',
      {
        m: app.modes.live,
      },
    );
    expect(messengerSettings).toMatchObject({
      faces: [{ staffUserId: expect.any(String) }],
      cards: [{ link: 'https://example.com/pricing' }],
    });
    const mode = await t.svc.db.appMode.findUniqueOrThrow({ where: { id: app.modes.live } });
    expect([mode.webOrigins, mode.brandColor]).toEqual([['https://shop.example.com'], '#0f766e']);
    await judge(page, 'app', page.getByRole('heading', { name: 'Web origins' }));

    // Server keys, by the command menu: the new key shown once, gone after leaving, then revoked.
    await runCommand(page, 'server keys');
    await page.waitForURL(/\/console\/settings\/keys$/);
    const keys = page.getByRole('table', { name: 'Server keys' }).locator('tbody tr');
    await expect.poll(() => keys.count()).toBe(1);
    // The page's own actions are in the command menu too.
    await runCommand(page, 'make a server key');
    const secret = await page.getByRole('textbox', { name: /New server key/ }).inputValue();
    expect(secret).toMatch(/^crm_sk_/);
    await expect.poll(() => keys.count()).toBe(2);
    expect(await page.getByText('Copy it now: it is shown this once.').isVisible()).toBe(true);
    await judge(page, 'key-made');
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await page.goBack();
    await expect.poll(() => keys.count()).toBe(2);
    expect(await page.content()).not.toContain(secret);
    const made = await t.svc.db.serverKey.findFirstOrThrow({ where: { appModeId: app.modes.live }, orderBy: { createdAt: 'desc' } });
    await page.getByRole('button', { name: `Revoke ${made.hint}` }).click();
    await page
      .getByRole('dialog', { name: `Revoke ${made.hint}?` })
      .getByRole('button', { name: 'Revoke' })
      .click();
    await keys.filter({ hasText: made.hint }).filter({ hasText: 'Revoked' }).waitFor();

    // A webhook endpoint at the local receiver; "Send test" and its try live in the log.
    await runCommand(page, 'webhooks');
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await runCommand(page, 'add a webhook endpoint');
    await page.getByLabel('Address').fill(`${receiver.origin}/hook`);
    await page.getByLabel('contact.created').check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    expect(await page.getByRole('textbox', { name: /Signing secret of/ }).inputValue()).toMatch(/^whsec_/);
    const log = page.getByRole('table', { name: 'Tries, newest first' }).locator('tbody tr');
    await page.getByText('Nothing posted yet.').waitFor();
    const sent = Date.now();
    await page.getByRole('button', { name: 'Send test' }).click();
    await log.filter({ hasText: 'webhook.test' }).filter({ hasText: 'Delivered' }).filter({ hasText: '200' }).waitFor();
    const shown = Date.now() - sent;
    expect(receiver.received.filter((r) => r.path === '/hook')).toHaveLength(1);
    // A try sent from elsewhere shows too: the log is live, not the mutation's answer.
    const { webhookEndpoints } = await staff('query($m: ID!) { webhookEndpoints(appModeId: $m) { edges { node { id } } } }', {
      m: app.modes.live,
    });
    await staff('mutation($id: ID!) { sendWebhookTest(id: $id) { id } }', { id: webhookEndpoints.edges[0].node.id });
    await expect.poll(() => log.count()).toBe(2);
    console.log(`console-settings: "Send test" to its try in the live log: ${shown} ms`);
    await judge(page, 'webhooks', page.getByRole('region', { name: 'Delivery log' }));

    // Members: an invitation by email and role.
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Members' }).click();
    await page.getByLabel('Email').waitFor();
    await runCommand(page, 'invite a member');
    await page.keyboard.type('new.agent@example.com');
    await page.keyboard.press('Tab');
    const role = page.getByLabel('Role', { exact: true });
    expect(await role.evaluate((field) => field === document.activeElement)).toBe(true);
    await role.selectOption('admin');
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.getByRole('table', { name: 'Pending invitations' }).getByText('new.agent@example.com').waitFor();
    await judge(page, 'members');

    // Teams: one made with the owner in it.
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Teams' }).click();
    await page.getByLabel('Name', { exact: true }).fill('Billing');
    await page.getByRole('group', { name: 'Members' }).getByRole('checkbox').first().check();
    await page.getByRole('button', { name: 'Make team' }).click();
    await page.getByRole('list', { name: 'Members of Billing' }).waitFor();
    await judge(page, 'teams');

    // Topics: one added.
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Topics' }).click();
    await page.getByLabel('Key').fill('product_news');
    await page.getByLabel('Name', { exact: true }).fill('Product news');
    await page.getByRole('button', { name: 'Add topic' }).click();
    await page.getByRole('list', { name: 'Topics in use' }).getByText('Product news').waitFor();
    await judge(page, 'topics');

    // The help bot: refused beside the bot's name, then saved with an opening that hands over.
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Help bot' }).click();
    await page.getByRole('button', { name: 'Add an opening' }).click();
    await page.getByLabel('Name (for staff)').fill('Welcome');
    await page.getByLabel('Greeting (1 to 3 paragraphs)').fill('Hello! How can we help?');
    await page.getByRole('button', { name: 'Add a button' }).click();
    await page.getByLabel('Button 1 label').fill('Talk to a person');
    await page.getByRole('button', { name: 'Save the bot' }).click();
    await page.locator('#bot-name-error').waitFor();
    expect(await page.getByLabel('Bot name').getAttribute('aria-invalid')).toBe('true');
    await page.screenshot({ path: `${SHOTS}console-settings-bot-refused.png` });
    await page.getByLabel('Bot name').fill('Ada bot');
    await page.getByRole('button', { name: 'Save the bot' }).click();
    await page.getByText('Saved.').waitFor();
    await judge(page, 'bot', page.getByRole('group', { name: 'Opening 1' }));
    expect(await t.svc.db.botOpening.count({ where: { appModeId: app.modes.live } })).toBe(1);

    // An agent: the members page with what they may not do disabled, and why.
    const agent = await memberOf(t, app.workspaceId, 'agent');
    const agentPage = await open(agent.token);
    await agentPage.goto(`${t.url}/console/settings/members`);
    await agentPage.getByText('Only owners may invite, change or remove members.').waitFor();
    expect(
      await agentPage
        .getByRole('button', { name: /^Remove / })
        .first()
        .isDisabled(),
    ).toBe(true);
    expect(await agentPage.getByRole('button', { name: 'Invite' }).count()).toBe(0);
    await judge(agentPage, 'agent');
    expect(errors).toEqual([]);
  });
});
