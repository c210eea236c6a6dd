import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverApi, staffApp, type StaffApp } from './support/factories.js';
import { releaseBrowser, seriousFindings, sharedBrowser } from './support/browser.js';
import { startAddressedServer, type TestServer } from './support/server.js';
import { runCommand, signedInConsole } from './support/console.js';
import { staffApi } from './support/graphql.js';

// The console's last settings, help center and push pieces: a member invited to two workspaces
// declines one from the command menu and accepts the other, whose app then shows in the switcher
// without a reload; the workflow webhook secret made, renewed after asking and each shown once; a
// help collection's sections made, an article written in one, renamed, reordered, moved, removed; a
// push with a link and a topic to an audience by attributes, a wrong value refused beside it first.
// axe-core on each; screenshots: test/screenshots/console-settings-more-*.png.

const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

let t: TestServer;
let app: StaffApp;
let browser: Browser;
const errors: string[] = [];

const { ok: staff } = staffApi(
  () => t.url,
  () => app.owner,
);

beforeAll(async () => {
  t = await startAddressedServer();
  app = await staffApp(t, 'Acme Cloud');
  browser = await sharedBrowser();
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await releaseBrowser(browser);
  await t?.close();
});

const open = (token: string): Promise<Page> => signedInConsole(browser, { url: t.url, token, errors });

/** No serious or critical axe-core finding, and the page as it looks. */
async function judge(page: Page, name: string) {
  expect(await seriousFindings(page)).toEqual([]);
  await page.screenshot({ path: `${SHOTS}console-settings-more-${name}.png` });
}

const INVITE = 'mutation($w: ID!, $e: String!) { inviteMember(workspaceId: $w, email: $e, role: admin) { id } }';

