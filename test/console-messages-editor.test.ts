import { describe, expect, it } from 'vitest';
import { serverApi } from './support/factories.js';
import { seriousFindings } from './support/browser.js';
import { appUser } from './support/inapp.js';
import { consoleSuite, runCommand, SHOTS, signedInConsole } from './support/console.js';

// The console's message editor: a carousel of two screens made and edited (a button that branches
// to the end, a refusal shown beside the field it names), stepped through in the preview; its
// audience set by an attribute condition with the people it reaches counted; a test phone marked
// from the messages area and a test copy in the test sends' log; a statistic changing live in the
// list. axe-core on the editor and the test phones. Screenshots: test/screenshots/console-messages-editor*.png.

// Three people: two on the pro plan, and the phone the team tests on.
const suite = consoleSuite(async ({ t, app }) => {
  const server = serverApi(t, app.live.server_key);
  await server.identify('ada', { attributes: { plan: 'pro' } });
  await server.identify('bob', { attributes: { plan: 'free' } });
  await appUser(t, app.live, 'qa-phone').checkedIn();
});

describe('the message editor in the console', { timeout: 90_000 }, () => {
  it('makes a carousel of two screens with a branch, sets its audience, marks a test phone and follows a statistic live', async () => {
    const { t, app, browser, errors } = suite;
    const page = await signedInConsole(browser, { url: t.url, token: app.owner, errors, viewport: { width: 1360, height: 1100 } });
    await page.goto(`${t.url}/console/messages`);
    await page.getByText('No messages yet.').waitFor();

    // A carousel from a name and its first screen's words.
    await page.getByRole('button', { name: 'Make a carousel' }).click();
    const make = page.getByRole('form', { name: 'Make a carousel' });
    await make.getByLabel('Name').fill('Welcome tour');
    await make.getByLabel('Text of its first screen').fill('Welcome aboard.');
    await make.getByRole('button', { name: 'Make the carousel' }).click();
    const pane = page.locator('.message-page');
    await pane.getByRole('heading', { name: 'Welcome tour' }).waitFor();
    const id = page.url().split('/').pop()!;

    // The editor: a second screen with its words; two buttons on the first, one going to the end.
    await pane.getByRole('button', { name: 'Edit the message' }).click();
    const editor = pane.getByRole('form', { name: 'Edit the message' });
    await editor.getByRole('button', { name: 'Add a screen' }).click();
    const second = editor.getByRole('group', { name: 'Screen 2 (screen-2)' });
    await second.getByRole('group', { name: 'Add a block' }).getByRole('button', { name: 'Paragraph' }).click();
    await second.getByLabel('Paragraph (block 1)').fill('Here is what is new.');
    const first = editor.getByRole('group', { name: 'Screen 1 (screen-1)' });
    await first.getByRole('button', { name: 'Add a button to screen 1' }).click();
    await first.getByRole('button', { name: 'Add a button to screen 1' }).click();
    await first.getByRole('textbox', { name: 'Button 1 of screen 1', exact: true }).fill('Tell me more');
    await first.getByLabel('Button 2 goes to').selectOption({ label: 'The end' });

    // Saved with the second button's words missing: the service's refusal beside that field.
    await editor.getByRole('button', { name: 'Save' }).click();
    const label2 = first.getByRole('textbox', { name: 'Button 2 of screen 1', exact: true });
    await expect.poll(() => label2.getAttribute('aria-invalid')).toBe('true');
    expect(await first.locator(`#${await label2.getAttribute('id')}-error`).textContent()).toMatch(/required/);
    await label2.fill('Skip the tour');
    await editor.getByRole('button', { name: 'Save' }).click();
    await editor.waitFor({ state: 'detached' });
    const saved = await t.svc.db.inAppMessage.findUniqueOrThrow({ where: { id } });
    const content = (saved.variants as { content: { screens: { id: string; buttons?: { label: string; screen?: string }[] }[] } }[])[0]!
      .content;
    expect(content.screens.map((s) => s.id)).toEqual(['screen-1', 'screen-2']);
    expect(content.screens[0]!.buttons).toEqual([
      { id: 'b1', label: 'Tell me more' },
      { id: 'b2', label: 'Skip the tour', screen: 'end' },
    ]);

    // The preview steps through the screens as the person would: the first button to the next screen, the second to the end.
    const preview = pane.getByRole('group', { name: 'Preview' });
    await preview.getByText('Screen 1 of 2 (screen-1)').waitFor();
    await preview.getByRole('button', { name: 'Tell me more' }).click();
    await preview.getByText('Here is what is new.').waitFor();
    await preview.getByRole('button', { name: 'Done' }).waitFor();
    await preview.getByRole('button', { name: 'Back' }).click();
    await preview.getByRole('button', { name: 'Skip the tour' }).click();
    await preview.getByText('The carousel ends here.').waitFor();
    await preview.getByRole('button', { name: 'Start again' }).click();
    await preview.getByText('Screen 1 of 2 (screen-1)').waitFor();

    await pane.getByRole('button', { name: 'Edit the message' }).click();
    await editor.getByRole('group', { name: 'Screen 2 (screen-2)' }).waitFor();
    expect(await seriousFindings(page)).toEqual([]);
    await editor.getByRole('group', { name: 'Screen 2 (screen-2)' }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}console-messages-editor.png` });
    await editor.getByRole('button', { name: 'Cancel' }).click();

    // The audience: everyone at first, then the pro plan, counted as the condition is written.
    const reach = pane.locator('.audience-reach');
    await reach.getByText('Reaches 3 people now (of 3 people).').waitFor();
    await pane.getByRole('button', { name: 'Change the audience' }).click();
    const audience = pane.getByRole('form', { name: 'Change the audience' });
    await audience.getByRole('button', { name: 'Add a condition' }).click();
    await audience.getByRole('combobox', { name: 'Condition 1' }).selectOption({ label: 'plan' });
    await audience.getByLabel('Operator').selectOption({ label: 'is' });
    await audience.getByLabel('Value').fill('pro');
    await reach.getByText('Reaches 1 person now (of 3 people).').waitFor();
    expect(await seriousFindings(page)).toEqual([]);
    await audience.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}console-messages-editor-audience.png` });
    await audience.getByRole('button', { name: 'Save the audience' }).click();
    await audience.waitFor({ state: 'detached' });
    await pane.getByText('People who match all of 1 condition.').waitFor();
    await reach.getByText('Reaches 1 person now (of 3 people).').waitFor();
    expect((await t.svc.db.inAppMessage.findUniqueOrThrow({ where: { id } })).audience).toEqual({
      all: [{ attribute: 'plan', op: 'is', value: 'pro', type: 'string' }],
    });

    // For workflows only: shown to no one but the people a workflow sends it to; then back to its audience.
    await pane.getByRole('button', { name: 'Change the audience' }).click();
    await audience.getByLabel('Only people a workflow sends it to').check();
    await audience.getByRole('button', { name: 'Save the audience' }).click();
    await pane.getByText('Only people a workflow sends it to.').waitFor();
    expect((await t.svc.db.inAppMessage.findUniqueOrThrow({ where: { id } })).workflowOnly).toBe(true);
    await pane.getByRole('button', { name: 'Change the audience' }).click();
    await audience.getByLabel('Only people a workflow sends it to').uncheck();
    await audience.getByRole('button', { name: 'Save the audience' }).click();
    await pane.getByText('People who match all of 1 condition.').waitFor();

    // When: a sending window, refused beside its field while it ends before it starts, then every day all day.
    await runCommand(page, 'message change when');
    const when = pane.getByRole('form', { name: 'Change when it is shown' });
    await when.getByLabel('Only on some days and hours').check();
    await when.getByRole('checkbox', { name: 'Sun' }).check();
    await when.getByRole('checkbox', { name: 'Sat' }).check();
    await when.getByLabel('From', { exact: true }).fill('00:00');
    await when.getByLabel('Until', { exact: true }).fill('00:00');
    await when.getByRole('button', { name: 'Save when' }).click();
    await expect.poll(() => when.getByLabel('Until', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await when.locator('#when-to-error').textContent()).toBe('must be after from');
    await when.getByLabel('Until', { exact: true }).fill('24:00');
    await when.getByRole('button', { name: 'Save when' }).click();
    await pane.getByText("Shown on Sun, Mon, Tue, Wed, Thu, Fri, Sat, 00:00 to 24:00 in the person's time zone.").waitFor();

    // Test phones, from the messages area: one marked with a label, another marked and unmarked.
    await page.getByRole('button', { name: 'Test phones' }).click();
    const phones = page.locator('.test-phones');
    const mark = phones.getByRole('form', { name: 'Mark a test phone' });
    await mark.getByLabel('User id').fill('qa-phone');
    await mark.getByLabel('Label (optional)').fill('QA phone');
    await mark.getByRole('button', { name: 'Mark as a test phone' }).click();
    await phones.getByRole('list', { name: 'Test phones' }).getByText('QA phone').waitFor();
    await mark.getByLabel('User id').fill('bob');
    await mark.getByRole('button', { name: 'Mark as a test phone' }).click();
    await phones.getByRole('button', { name: 'Unmark bob' }).click();
    await page.getByRole('dialog', { name: 'Unmark bob?' }).getByRole('button', { name: 'Unmark', exact: true }).click();
    await phones.getByRole('status').filter({ hasText: 'bob is no longer a test phone.' }).waitFor();
    expect((await t.svc.db.inAppTestPhone.findMany({ select: { externalId: true, label: true } })).map((p) => p.externalId)).toEqual([
      'qa-phone',
    ]);
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}console-messages-editor-phones.png` });

    // A test copy to it, in the message's log of test sends: waiting, then delivered at its next check-in.
    await pane.getByRole('combobox', { name: 'Test phone' }).selectOption({ label: 'QA phone' });
    await pane.getByRole('button', { name: 'Send a test' }).click();
    const sends = pane.locator('.test-sends');
    await sends.getByText(/To qa-phone .*waiting for its next check-in/).waitFor();
    t.clock.advance(21_000); // past the check-in spacing of the phone's first check-in
    const answer = await appUser(t, app.live, 'qa-phone').checkedIn();
    expect(JSON.stringify(answer)).toContain('Welcome aboard.');
    await sends.getByRole('button', { name: 'Read the test copies again' }).click();
    await sends.getByText(/To qa-phone .*delivered/).waitFor();

    // Live, then a statistic changes in the list without a reload (the message closed: the list follows it alone).
    await pane.getByRole('button', { name: 'Go live' }).click();
    await pane.locator('.message-state', { hasText: 'Live' }).waitFor();
    await page.keyboard.press('Escape');
    await page.waitForURL(/\/console\/messages$/);
    const row = page.getByRole('list', { name: 'Messages' }).locator('a.row', { hasText: 'Welcome tour' });
    await row.getByText('0 sent').waitFor();
    const started = Date.now();
    expect(JSON.stringify(await appUser(t, app.live, 'ada').checkedIn())).toContain(id);
    await row.getByText('1 sent · 0 seen').waitFor();
    console.log(`a count shown in the list ${Date.now() - started} ms after the check-in began`);

    // The list by state: live ones, and the archive of ended ones.
    const shown = page.getByRole('combobox', { name: 'Show' });
    await shown.selectOption({ label: 'Ended (the archive)' });
    await page.getByText('No ended messages.').waitFor();
    await shown.selectOption({ label: 'Live' });
    await row.getByText('1 sent · 0 seen').waitFor();
    await row.click();
    await pane.getByText("Shown on Sun, Mon, Tue, Wed, Thu, Fri, Sat, 00:00 to 24:00 in the person's time zone.").waitFor();
    await pane.locator('.test-sends').scrollIntoViewIfNeeded();
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}console-messages-editor-live.png` });

    expect(errors).toEqual([]);
  });
});
