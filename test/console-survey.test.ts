import { readFile } from 'node:fs/promises';
import { type Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousFindings } from './support/browser.js';
import { appUser } from './support/inapp.js';
import { consoleSuite, SHOTS, signedInConsole } from './support/console.js';

// The console's survey screens: a survey made from the messages list and written in its editor
// (three question steps, a branch by range on its NPS question), refused beside the field the
// service names (ranges that leave part of the scale uncovered; a step that loops back), then
// saved (a rating drawn as stars offered five points at most); set live, answered by four people
// through the guest routes, and its results read: shown, started, completed, views, exits and
// drop-off on the paths taken, the answers as bars with their numbers, the NPS with its groups, the
// words written (a long text's answers, Other's words) listed. The results then change live while
// the screen is open as more people answer through the guest routes (no "Read again"), the words
// too; the words paged as the list's end comes into view, and searched. "Download CSV" downloads
// the responses, their rows checked. A banner's audience given survey conditions (a range of the
// NPS question, an option picked) in the audience editor, counted, saved and read back through
// GraphQL, and shown again as read. axe-core on the editor, the results and the audience editor.
// Screenshots: test/screenshots/console-survey*.png.

const suite = consoleSuite();

/** A person whose app checks in (and is answered the survey), sees it, and answers it through the guest routes. */
async function person(sub: string, surveyId: string) {
  const { t, app } = suite;
  t.clock.advance(1000); // each person answers a second after the one before, by the server's clock
  const u = appUser(t, app.live, sub);
  const checkin = (await u.checkedIn()) as { messages: { id: string }[] };
  expect(checkin.messages.map((m) => m.id)).toEqual([surveyId]);
  expect((await u.receipt({ message_id: surveyId, variant: 'a', action: 'seen' })).status).toBe(204);
  const post = async (route: 'answers' | 'submit', answers: unknown[]) => {
    const r = await u.send('POST', `/guest/v1/surveys/${surveyId}/${route}`, { answers, variant: 'a' });
    expect(r.status, r.text).toBe(204);
  };
  return { answer: (answers: unknown[]) => post('answers', answers), submit: (answers: unknown[]) => post('submit', answers) };
}

/** The words of a refusal beside a control (its aria-describedby), once the control is marked invalid. */
async function refusalBeside(control: Locator): Promise<string> {
  await expect.poll(() => control.getAttribute('aria-invalid')).toBe('true');
  const said = control.page().locator(`#${await control.getAttribute('aria-describedby')}`);
  return (await said.textContent()) ?? '';
}

/** Scrolls the message pane (not the page) so that `el` is at its top, for a screenshot. */
const scrollPaneTo = (el: Locator) =>
  el.evaluate((node) => {
    const pane = node.closest('.message-page')!;
    pane.scrollTop += node.getBoundingClientRect().top - pane.getBoundingClientRect().top - 8;
  });

