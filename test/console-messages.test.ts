import { describe, expect, it } from 'vitest';
import { seriousFindings } from './support/browser.js';
import { appUser } from './support/inapp.js';
import { consoleSuite, runCommand, SHOTS, signedInConsole } from './support/console.js';

// The console's messages: a banner made from a name and a paragraph, set live, shown in the list
// with its kind and state; a person's app checks in and sees it, and the statistics follow live on
// the message's page and in the list; a test copy sent to a test phone. axe-core on the list and the page.
// Pushes: the list, and a send refused while no provider has credentials, said in words.
// Screenshots: test/screenshots/console-messages*.png.

const suite = consoleSuite(async ({ t, app }) => {
  await appUser(t, app.live, 'qa-phone').checkedIn(); // the person the test phone is
  const r = await fetch(`${t.url}/graphql`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${app.owner}` },
    body: JSON.stringify({
      query: 'mutation($m: ID!) { markTestPhone(appModeId: $m, externalId: "qa-phone", label: "QA phone") { externalId } }',
      variables: { m: app.modes.live },
    }),
  });
  expect(((await r.json()) as { errors?: unknown }).errors).toBeUndefined();
});

describe('messages in the console', { timeout: 60_000 }, () => {
  it('makes a banner, sets it live, and shows its state and live statistics', async () => {
    const { t, app, browser, errors } = suite;
    const page = await signedInConsole(browser, { url: t.url, token: app.owner, errors });
    await page.goto(`${t.url}/console/inbox/open`);
    await page.locator('.conversations, .quiet-text').first().waitFor();
    await runCommand(page, 'go to messages');
    await page.waitForURL(/\/console\/messages$/);
    await page.getByText('No messages yet.').waitFor();

    // Make a banner: a name and one paragraph.
    await page.getByRole('button', { name: 'Make a banner' }).click();
    const form = page.getByRole('form', { name: 'Make a banner' });
    await form.getByLabel('Name').fill('Spring sale');
    await form.getByLabel('Text').fill('Everything is 20% off until Sunday.');
    await form.getByRole('button', { name: 'Make the banner' }).click();
    await page.waitForURL(/\/console\/messages\/[^/]+$/);
    const pane = page.locator('.message-page');
    await pane.getByRole('heading', { name: 'Spring sale' }).waitFor();
    await pane.locator('.message-state', { hasText: 'Draft' }).waitFor();
    expect(await pane.getByRole('group', { name: 'Preview' }).textContent()).toBe('Everything is 20% off until Sunday.');

    // Its name and words changed in place: two paragraphs, the preview and the heading follow.
    await pane.getByRole('button', { name: 'Change the name and words' }).click();
    const words = pane.getByRole('form', { name: 'Change the name and words' });
    await words.getByLabel('Name').fill('Spring sale, last days');
    await words.getByLabel('Words').fill('Everything is 20% off until Sunday.\n\nFree shipping too.');
    await words.getByRole('button', { name: 'Save' }).click();
    await pane.getByRole('heading', { name: 'Spring sale, last days' }).waitFor();
    expect(await pane.getByRole('group', { name: 'Preview' }).locator('p').allTextContents()).toEqual([
      'Everything is 20% off until Sunday.',
      'Free shipping too.',
    ]);

    // Go live: the page and the list say so.
    await pane.getByRole('button', { name: 'Go live' }).click();
    await pane.locator('.message-state', { hasText: 'Live' }).waitFor();
    await pane.getByRole('button', { name: 'Pause' }).waitFor();
    const row = page.getByRole('list', { name: 'Messages' }).locator('a.row', { hasText: 'Spring sale' });
    await row.locator('.message-state', { hasText: 'Live' }).waitFor();
    expect(await row.textContent()).toContain('Banner');
    await expect.poll(() => pane.locator('[data-stat="sent"]').textContent()).toBe('0');

    // A person's app checks in and sees it: the counts come live.
    const id = page.url().split('/').pop()!;
    const user = appUser(t, app.live, 'grace');
    const answer = await user.checkedIn();
    expect(JSON.stringify(answer)).toContain(id);
    expect((await user.receipt({ message_id: id, variant: 'a', action: 'seen' })).status).toBe(204);
    await expect.poll(() => pane.locator('[data-stat="sent"]').textContent()).toBe('1');
    await expect.poll(() => pane.locator('[data-stat="seen"]').textContent()).toBe('1');
    await expect.poll(() => row.textContent()).toContain('1 sent · 1 seen · 0 clicked');

    // j/k and Enter in the list; Esc back.
    await page.keyboard.press('Escape');
    await page.waitForURL(/\/console\/messages$/);
    await page.keyboard.press('j');
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/console/messages/${id}$`));
    await pane.locator('[data-stat="seen"]', { hasText: '1' }).waitFor();

    // A test copy to the test phone.
    await pane.getByRole('combobox', { name: 'Test phone' }).waitFor();
    await pane.getByRole('button', { name: 'Send a test' }).click();
    await pane.getByRole('status').filter({ hasText: 'Test copy sent: qa-phone' }).waitFor();

    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}console-messages.png` });

    // A draft deleted after asking: gone from the list and from the service; a live one offers no delete.
    expect(await pane.getByRole('button', { name: 'Delete…' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Make a banner' }).click();
    await form.getByLabel('Name').fill('Draft to drop');
    await form.getByLabel('Text').fill('Never shown.');
    await form.getByRole('button', { name: 'Make the banner' }).click();
    await pane.getByRole('heading', { name: 'Draft to drop' }).waitFor();
    await pane.getByRole('button', { name: 'Delete…' }).click();
    await page.getByRole('dialog', { name: 'Delete this draft?' }).getByRole('button', { name: 'Delete', exact: true }).click();
    await page.waitForURL(/\/console\/messages$/);
    await page.getByRole('list', { name: 'Messages' }).locator('a.row', { hasText: 'Draft to drop' }).waitFor({ state: 'detached' });
    expect(await t.svc.db.inAppMessage.count({ where: { name: 'Draft to drop' } })).toBe(0);
    expect(errors).toEqual([]);
  });

  it('lists pushes and says in words why one is refused while no provider has credentials', async () => {
    const { t, app, browser } = suite;
    const page = await signedInConsole(browser, { url: t.url, token: app.owner, errors: [] });
    await page.goto(`${t.url}/console/messages`);
    await page
      .getByText('No messages yet.')
      .or(page.getByRole('list', { name: 'Messages' }))
      .first()
      .waitFor();
    await runCommand(page, 'go to pushes');
    await page.waitForURL(/\/console\/pushes$/);
    await page.getByText('No pushes yet.').waitFor();
    const form = page.getByRole('form', { name: 'Send a push' });
    await form.getByLabel('Title').fill('Your order shipped');
    await form.getByLabel('Body').fill('It arrives on Tuesday.');
    await form.getByRole('textbox', { name: 'User id' }).fill('grace');
    await form.getByRole('button', { name: 'Send the push' }).click();
    await expect.poll(async () => (await form.getByRole('alert').textContent())?.toLowerCase() ?? '').toContain('credentials');
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}console-messages-pushes.png` });
  });
});
