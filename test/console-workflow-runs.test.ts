import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousFindings } from './support/browser.js';
import { consoleSuite, SHOTS, signedInConsole } from './support/console.js';
import { serverApi, unique } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { settle } from './support/workflows.js';

// The console's run views, over runs made for real: two workflows published through the staff API
// ("Welcome": tag vip → wait an hour → end; "Tidy": remove a tag the person lacks → end), people
// identified and their `signed_up` sent to the server API, the embedded engine let run. A workflow's
// Runs list shows each run's person, state and the step it is at (Bo waiting at `wait`, until an hour
// on; Ada's run ended, outcome done), newest first; the state filter shows only waiting or ended
// runs; a run's steps ("why") open from the keyboard, the skipped tag's reason `unchanged` in plain
// words. A person's page lists their runs of both workflows with the same view. axe-core on each;
// screenshots test/screenshots/console-workflow-runs*.png.

const HOUR = 3600;
/** The workflows made, and when Bo's wait ends. */
const ids = { welcome: '', tidy: '' };
const waitUntil = { bo: new Date(0) };

const suite = consoleSuite(async ({ t, app }) => {
  const api = staffApi(
    () => t.url,
    () => app.owner,
  );
  const publish = async (name: string, definition: unknown) => {
    const made = await api.ok('mutation($m: ID!, $i: WorkflowInput!) { createWorkflow(appModeId: $m, input: $i) { id } }', {
      m: app.modes.live,
      i: { name, definition },
    });
    await api.ok('mutation($id: ID!) { publishWorkflow(id: $id) { liveVersion } }', { id: made.createWorkflow.id });
    return made.createWorkflow.id as string;
  };
  ids.welcome = await publish('Welcome', {
    trigger: { kind: 'event', event: 'signed_up' },
    steps: [
      { key: 'vip', kind: 'tag', action: 'add', tag: 'vip', next: 'wait' },
      { key: 'wait', kind: 'wait', seconds: HOUR, next: 'done' },
      { key: 'done', kind: 'end' },
    ],
  });
  ids.tidy = await publish('Tidy', {
    trigger: { kind: 'event', event: 'signed_up' },
    steps: [
      { key: 'untag', kind: 'tag', action: 'remove', tag: 'trial', next: 'tidied' },
      { key: 'tidied', kind: 'end', outcome: 'tidied' },
    ],
  });

  const server = serverApi(t, app.live.server_key);
  const signUp = async (externalId: string) => {
    const sent = await server.sendEvents([
      { id: unique('ev'), external_id: externalId, name: 'signed_up', at: t.clock.now().toISOString() },
    ]);
    expect(sent.rejected).toEqual([]);
    await settle(t);
  };
  await server.identify('ada', { display_name: 'Ada Lovelace', email: 'ada@example.com' });
  await server.identify('bo', { display_name: 'Bo Diddley', email: 'bo@example.com' });
  // Ada signs up and her hour passes: her Welcome ends. An hour later Bo signs up: his waits at `wait`.
  await signUp('ada');
  t.clock.advance((HOUR + 1) * 1000);
  await settle(t);
  t.clock.advance(60_000);
  await signUp('bo');
  const states = await api.ok('query($w: ID!) { workflowRuns(workflowId: $w) { edges { node { state step contact { externalId } } } } }', {
    w: ids.welcome,
  });
  expect(states.workflowRuns.edges.map((e: { node: unknown }) => e.node)).toEqual([
    { state: 'waiting', step: 'wait', contact: { externalId: 'bo' } },
    { state: 'ended', step: 'done', contact: { externalId: 'ada' } },
  ]);
  waitUntil.bo = new Date(t.clock.now().getTime() + HOUR * 1000);
});

/** A date as the console writes it on a page (en-US in Berlin, as the tests' browser). */
const shown = (d: Date) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/Berlin' }).format(d);

/** The rows of a run list, each as its text squeezed to single spaces. */
async function rowTexts(page: Page, list: string): Promise<string[]> {
  const texts = await page.getByRole('list', { name: list, exact: true }).locator(':scope > li.run-row').allInnerTexts();
  return texts.map((x) => x.replace(/\s+/g, ' ').trim());
}