describe('surveys in the console', { timeout: 120_000 }, () => {
  it('writes a survey with a branch, shows refusals beside their fields, and reads its results', async () => {
    const { t, app, browser, errors } = suite;
    const page = await signedInConsole(browser, { url: t.url, token: app.owner, errors, viewport: { width: 1360, height: 1100 } });
    await page.goto(`${t.url}/console/messages`);
    await page.getByText('No messages yet.').waitFor();

    // A survey from a name and its first question (a score from 0 to 10).
    await page.getByRole('button', { name: 'Make a survey' }).click();
    const make = page.getByRole('form', { name: 'Make a survey' });
    await make.getByLabel('Name').fill('Checkout survey');
    await make.getByLabel('Its first question').fill('How likely are you to recommend us?');
    await make.getByRole('button', { name: 'Make the survey' }).click();
    const pane = page.locator('.message-page');
    await pane.getByRole('heading', { name: 'Checkout survey' }).waitFor();
    const id = page.url().split('/').pop()!;

    // The editor: two more steps (each added before the thank-you step, its question's words taking the focus).
    await pane.getByRole('button', { name: 'Edit the survey' }).click();
    const editor = pane.getByRole('form', { name: 'Edit the survey' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('sv-name');
    await editor.getByRole('button', { name: 'Add a step' }).click();
    await page.keyboard.type('What should we do better?');
    const second = editor.getByRole('group', { name: 'Step 2 (step-2)' });
    expect(await second.getByLabel('Question', { exact: true }).inputValue()).toBe('What should we do better?');
    await second.getByLabel('Type').selectOption({ label: 'Long text' });
    await editor.getByRole('button', { name: 'Add a step' }).click();
    await page.keyboard.type('What do you like best?');
    const third = editor.getByRole('group', { name: 'Step 3 (step-3)' });
    await third.getByLabel('Type').selectOption({ label: 'Single choice' });
    await third.getByLabel('Option 1', { exact: true }).fill('The prices');
    await third.getByLabel('Option 2', { exact: true }).fill('The plants');
    await third.getByLabel('Offer "Other"').check();
    await third.getByLabel('Write the answer to the person').fill('liked');
    // A second question on step 3: a rating drawn as stars (five points at most), not required.
    await third.getByRole('button', { name: 'Add a question to step 3' }).click();
    await page.keyboard.type('How easy was checkout?');
    const easy = third.getByRole('group', { name: 'Question 2 (q4)' });
    await easy.getByLabel('Shown as').selectOption({ label: 'Stars' });
    expect(await easy.getByLabel('To', { exact: true }).locator('option').allTextContents()).toEqual(['3', '4', '5']);
    await easy.getByLabel('Required').uncheck();
    await editor.getByRole('group', { name: 'The thank-you step (thanks)' }).waitFor();
    // Steps move by keyboard, the focus staying on the moved step's buttons.
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
    await second.getByRole('button', { name: 'Move step 2 down' }).focus();
    await page.keyboard.press('Enter');
    await editor.getByRole('group', { name: 'Step 2 (step-3)' }).waitFor();
    await expect.poll(focused).toBe('Move step 3 down');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await editor.getByRole('group', { name: 'Step 2 (step-2)' }).waitFor();
    await expect.poll(focused).toBe('Move step 2 up');

    // Step 1 branches by its score: 0 to 6 to step 2. The other scores go nowhere: refused, beside the step's branches.
    const first = editor.getByRole('group', { name: 'Step 1 (step-1)' });
    await first.getByLabel('Write the answer to the person').fill('nps_score');
    await first.getByRole('button', { name: 'Add a branch after step 1' }).click();
    const branch1 = first.getByRole('group', { name: 'Branch 1' });
    await branch1.getByLabel('From (branch 1 after step 1)').selectOption('0');
    await branch1.getByLabel('To (branch 1 after step 1)').selectOption('6');
    await branch1.getByLabel('go to', { exact: true }).selectOption({ label: 'Step 2 (step-2)' });
    await editor.getByRole('button', { name: 'Save' }).click();
    const uncovered = first.locator('[data-field="content.steps.0.branches"]');
    await uncovered.waitFor();
    expect(await uncovered.textContent()).toBe('step step-1: the ranges on question q1 must cover its scale; 7, 8, 9, 10 are in none');
    await expect.poll(() => uncovered.evaluate((el) => el === document.activeElement)).toBe(true);
    await editor.getByRole('alert').getByText('Not saved: see the fields marked below.').waitFor();
    await first.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}console-survey-refused.png` });
    expect(await seriousFindings(page)).toEqual([]);

    // 7 to 10 to step 3; step 2 ends at the thank-you step; step 3 sent back to step 1: a loop, refused beside its select.
    await first.getByRole('button', { name: 'Add a branch after step 1' }).click();
    const branch2 = first.getByRole('group', { name: 'Branch 2' });
    await branch2.getByLabel('From (branch 2 after step 1)').selectOption('7');
    await branch2.getByLabel('go to', { exact: true }).selectOption({ label: 'Step 3 (step-3)' });
    await second.getByLabel('After step 2 go to').selectOption({ label: 'The thank-you step (thanks)' });
    await third.getByLabel('After step 3 go to').selectOption({ label: 'Step 1 (step-1)' });
    await editor.getByRole('button', { name: 'Save' }).click();
    const next3 = third.getByLabel('After step 3 go to');
    expect(await refusalBeside(next3)).toBe('step step-3 leads back to step step-1: a survey may not loop');
    await expect.poll(() => next3.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await uncovered.count()).toBe(0);

    // By keyboard from the focused select: back to its default (the following step, the thank-you step), then saved.
    await next3.selectOption({ label: 'The following step (thanks)' });
    await editor.getByRole('button', { name: 'Save' }).click();
    await editor.waitFor({ state: 'detached' });
    const saved = await t.svc.db.inAppMessage.findUniqueOrThrow({ where: { id } });
    const content = (saved.variants as { content: { steps: Record<string, unknown>[] } }[])[0]!.content;
    expect(content.steps.map((s) => s.id)).toEqual(['step-1', 'step-2', 'step-3', 'thanks']);
    expect(content.steps[0]).toMatchObject({
      questions: [{ id: 'q1', type: 'nps', title: 'How likely are you to recommend us?', attribute: 'nps_score' }],
      branches: [
        { question: 'q1', range: { min: 0, max: 6 }, to: 'step-2' },
        { question: 'q1', range: { min: 7, max: 10 }, to: 'step-3' },
      ],
    });
    expect(content.steps[1]).toMatchObject({ questions: [{ id: 'q2', type: 'long_text' }], next: 'thanks' });
    expect(content.steps[2]).toMatchObject({
      questions: [
        {
          id: 'q3',
          type: 'single',
          attribute: 'liked',
          options: [
            { id: 'the-prices', label: 'The prices' },
            { id: 'the-plants', label: 'The plants' },
            { id: 'other', label: 'Other' },
          ],
        },
        { id: 'q4', type: 'rating', title: 'How easy was checkout?', display: 'stars', min: 1, max: 5, required: false },
      ],
    });
    expect(content.steps[2]!.next).toBeUndefined();

    // The editor again, as saved: axe-core, and its picture.
    await pane.getByRole('button', { name: 'Edit the survey' }).click();
    await editor.getByRole('group', { name: 'Branch 2' }).waitFor();
    expect(await seriousFindings(page)).toEqual([]);
    await scrollPaneTo(third);
    await page.screenshot({ path: `${SHOTS}console-survey-editor.png` });
    await editor.getByRole('button', { name: 'Cancel' }).click();

    // Live; four people: a promoter who completes, a detractor who completes, a passive who stops at
    // step 3, and one who only saw it.
    await pane.getByRole('button', { name: 'Go live' }).click();
    await pane.locator('.message-state', { hasText: 'Live' }).waitFor();
    const ada = await person('ada', id);
    await ada.submit([
      { question: 'q1', number: 9 },
      { question: 'q3', options: ['the-prices'] },
    ]);
    const bob = await person('bob', id);
    await bob.submit([
      { question: 'q1', number: 3 },
      { question: 'q2', text: 'Faster delivery' },
    ]);
    const cy = await person('cy', id);
    await cy.answer([{ question: 'q1', number: 8 }]);
    await person('dee', id);

    // The results beside the list.
    await pane.getByRole('link', { name: 'See the results' }).click();
    await page.waitForURL(new RegExp(`/console/messages/${id}/results$`));
    const results = page.locator('.survey-results');
    await results.getByRole('heading', { name: 'Results: Checkout survey' }).waitFor();
    const stat = (name: string) => results.locator(`[data-stat="${name}"]`);
    /** The list of the words written to a question, by its name. */
    const words = (name: string) => results.getByRole('list', { name });
    await expect.poll(() => stat('shown').textContent()).toBe('4');
    expect(await stat('started').textContent()).toBe('3 (75%)');
    expect(await stat('completed').textContent()).toBe('2 (50%)');
    const nps = results.getByRole('region', { name: 'How likely are you to recommend us?', exact: true });
    const counts = async (q: Locator) =>
      Object.fromEntries(
        await q
          .locator('.survey-result-counts > div')
          .evaluateAll((els) => els.map((el) => [el.querySelector('dt')!.textContent, el.querySelector('dd')!.textContent])),
      );
    // Everyone shown saw the first question; dee left there unanswered.
    expect(await counts(nps)).toEqual({ Views: '4', Answered: '3', Exits: '1', 'Drop-off': '25%' });
    await nps.getByText('NPS 0').waitFor();
    expect(await nps.locator('.survey-nps-groups li').allTextContents()).toEqual([
      ' Promoters (9–10): 1 (33.3%)',
      ' Passives (7–8): 1 (33.3%)',
      ' Detractors (0–6): 1 (33.3%)',
    ]);
    const row = (q: Locator, answer: string) => q.getByRole('row', { name: new RegExp(`^${answer} `) });
    expect(await row(nps, '9').allTextContents()).toEqual(['9133.3%']);
    expect(await nps.getByRole('table', { name: 'Answers to “How likely are you to recommend us?”' }).getByRole('row').count()).toBe(12);
    // Step 3 was reached by ada and cy (not by bob's branch): drop-off over its own views, not over the row before.
    const best = results.getByRole('region', { name: 'What do you like best?', exact: true });
    expect(await counts(best)).toEqual({ Views: '2', Answered: '1', Exits: '1', 'Drop-off': '50%' });
    expect(await row(best, 'The prices').allTextContents()).toEqual(['The prices1100%']);
    expect(await row(best, 'Other').allTextContents()).toEqual(['Other00%']);
    const stars = results.getByRole('region', { name: 'How easy was checkout?', exact: true });
    expect(await counts(stars)).toEqual({ Views: '2', Answered: '0', Exits: '1', 'Drop-off': '50%' });
    expect(await row(stars, '5 stars').allTextContents()).toEqual(['5 stars00%']);
    const better = results.getByRole('region', { name: 'What should we do better?', exact: true });
    expect(await counts(better)).toEqual({ Views: '1', Answered: '1', Exits: '0', 'Drop-off': '0%' });
    // The words written: bob's answer to the long text; nobody has written beside Other yet.
    const betterWords = words('Answers written to “What should we do better?”');
    await expect.poll(() => betterWords.locator('blockquote').allTextContents()).toEqual(['Faster delivery']);
    expect(await betterWords.locator('li').first().textContent()).toContain('submitted');
    const otherWords = results.getByRole('region', { name: 'Words written beside “Other” to “What do you like best?”' });
    await otherWords.getByText('Nobody has written anything yet.').waitFor();
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}console-survey-results.png` });
    await scrollPaneTo(best);
    await page.screenshot({ path: `${SHOTS}console-survey-results-choice.png` });

    // The screen open, cy finishes (Other, in her own words) and eve answers on the detractors' path
    // through the guest routes: the results and the words follow live, nothing clicked.
    await cy.submit([
      { question: 'q1', number: 8 },
      { question: 'q3', options: ['other'], other: 'The tea' },
      { question: 'q4', number: 4 },
    ]);
    await expect.poll(() => stat('completed').textContent()).toBe('3 (75%)');
    expect(await counts(best)).toEqual({ Views: '2', Answered: '2', Exits: '0', 'Drop-off': '0%' });
    expect(await row(best, 'Other').allTextContents()).toEqual(['Other150%']);
    expect(await row(stars, '4 stars').allTextContents()).toEqual(['4 stars1100%']);
    await expect
      .poll(() => words('Words written beside “Other” to “What do you like best?”').locator('blockquote').allTextContents())
      .toEqual(['The tea']);
    const eve = await person('eve', id);
    await eve.submit([
      { question: 'q1', number: 2 },
      { question: 'q2', text: 'More plants, please' },
    ]);
    await expect.poll(() => stat('shown').textContent()).toBe('5');
    await expect.poll(() => stat('completed').textContent()).toBe('4 (80%)');
    expect(await counts(better)).toEqual({ Views: '2', Answered: '2', Exits: '0', 'Drop-off': '0%' });
    await nps.getByText('NPS -25').waitFor();
    // The most recently answered first.
    await expect.poll(() => betterWords.locator('blockquote').allTextContents()).toEqual(['More plants, please', 'Faster delivery']);
    expect(await seriousFindings(page)).toEqual([]);
    await scrollPaneTo(better);
    await page.screenshot({ path: `${SHOTS}console-survey-results-words.png` });

    // 22 more people write an answer: 20 shown, the next page read as the list's end comes into view.
    const many = Array.from({ length: 22 }, (_, i) => i + 1);
    for (let i = 0; i < many.length; i += 6)
      await Promise.all(
        many.slice(i, i + 6).map(async (n) =>
          (await person(`p${n}`, id)).submit([
            { question: 'q1', number: 1 },
            { question: 'q2', text: `Answer ${n}` },
          ]),
        ),
      );
    await expect.poll(() => stat('completed').textContent()).toBe('26 (96.3%)');
    await expect.poll(() => betterWords.locator('blockquote').count()).toBe(20);
    await betterWords.getByText('Loading more…').scrollIntoViewIfNeeded();
    await expect.poll(() => betterWords.locator('blockquote').count()).toBe(24);
    expect((await betterWords.locator('blockquote').allTextContents()).sort()).toEqual(
      ['Faster delivery', 'More plants, please', ...many.map((n) => `Answer ${n}`)].sort(),
    );
    // Searched in any case.
    const search = better.getByLabel('Search the answers');
    await search.fill('answer 7');
    await expect.poll(() => betterWords.locator('blockquote').allTextContents()).toEqual(['Answer 7']);
    await search.fill('nothing like it');
    await better.getByText('No answer holds “nothing like it”.').waitFor();
    await search.fill('');
    await expect.poll(() => betterWords.locator('blockquote').count()).toBe(20);

    // "Download CSV": the responses in the order they were started (dee never answered: no row), no person named.
    const [download] = await Promise.all([page.waitForEvent('download'), results.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toBe(`survey-${id}.csv`);
    const file = await readFile((await download.path())!, 'utf8');
    expect(file.startsWith('\uFEFF')).toBe(true);
    const [header, ...rows] = parseCsv(file.slice(1));
    expect(header).toEqual([
      'started_at',
      'submitted_at',
      'variant',
      'How likely are you to recommend us?',
      'What should we do better?',
      'What do you like best?',
      'How easy was checkout?',
    ]);
    expect(rows).toHaveLength(26);
    expect(rows.slice(0, 4).map((r) => r.slice(2))).toEqual([
      ['a', '9', '', 'the-prices', ''],
      ['a', '3', 'Faster delivery', '', ''],
      ['a', '8', '', 'other (The tea)', '4'],
      ['a', '2', 'More plants, please', '', ''],
    ]);
    for (const r of rows) {
      expect(r[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
      expect(r[1]).toMatch(/^\d{4}-\d\d-\d\dT/);
    }
    expect(rows.map((r) => r[4] ?? '').filter((w) => w.startsWith('Answer '))).toHaveLength(22);
    // Its own address: read again after a reload.
    await page.reload();
    await expect.poll(() => stat('completed').textContent()).toBe('26 (96.3%)');

    // Esc goes back to the list; the survey's page links its results again.
    await page.keyboard.press('Escape');
    await page.waitForURL(/\/console\/messages$/);

    // A banner for the detractors and those who wrote beside Other: survey conditions in its audience editor.
    await page.getByRole('button', { name: 'Make a banner' }).click();
    const form = page.getByRole('form', { name: 'Make a banner' });
    await form.getByLabel('Name').fill('Sorry to hear it');
    await form.getByLabel('Text').fill('Tell us more: we read every word.');
    await form.getByRole('button', { name: 'Make the banner' }).click();
    await pane.getByRole('heading', { name: 'Sorry to hear it' }).waitFor();
    const banner = page.url().split('/').pop()!;
    await pane.getByRole('button', { name: 'Change the audience' }).click();
    const audience = pane.getByRole('form', { name: 'Change the audience' });
    await audience.getByLabel('Who sees it').selectOption({ label: 'People who match any of these' });
    await audience.getByRole('button', { name: 'Add a survey condition' }).click();
    const c1 = audience.getByRole('group', { name: "Condition 1: a survey's answers" });
    await c1.getByLabel('Condition 1: survey').selectOption({ label: 'Checkout survey' });
    await c1.getByLabel('Question').selectOption({ label: 'How likely are you to recommend us? (q1)' });
    expect(await c1.getByLabel('The person').locator('option').allTextContents()).toEqual([
      'answered it',
      'did not answer it',
      'answered within a range',
    ]);
    await c1.getByLabel('The person').selectOption({ label: 'answered within a range' });
    expect(await c1.getByLabel('From').locator('option').allTextContents()).toEqual([
      '0',
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '9',
      '10',
    ]);
    await c1.getByLabel('to', { exact: true }).selectOption('6');
    // bob, eve and the 22 who scored 1: the detractors.
    const reach = audience.locator('.audience-reach');
    await expect.poll(() => reach.textContent()).toMatch(/^Reaches 24 people now/);
    await audience.getByRole('button', { name: 'Add a survey condition' }).click();
    const c2 = audience.getByRole('group', { name: "Condition 2: a survey's answers" });
    await c2.getByLabel('Question').selectOption({ label: 'What do you like best? (q3)' });
    await c2.getByLabel('The person').selectOption({ label: 'picked any of' });
    // No option picked: refused beside the options, as the service words it.
    await audience.getByRole('button', { name: 'Save the audience' }).click();
    const optionsSaid = c2.locator('.field-error');
    await optionsSaid.waitFor();
    expect(await optionsSaid.textContent()).toContain('must be a list of 1 to 100 option ids');
    await c2.getByLabel('Other').check();
    await expect.poll(() => reach.textContent()).toMatch(/^Reaches 25 people now/);
    expect(await seriousFindings(page)).toEqual([]);
    await audience.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}console-survey-audience.png` });
    await audience.getByRole('button', { name: 'Save the audience' }).click();
    await audience.waitFor({ state: 'detached' });

    // Read back through GraphQL as the service keeps it, and shown again as read.
    const r = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${app.owner}` },
      body: JSON.stringify({ query: 'query($id: ID!) { inAppMessage(id: $id) { audience } }', variables: { id: banner } }),
    });
    expect(((await r.json()) as { data: { inAppMessage: { audience: unknown } } }).data.inAppMessage.audience).toEqual({
      any: [
        { survey: id, question: 'q1', range: { min: 0, max: 6 } },
        { survey: id, question: 'q3', options: ['other'] },
      ],
    });
    await pane.getByRole('button', { name: 'Change the audience' }).click();
    await expect.poll(() => c1.getByLabel('Question').inputValue()).toBe('q1');
    expect(await c1.getByLabel('Condition 1: survey').inputValue()).toBe(id);
    expect(await c1.getByLabel('The person').inputValue()).toBe('range');
    expect([await c1.getByLabel('From').inputValue(), await c1.getByLabel('to', { exact: true }).inputValue()]).toEqual(['0', '6']);
    expect(await c2.getByLabel('Other').isChecked()).toBe(true);
    expect(await c2.getByLabel('The prices').isChecked()).toBe(false);
    await audience.getByRole('button', { name: 'Cancel' }).click();
    expect(errors).toEqual([]);
  });
});

/** RFC 4180 rows: quoted cells may hold commas, doubled quotes and line ends. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') ((cell += '"'), i++);
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') (row.push(cell), (cell = ''));
    else if (c === '\r' && text[i + 1] === '\n') {
      (row.push(cell), rows.push(row), (row = []), (cell = ''), i++);
    } else cell += c;
  }
  if (cell || row.length) (row.push(cell), rows.push(row));
  return rows;
}
