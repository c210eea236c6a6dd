import { describe, expect, it } from 'vitest';
import { signatureHeader } from '../src/domain/webhooks/signature.js';
import { serverApi } from './support/factories.js';
import { seriousFindings } from './support/browser.js';
import { consoleSuite, SHOTS, signedInConsole } from './support/console.js';
import { staffApi } from './support/graphql.js';
import { call } from './support/http.js';
import { guestOf } from './support/messenger.js';

// A reply by email in the console: the person answers the conversation's reply address from their
// mail client; the inbox shows the reply alone as their message, and "The email as it came" opens
// the whole email, quote and signature included. Screenshot: test/screenshots/console-email-in.png.

const EMAIL = [
  'Yes, the export works again. Thanks!',
  '',
  '--',
  'Grace Hopper',
  '',
  'On Sat, Nov 28, 2026 at 9:15 AM Acme Support <support@acme.test> wrote:',
  '> We fixed the export. Could you try again?',
].join('\n');

let conversationId: string;
const suite = consoleSuite(async ({ t, app }) => {
  await serverApi(t, app.live.server_key).identify('grace', { email: 'grace@example.com', display_name: 'Grace Hopper' });
  const started = await guestOf(t, app.live, 'grace').start({ text: 'My export is empty.' });
  expect(started.status).toBe(201);
  conversationId = started.json.id;
});

describe('a reply by email in the console', { timeout: 60_000 }, () => {
  it('shows the reply alone, and the whole email when opened', async () => {
    const { t, app, browser, errors } = suite;
    const { conversation } = await staffApi(
      () => t.url,
      () => app.owner,
    ).ok('query($id: ID!) { conversation(id: $id) { replyAddress } }', { id: conversationId });
    const raw = JSON.stringify({
      id: 'provider-1',
      from: 'Grace Hopper <grace@example.com>',
      to: [conversation.replyAddress],
      subject: 'Re: My export is empty',
      received_at: new Date().toISOString(),
      text: EMAIL,
    });
    const posted = await call(t.url, 'POST', `/public/v1/apps/${app.live.app_key}/inbound-email`, {
      headers: { 'Content-Type': 'application/json', 'X-CRM-Signature': signatureHeader(app.live.inbound_secret, raw, new Date()) },
      body: raw,
    });
    expect(posted.json.outcome).toBe('threaded');

    const page = await signedInConsole(browser, { url: t.url, token: app.owner, errors });
    await page.goto(`${t.url}/console/inbox/open/${conversationId}`);
    const reply = page.locator('.part', { hasText: 'the export works again' });
    await reply.waitFor();
    expect(await reply.locator('.part-text').textContent()).toBe('Yes, the export works again. Thanks!');
    // The whole email, read when opened.
    await reply.getByText('The email as it came').click();
    const whole = reply.locator('.part-email-text');
    await whole.waitFor();
    expect(await whole.textContent()).toBe(EMAIL);
    expect(await reply.locator('.part-email-head').textContent()).toContain('Re: My export is empty');
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}console-email-in.png` });
    expect(errors).toEqual([]);
  });

  it('shows the inbox address in the email settings, and rolls the inbound secret, shown once, the old one ended at once', async () => {
    const { t, app, browser, errors } = suite;
    const page = await signedInConsole(browser, { url: t.url, token: app.owner, errors });
    await page.goto(`${t.url}/console/settings/email`);
    const section = page.getByRole('region', { name: 'Email in' });
    await section.getByText(`inbox+${app.live.app_key}@`).waitFor();
    expect(await section.textContent()).toContain('none verifies');
    await section.getByRole('button', { name: 'Roll the inbound secret…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Roll the inbound secret?' });
    await dialog.getByRole('checkbox', { name: /Keep the current secret working/ }).uncheck();
    await dialog.getByRole('button', { name: 'Roll' }).click();
    const once = page.getByRole('textbox', { name: 'New inbound secret' });
    await once.waitFor();
    const secret = await once.inputValue();
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}console-email-in-settings.png` });

    // The converter's posts: under the new secret taken, under the old one refused.
    const post = (key: string) => {
      const raw = JSON.stringify({
        id: `evt-${key.slice(0, 6)}`,
        kind: 'delivered',
        message_id: '<x@y>',
        address: 'a@example.com',
        occurred_at: new Date().toISOString(),
      });
      return call(t.url, 'POST', `/public/v1/apps/${app.live.app_key}/email-events`, {
        headers: { 'Content-Type': 'application/json', 'X-CRM-Signature': signatureHeader(key, raw, new Date()) },
        body: raw,
      });
    };
    expect((await post(secret)).status).toBe(202);
    expect((await post(app.live.inbound_secret)).status).toBe(401);
    expect(errors).toEqual([]);
  });
});