describe('workflow runs in the console', { timeout: 120_000 }, () => {
  it('lists a workflow’s runs by state, shows why each step went as it did, and lists a person’s runs on their page', async () => {
    const { t, app, browser, errors } = suite;
    const page = await signedInConsole(browser, { url: t.url, token: app.owner, errors, viewport: { width: 1360, height: 1100 } });

    // The Welcome workflow's runs: Bo's waiting at `wait` (newest first), Ada's ended.
    await page.goto(`${t.url}/console/workflows/${ids.welcome}`);
    const runs = page.getByRole('region', { name: 'Runs' });
    await runs.getByRole('list', { name: 'Runs', exact: true }).waitFor();
    let rows = await rowTexts(page, 'Runs');
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatch(/^Bo Diddley Waiting version 1 started .+ At step wait since .+, waiting until (.+)\. Why: the steps/);
    expect(rows[0]).toContain(`waiting until ${shown(waitUntil.bo)}.`);
    expect(rows[1]).toMatch(/^Ada Lovelace Ended version 1 started .+ Ended at step done on .+, outcome done\./);

    // The filter: waiting runs only, then ended ones, then every run again.
    const filter = runs.getByLabel('Show');
    expect(await filter.locator('option').allTextContents()).toEqual(['Every run', 'Active', 'Waiting', 'Parked', 'Ended']);
    await filter.selectOption({ label: 'Waiting' });
    await expect.poll(() => rowTexts(page, 'Runs')).toEqual([expect.stringMatching(/^Bo Diddley Waiting/)]);
    await filter.selectOption({ label: 'Ended' });
    await expect.poll(() => rowTexts(page, 'Runs')).toEqual([expect.stringMatching(/^Ada Lovelace Ended/)]);
    await filter.selectOption({ label: 'Parked' });
    await runs.getByText('No parked runs.').waitFor();
    await filter.selectOption({ label: 'Every run' });
    await expect.poll(async () => (await rowTexts(page, 'Runs')).length).toBe(2);

    // Bo's steps, opened from the keyboard: the tag added, the wait he is at.
    const why = runs.getByRole('button', { name: 'Why: the steps of Bo Diddley’s run' });
    await why.focus();
    await page.keyboard.press('Enter');
    const hide = runs.getByRole('button', { name: 'Hide the steps of Bo Diddley’s run' });
    expect(await hide.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-expanded'))).toBe('true');
    const boSteps = page.getByRole('list', { name: 'Steps of Bo Diddley’s run of Welcome' });
    const stepTexts = async (list: typeof boSteps) =>
      (await list.locator(':scope > li').allInnerTexts()).map((x) => x.replace(/\s+/g, ' ').trim());
    const bo = await stepTexts(boSteps);
    expect(bo).toHaveLength(2);
    expect(bo[0]).toMatch(/^vip Tag Done /);
    expect(bo[1]).toMatch(/^wait Wait At it now /);
    expect(await hide.getAttribute('aria-controls')).toBe(await boSteps.getAttribute('id'));
    expect(await seriousFindings(page)).toEqual([]);
    await runs.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}console-workflow-runs.png` });

    // Tidy: the tag Ada lacks is skipped, and why is said in words, with the code.
    await page.goto(`${t.url}/console/workflows/${ids.tidy}`);
    await runs.getByRole('list', { name: 'Runs', exact: true }).waitFor();
    rows = await rowTexts(page, 'Runs');
    expect(rows).toEqual([
      expect.stringMatching(/^Bo Diddley Ended .+ Ended at step tidied on .+, outcome tidied\./),
      expect.stringMatching(/^Ada Lovelace Ended .+ outcome tidied\./),
    ]);
    await runs.getByRole('button', { name: 'Why: the steps of Ada Lovelace’s run' }).click();
    const adaSteps = page.getByRole('list', { name: 'Steps of Ada Lovelace’s run of Tidy' });
    const ada = await stepTexts(adaSteps);
    expect(ada[0]).toMatch(
      /^untag Tag Skipped Why: Nothing to change: the person already had it so \(the tag already there, or already absent; the value already set\) \(unchanged\)/,
    );
    expect(ada).toHaveLength(1);
    expect(await seriousFindings(page)).toEqual([]);
    await adaSteps.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}console-workflow-runs-why.png` });

    // The person's page, from the run's person: their runs of both workflows, newest first, with the same view.
    await runs.getByRole('link', { name: 'Ada Lovelace' }).click();
    await page.waitForURL(/\/console\/contacts\/[0-9a-f-]{36}$/);
    const theirs = page.getByRole('region', { name: 'Workflows' });
    await theirs.getByRole('list', { name: 'Their workflow runs' }).waitFor();
    const mine = await rowTexts(page, 'Their workflow runs');
    expect(mine).toHaveLength(2);
    expect(mine.map((r) => r.split(' ')[0]).sort()).toEqual(['Tidy', 'Welcome']);
    expect(mine.find((r) => r.startsWith('Welcome'))).toMatch(/Ended at step done on .+, outcome done\./);
    await theirs.getByRole('button', { name: 'Why: the steps of the run of Tidy' }).press('Enter');
    const onPage = await stepTexts(page.getByRole('list', { name: 'Steps of Ada Lovelace’s run of Tidy' }));
    expect(onPage[0]).toContain(
      'Why: Nothing to change: the person already had it so (the tag already there, or already absent; the value already set) (unchanged)',
    );
    await theirs.getByRole('button', { name: 'Why: the steps of the run of Welcome' }).press('Enter');
    const welcome = await stepTexts(page.getByRole('list', { name: 'Steps of Ada Lovelace’s run of Welcome' }));
    expect(welcome.map((s) => s.split(' ').slice(0, 3).join(' '))).toEqual(['vip Tag Done', 'wait Wait Waited']);
    // The workflow's name goes to its page.
    expect(await theirs.getByRole('link', { name: 'Welcome' }).getAttribute('href')).toBe(`/console/workflows/${ids.welcome}`);
    expect(await seriousFindings(page)).toEqual([]);
    await theirs.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}console-workflow-runs-person.png` });
    expect(errors).toEqual([]);
  });
});