describe('the console’s invitations, workflow secret, help sections and push audience', { timeout: 90_000 }, () => {
  it('shows a member their invitations: one declined from the command menu, one accepted, its app in the switcher at once', async () => {
    // Bea owns a workspace of her own and is invited to Acme Cloud's and to another.
    const bea = await staffApp(t, 'Bea Shop');
    const other = await staffApp(t, 'Other Co');
    await staff(INVITE, { w: app.workspaceId, e: bea.ownerEmail });
    await staff(INVITE, { w: other.workspaceId, e: bea.ownerEmail }, other.owner);

    const page = await open(bea.owner);
    await page.goto(`${t.url}/console/inbox/open`);
    const notices = page.getByRole('region', { name: 'Invitations' });
    await notices.getByText('You are invited to join Acme Cloud workspace as an admin').waitFor();
    await notices.getByText('You are invited to join Other Co workspace as an admin').waitFor();
    await judge(page, 'invitations');

    // Declined from the command menu, asked first.
    await runCommand(page, 'decline the invitation to other co');
    await page
      .getByRole('dialog', { name: 'Decline the invitation to Other Co workspace?' })
      .getByRole('button', { name: 'Decline' })
      .click();
    await expect.poll(() => notices.getByRole('button', { name: /Other Co/ }).count()).toBe(0);

    // Accepted: the workspace's app is in the switcher without a reload.
    const options = page.locator('#app-switch option');
    expect(await options.allTextContents()).toEqual(['Bea Shop']);
    await notices.getByRole('button', { name: 'Accept the invitation to Acme Cloud workspace' }).click();
    await notices.getByText('You joined Acme Cloud workspace as an admin').waitFor();
    await expect.poll(async () => (await options.allTextContents()).sort()).toEqual(['Acme Cloud', 'Bea Shop']);
    await notices.getByRole('button', { name: 'Open Acme Cloud' }).click();
    await page.locator('#app-switch option:checked', { hasText: 'Acme Cloud' }).waitFor({ state: 'attached' });
    await notices.waitFor({ state: 'detached' });
    const { viewer } = await staff(
      '{ viewer { invitations { edges { node { id } } } memberships { edges { node { role workspace { id } } } } } }',
      {},
      bea.owner,
    );
    expect(viewer.invitations.edges).toEqual([]);
    expect(viewer.memberships.edges).toContainEqual({ node: { role: 'admin', workspace: { id: app.workspaceId } } });
    expect(errors).toEqual([]);
  });

  it('makes the workflow webhook secret, renews it after asking and shows each new one once', async () => {
    const page = await open(app.owner);
    await page.goto(`${t.url}/console/settings/webhooks`);
    const section = page.getByRole('region', { name: 'Workflow webhook secret', exact: true });
    await section.getByText('Not set: a workflow’s webhook step is refused until a secret is made.').waitFor();
    await section.getByRole('button', { name: 'Make a secret' }).click();
    const shown = section.getByRole('textbox', { name: /New workflow webhook secret/ });
    const first = await shown.inputValue();
    expect(first).toMatch(/^whsec_/);
    await section.getByRole('button', { name: 'I have kept it' }).click();
    await shown.waitFor({ state: 'detached' });

    // Renewed from the command menu, asked first; the new one shown once, the state beside it.
    await runCommand(page, 'renew the workflow webhook secret');
    await page.getByRole('dialog', { name: 'Renew the workflow webhook secret?' }).getByRole('button', { name: 'Renew' }).click();
    const second = await shown.inputValue();
    expect(second).toMatch(/^whsec_/);
    expect(second).not.toBe(first);
    expect(await section.getByText('Copy it now: it is shown this once.').isVisible()).toBe(true);
    const { appWebhookSecret } = await staff('query($m: ID!) { appWebhookSecret(appModeId: $m) { set secretHint } }', {
      m: app.modes.live,
    });
    expect(appWebhookSecret.set).toBe(true);
    expect(second.endsWith(appWebhookSecret.secretHint.slice(-4))).toBe(true);
    await section.getByText(`Set: ${appWebhookSecret.secretHint}, made`).waitFor();
    await section.evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await judge(page, 'workflow-secret');

    // Gone once the page is left: it is never read back.
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Members' }).click();
    await page.getByRole('heading', { level: 1, name: 'Members' }).waitFor();
    await page.goBack();
    await section.getByText(`Set: ${appWebhookSecret.secretHint}, made`).waitFor();
    expect(await page.content()).not.toContain(second);
    expect(errors).toEqual([]);
  });

  it('makes sections in a help collection: an article written in one, one renamed, reordered, moved and removed', async () => {
    const page = await open(app.owner);
    await page.goto(`${t.url}/console/help`);
    for (const name of ['Billing', 'Account']) {
      await page.getByLabel('New collection', { exact: true }).fill(name);
      await page.getByRole('button', { name: 'Make collection' }).click();
      await page.getByRole('heading', { name: `Articles in ${name}` }).waitFor();
    }
    await page.getByRole('link', { name: 'Billing', exact: true }).click();
    for (const name of ['Invoices', 'Refunds']) {
      await page.getByLabel('New section in Billing').fill(name);
      await page.getByRole('button', { name: 'Make section' }).click();
      await page.getByRole('heading', { name: `Articles in Billing › ${name}` }).waitFor();
    }
    const sections = page.getByRole('list', { name: 'Sections of Billing' }).getByRole('link');
    expect(await sections.allTextContents()).toEqual(['Invoices', 'Refunds']);

    // An article written in a section is in it.
    await page.getByRole('link', { name: 'Invoices', exact: true }).click();
    await page.getByLabel('New article in Billing › Invoices').fill('Pay an invoice');
    await page.getByRole('button', { name: 'Write article' }).click();
    await page.waitForURL(/\/console\/help\/articles\//);
    const { helpCollections } = await staff(
      'query($m: ID!) { helpCollections(appModeId: $m) { edges { node { slug sections { edges { node { id slug } } } } } } }',
      { m: app.modes.live },
    );
    const billing = helpCollections.edges.find((e: any) => e.node.slug === 'billing').node;
    const invoices = billing.sections.edges.find((e: any) => e.node.slug === 'invoices').node;
    const { helpArticles } = await staff(
      'query($m: ID!, $c: ID) { helpArticles(appModeId: $m, collectionId: $c) { edges { node { slug } } } }',
      {
        m: app.modes.live,
        c: invoices.id,
      },
    );
    expect(helpArticles.edges).toEqual([{ node: { slug: 'pay-an-invoice' } }]);

    // Reordered, renamed, judged; one moved to another collection, one removed after asking.
    await page.goBack();
    await page.getByRole('button', { name: 'Move Refunds up' }).click();
    await expect.poll(() => sections.allTextContents()).toEqual(['Refunds', 'Invoices']);
    // Kept by the service before the next change (a rename reads the sections again as they are kept).
    const order = async () =>
      (
        await staff('query($m: ID!) { helpCollections(appModeId: $m) { edges { node { slug sections { edges { node { slug } } } } } } }', {
          m: app.modes.live,
        })
      ).helpCollections.edges
        .find((e: any) => e.node.slug === 'billing')
        .node.sections.edges.map((e: any) => e.node.slug);
    await expect.poll(order).toEqual(['refunds', 'invoices']);
    await page.getByRole('button', { name: 'Rename Invoices' }).click();
    await page.getByLabel('New name for Invoices').fill('Invoices and receipts');
    await page.getByLabel('New name for Invoices').press('Enter');
    await expect.poll(() => sections.allTextContents()).toEqual(['Refunds', 'Invoices and receipts']);
    await judge(page, 'sections');
    await page.getByLabel('Move Refunds to another collection').selectOption({ label: 'Account' });
    await page.getByRole('list', { name: 'Sections of Account' }).getByRole('link', { name: 'Refunds' }).waitFor();
    await page.getByRole('button', { name: 'Remove Refunds' }).click();
    await page.getByRole('dialog', { name: 'Remove Refunds?' }).getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('list', { name: 'Sections of Account' }).waitFor({ state: 'detached' });
    const after = await staff(
      'query($m: ID!) { helpCollections(appModeId: $m) { edges { node { slug sections { edges { node { slug texts { name } } } } } } } }',
      { m: app.modes.live },
    );
    expect(after.helpCollections.edges.map((e: any) => [e.node.slug, e.node.sections.edges.map((x: any) => x.node.texts[0].name)])).toEqual(
      [
        ['billing', ['Invoices and receipts']],
        ['account', []],
      ],
    );
    expect(errors).toEqual([]);
  });

  it('sends a push with a link and a topic to the people whose attributes hold two conditions, a wrong value refused beside it first', async () => {
    const m = app.modes.live;
    await staff('mutation($m: ID!) { setVapidKeys(appModeId: $m, subject: "mailto:ops@example.com") { set } }', { m });
    await staff('mutation($m: ID!) { addPreferenceTopic(appModeId: $m, key: "orders", name: "Order news", channels: [push]) { key } }', {
      m,
    });
    await serverApi(t, app.live.server_key).identify('u_pro', { attributes: { plan: 'pro', seats: 5 } });

    const page = await open(app.owner);
    await page.goto(`${t.url}/console/pushes`);
    const form = page.getByRole('form', { name: 'Send a push' });
    await form.getByLabel('Title').fill('Your order shipped');
    await form.getByLabel(/^Link it opens/).fill('/orders/12');
    await form.getByLabel(/^Topic/).selectOption({ label: 'Order news' });
    await form.getByLabel('People by attributes').check();
    const first = form.getByRole('group', { name: 'Condition 1' });
    await first.getByLabel('Attribute').selectOption('seats');
    await first.getByLabel('Value').fill('lots');
    await form.getByRole('button', { name: 'Add a condition' }).click();
    const second = form.getByRole('group', { name: 'Condition 2' });
    await second.getByLabel('Attribute').selectOption('plan');
    await second.getByLabel('Value').fill('pro');
    await form.getByRole('button', { name: 'Send the push' }).click();
    await page.locator('#push-c0-value-error', { hasText: 'its type is number' }).waitFor();
    expect(await first.getByLabel('Value').evaluate((field) => field === document.activeElement)).toBe(true);

    await first.getByLabel('Value').fill('5');
    await form.getByRole('button', { name: 'Send the push' }).click();
    await form.getByText('Push sent: it goes out in batches.').waitFor();
    await page.getByRole('cell', { name: /^People with (seats = 5 and plan = pro|plan = pro and seats = 5)$/ }).waitFor();
    const { pushSends } = await staff('query($m: ID!) { pushSends(appModeId: $m) { edges { node { audience link topic title } } } }', {
      m,
    });
    expect(pushSends.edges).toEqual([
      { node: { audience: { attributes: { seats: 5, plan: 'pro' } }, link: '/orders/12', topic: 'orders', title: 'Your order shipped' } },
    ]);
    await page.getByRole('heading', { name: 'Sent' }).evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await judge(page, 'push-audience');
    expect(errors).toEqual([]);
  });
});
