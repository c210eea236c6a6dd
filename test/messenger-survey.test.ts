import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateSettings } from '../src/domain/apps/settings.js';
import { releaseBrowser, seriousFindings, sharedBrowser } from './support/browser.js';
import { staffApp, type StaffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { inAppStaff } from './support/inapp.js';
import { customerSites } from './support/messenger.js';
import { startAddressedServer, type TestServer } from './support/server.js';

// A survey from the check-in, drawn by the web messenger on a customer's page in headless Chromium:
// the score branches to its own next question, a required question is asked for before going on,
// "Other" takes the person's own words, the answers are submitted once and kept by the service,
// and the thank-you step ends it. Screenshots: test/screenshots/messenger-survey*.png.

const SHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

const para = (text: string) => ({ type: 'paragraph', spans: [{ text }] });
const SURVEY = {
  steps: [
    {
      id: 'score',
      questions: [{ id: 'nps', type: 'nps', title: 'How likely are you to recommend us to a friend?' }],
      branches: [
        { question: 'nps', range: { min: 0, max: 6 }, to: 'why' },
        { question: 'nps', range: { min: 7, max: 10 }, to: 'liked' },
      ],
    },
    { id: 'why', questions: [{ id: 'why', type: 'long_text', title: 'What should we do better?' }], next: 'thanks' },
    {
      id: 'liked',
      questions: [
        {
          id: 'best',
          type: 'single',
          title: 'What do you like best?',
          options: [
            { id: 'prices', label: 'The prices' },
            { id: 'plants', label: 'The plants' },
            { id: 'other', label: 'Something else' },
          ],
        },
      ],
      next: 'thanks',
    },
    { id: 'thanks', thankYou: true, blocks: [para('Thank you for telling us!')] },
  ],
};

let t: TestServer;
let app: StaffApp;
let browser: Browser;
let site: string;
let surveyId: string;
const { website, close: closeSites } = customerSites(
  () => t,
  () => app,
);

beforeAll(async () => {
  t = await startAddressedServer();
  app = await staffApp(t, 'Acme');
  site = await website('survey-user-1');
  await updateSettings(t.ctx, app.modes.live, { webOrigins: [site] });
  surveyId = (
    await inAppStaff(
      () => t,
      () => app.owner,
    ).live(app.modes.live, 'survey', { content: SURVEY })
  ).id;
  browser = await sharedBrowser();
  mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  await releaseBrowser(browser);
  closeSites();
  await t?.close();
});

describe('a survey in the web messenger', { timeout: 60_000 }, () => {
  it('follows the branch the score takes, asks for a required answer, takes Other’s words and submits once', async () => {
    const page = await browser.newPage({ viewport: { width: 360, height: 740 } });
    const submits: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith(`/surveys/${surveyId}/submit`)) submits.push(r.url());
    });
    await page.goto(site);
    const survey = page.locator('[data-crm-messenger] .survey[role="dialog"]');
    await survey.getByRole('group', { name: 'How likely are you to recommend us to a friend?' }).waitFor();
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}messenger-survey.png` });

    // Going on with nothing chosen asks for the answer, and nothing is sent.
    await survey.getByRole('button', { name: 'Next' }).click();
    await survey.getByRole('alert').getByText('Please answer this question.').waitFor();
    await survey.getByRole('button', { name: '9 out of 10' }).click();
    expect(await survey.getByRole('button', { name: '9 out of 10' }).getAttribute('aria-pressed')).toBe('true');
    await survey.getByRole('button', { name: 'Next' }).click();

    // A 9 goes to what they like best (not to what should be better), the last step: its button sends.
    await survey.getByRole('group', { name: 'What do you like best?' }).waitFor();
    await survey.getByLabel('Something else').check();
    await survey.getByLabel('Your own words').fill('The 🌱 seedlings, and the café');
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}messenger-survey-choice.png` });
    await survey.getByRole('button', { name: 'Send' }).click();

    await survey.getByText('Thank you for telling us!').waitFor();
    await survey.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => survey.count()).toBe(0);
    expect(submits).toHaveLength(1);

    const contact = await t.svc.db.contact.findUniqueOrThrow({
      where: { appModeId_externalId: { appModeId: app.modes.live, externalId: 'survey-user-1' } },
    });
    const kept = await t.svc.db.surveyResponse.findFirstOrThrow({ where: { messageId: surveyId, contactId: contact.id } });
    expect(kept.submittedAt).not.toBeNull();
    expect(kept.path).toEqual(['score', 'liked', 'thanks']);
    expect(
      (kept.answers as { question: string }[]).map(({ question, ...a }) => [
        question,
        (a as Record<string, unknown>).number ?? (a as Record<string, unknown>).options,
      ]),
    ).toEqual([
      ['nps', 9],
      ['best', ['other']],
    ]);
    expect((kept.answers as { other?: string }[])[1]!.other).toBe('The 🌱 seedlings, and the café');

    // Staff read the results: shown once, started, completed; the score's branch viewed, the other not.
    const { surveyResults } = await staffApi(
      () => t.url,
      () => app.owner,
    ).ok(
      'query($id: ID!) { surveyResults(messageId: $id) { variant shown started completed questions { question views exits dropOff answered nps { score answered } distribution { value count } } } }',
      { id: surveyId },
    );
    expect(surveyResults).toHaveLength(1);
    expect(surveyResults[0]).toMatchObject({ shown: 1, started: 1, completed: 1 });
    const by = Object.fromEntries(surveyResults[0].questions.map((q: { question: string }) => [q.question, q]));
    expect(by.nps).toMatchObject({ views: 1, exits: 0, dropOff: 0, answered: 1, nps: { score: 100, answered: 1 } });
    expect(by.why).toMatchObject({ views: 0, exits: 0, dropOff: null });
    expect(by.best.distribution).toEqual([
      { value: 'prices', count: 0 },
      { value: 'plants', count: 0 },
      { value: 'other', count: 1 },
    ]);
    await page.close();
  });
});
