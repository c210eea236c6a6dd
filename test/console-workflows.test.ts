import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { seriousFindings } from './support/browser.js';
import { consoleSuite, SHOTS, signedInConsole } from './support/console.js';
import { serverApi, unique } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { settle } from './support/workflows.js';

// The console's workflows: one made from the list by its name and written in the step editor (an
// event trigger, entry again after 30 days, a goal event; wait → branch on an attribute → end, the
// steps added by kind and one moved up), saved and read back through GraphQL as meant; published
// and refused with the problem beside the way on it names (a branch's "no" not chosen) and in the
// summary above, the field taking the focus; then refused for a step no path reaches (said at the top
// of that step's card), which is removed; published as version 1, listed with its time; paused and
// resumed. Work not saved outlives a reload of the tab. axe-core on the list, the refused editor and
// the published page; screenshots test/screenshots/console-workflows*.png. Then, on a workflow's
// versions, "Move waiting runs to version 2": confirmed in a dialog, its answer says how many runs
// were asked and which stay (their step gone), and the moved run shows version 2 among the runs.

const suite = consoleSuite(async ({ t, app }) => {
  const api = staffApi(
    () => t.url,
    () => app.owner,
  );
  await api.ok('mutation($m: ID!) { defineAttribute(appModeId: $m, name: "plan", type: string) { name } }', { m: app.modes.live });
});

/** The words of a refusal beside a control (its aria-describedby), once the control is marked invalid. */
async function refusalBeside(control: Locator): Promise<string> {
  await expect.poll(() => control.getAttribute('aria-invalid')).toBe('true');
  const said = control.page().locator(`#${await control.getAttribute('aria-describedby')}`);
  return (await said.textContent()) ?? '';
}

/** Adds a step of a kind (by the words of its kind) with the keyboard: its key field takes the focus, and is typed over. */
async function addStep(page: Page, kind: string, key: string) {
  await page.getByLabel('Kind of the new step').selectOption({ label: kind });
  await page.getByRole('button', { name: 'Add the step' }).press('Enter');
  await expect.poll(() => page.evaluate(() => document.activeElement?.id ?? '')).toMatch(/^wf-s\d+-key$/);
  await page.keyboard.press('Control+a');
  await page.keyboard.type(key);
}

const card = (page: Page, name: RegExp) => page.getByRole('group', { name });

describe('workflows in the console', { timeout: 120_000 }, () => {
  it('makes a workflow, builds its steps, is refused beside the step named, publishes it, pauses and resumes it', async () => {
    const { t, app, browser, errors } = suite;
    const api = staffApi(
      () => t.url,
      () => app.owner,
    );
    const page = await signedInConsole(browser, { url: t.url, token: app.owner, errors, viewport: { width: 1360, height: 1400 } });
    await page.goto(`${t.url}/console/inbox/open`);
    await page.getByRole('navigation', { name: 'Screens' }).getByRole('link', { name: 'Workflows' }).click();
    await page.waitForURL(/\/console\/workflows$/);
    await page.getByText('No workflows yet.').waitFor();
    expect(await seriousFindings(page)).toEqual([]);

    // New workflow: a name, then it opens.
    await page.getByRole('button', { name: 'New workflow' }).click();
    const make = page.getByRole('form', { name: 'New workflow' });
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('INPUT');
    await page.keyboard.type('Welcome series');
    await make.getByRole('button', { name: 'Make the workflow' }).click();
    await page.waitForURL(/\/console\/workflows\/[0-9a-f-]{36}$/);
    const id = page.url().split('/').pop()!;
    const pane = page.locator('.workflow-page');
    await pane.getByRole('heading', { name: 'Welcome series', level: 2 }).waitFor();
    await pane.getByText('Publish it to take people').waitFor();
    await page
      .getByRole('list', { name: 'Workflows' })
      .locator('a.row', { hasText: 'Welcome series' })
      .getByText('not published')
      .waitFor();
    await pane.getByRole('region', { name: 'Runs' }).getByText('No runs yet: a run starts when a person does the trigger.').waitFor();

    // Trigger, entry and exit.
    const editor = pane.getByRole('form', { name: 'The workflow' });
    expect(await editor.getByLabel('A run starts when').inputValue()).toBe('event');
    await editor.getByLabel('Event name').fill('signed_up');
    await editor.getByRole('radio', { name: /^Again, once some days/ }).check();
    await editor.getByLabel(/^Days before they may enter again/).fill('30');
    await editor.getByLabel(/^Goal event/).fill('upgraded');

    // Steps: a wait, an end, then a branch moved up between them (its move button keeps the focus).
    await addStep(page, 'Wait', 'pause');
    const wait = card(page, /^Step 1: pause \(Wait\)/);
    await wait.getByLabel('Wait for', { exact: true }).fill('2');
    await wait.getByLabel('Unit', { exact: true }).selectOption('days');
    await addStep(page, 'End', 'done');
    await card(page, /^Step 2: done \(End\)/)
      .getByLabel(/^Outcome/)
      .fill('welcomed');
    await addStep(page, 'Branch', 'is_pro');
    const branch = card(page, /^Step 3: is_pro \(Branch\)/);
    await branch.getByRole('button', { name: 'Add a condition' }).click();
    expect(await branch.getByLabel('Condition 1', { exact: true }).inputValue()).toBe('attribute:plan');
    await branch.getByLabel('Operator', { exact: true }).selectOption('is');
    await branch.getByLabel('Value', { exact: true }).fill('pro');
    await branch.getByRole('button', { name: 'Move step 3 up' }).press('Enter');
    await card(page, /^Step 2: is_pro \(Branch\)/).waitFor();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Move step 2 up');
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Step moved to place 2 of 3.' }).count()).toBe(1);

    // The ways on: the wait to the branch, the branch's yes to the end; its no is left unchosen.
    const waitNext = card(page, /^Step 1: pause/).getByLabel('Then go to');
    expect(await waitNext.locator('option').allTextContents()).toEqual(['Choose a step', 'Step 2: is_pro (Branch)', 'Step 3: done (End)']);
    await waitNext.selectOption({ label: 'Step 2: is_pro (Branch)' });
    const pro = card(page, /^Step 2: is_pro/);
    await pro.getByLabel('When the condition holds, go to').selectOption({ label: 'Step 3: done (End)' });
    await editor.getByRole('button', { name: 'Save' }).click();
    await editor.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();

    // What was saved is what was meant.
    const draftOf = async () =>
      (await api.ok('query($id: ID!) { workflow(id: $id) { name state liveVersion draft } }', { id })).workflow as {
        name: string;
        state: string;
        liveVersion: number | null;
        draft: unknown;
      };
    const meant = {
      trigger: { kind: 'event', event: 'signed_up' },
      entry: { againAfterDays: 30 },
      exit: { goalEvent: 'upgraded' },
      steps: [
        { key: 'pause', kind: 'wait', seconds: 2 * 86_400, next: 'is_pro' },
        { key: 'is_pro', kind: 'branch', condition: { all: [{ attribute: 'plan', op: 'is', value: 'pro' }] }, yes: 'done' },
        { key: 'done', kind: 'end', outcome: 'welcomed' },
      ],
    };
    expect(await draftOf()).toEqual({ name: 'Welcome series', state: 'draft', liveVersion: null, draft: meant });

    // Publish: refused, the branch's "no" named, beside its select (which takes the focus) and above the form.
    await editor.getByRole('button', { name: 'Publish' }).click();
    const no = pro.getByLabel('Otherwise go to');
    expect(await refusalBeside(no)).toMatch(/must name a step/);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe(await no.getAttribute('id'));
    const summary = editor.getByRole('alert');
    await summary.getByText('Not published: one problem, each marked below.').waitFor();
    expect(await summary.getByRole('list', { name: 'Problems' }).textContent()).toMatch(
      /^Step 2: is_pro \(Branch\), where it goes otherwise: must name a step/,
    );
    expect(await seriousFindings(page)).toEqual([]);
    await no.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}console-workflows-refused.png` });
    await summary.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}console-workflows-summary.png` });
    expect((await draftOf()).liveVersion).toBeNull();

    // Fixed; but a step no path reaches is refused at the top of its card.
    await no.selectOption({ label: 'Step 3: done (End)' });
    await addStep(page, 'Tag', 'tag_late');
    const late = card(page, /^Step 4: tag_late \(Tag\)/);
    await late.getByLabel('Tag', { exact: true }).fill('welcomed');
    await late.getByLabel('Then go to').selectOption({ label: 'Step 3: done (End)' });
    await editor.getByRole('button', { name: 'Publish' }).click();
    const unreached = late.locator('.survey-said');
    await unreached.waitFor();
    await page.screenshot({ path: `${SHOTS}console-workflows-unreached.png` });
    expect(await unreached.textContent()).toMatch(/tag_late cannot be reached from the first step \(pause\)/);
    await expect.poll(() => page.evaluate(() => document.activeElement?.className)).toContain('survey-said');
    expect(await summary.textContent()).toMatch(/Step 4: tag_late \(Tag\): step tag_late cannot be reached/);
    // The draft as written was saved even so.
    expect(((await draftOf()).draft as { steps: unknown[] }).steps).toHaveLength(4);

    // A send step: a notice or a push is written in the step (its words and topic), an email or in-app message named by id.
    await addStep(page, 'Send a message', 'tell_late');
    const tell = card(page, /^Step 5: tell_late \(Send a message\)/);
    expect(await tell.getByLabel('Channel').inputValue()).toBe('notice');
    await tell.getByLabel('Title', { exact: true }).fill('Welcome aboard');
    await tell.getByLabel(/^Link/).fill('/start');
    await tell.getByLabel(/^Topic/).fill('news');
    expect(await seriousFindings(page)).toEqual([]);
    await tell.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}console-workflows-send.png` });
    // Only in office hours on the person's clock, skipped outside them: a window ending before it starts is refused beside "Until".
    await tell.getByLabel("Only on some days and hours, in the person's own time zone").check();
    await tell.getByLabel('Outside them').selectOption('skip');
    await tell.getByLabel('Until').fill('08:00');
    await editor.getByRole('button', { name: 'Publish' }).click();
    await tell.getByText('must be after from').waitFor();
    expect(await tell.getByLabel('Until').getAttribute('aria-invalid')).toBe('true');
    expect(((await draftOf()).draft as { steps: Record<string, unknown>[] }).steps[4]).toMatchObject({
      sendingWindow: { days: [1, 2, 3, 4, 5], from: '09:00', to: '08:00' },
      outsideWindow: 'skip',
    });
    await tell.getByLabel('Until').fill('17:00');
    await tell.getByLabel('Sat').check();
    expect(await seriousFindings(page)).toEqual([]);
    await tell.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}console-workflows-window.png` });
    await tell.getByLabel('Channel').selectOption('email');
    await tell.getByLabel(/^Message id/).waitFor();
    expect(await tell.getByLabel('Title', { exact: true }).count()).toBe(0);
    await tell.getByLabel('Channel').selectOption('push');
    expect(await tell.getByLabel('Title', { exact: true }).inputValue()).toBe('Welcome aboard');
    await tell.getByRole('button', { name: 'Remove step 5' }).click();

    // Removed, and published: version 1, live.
    await late.getByRole('button', { name: 'Remove step 4' }).click();
    await editor.getByRole('button', { name: 'Publish' }).click();
    await editor.getByRole('status').filter({ hasText: 'Published as version 1: new runs start on it.' }).waitFor();
    await expect.poll(() => editor.getByRole('alert').count()).toBe(0);
    const versions = pane.getByRole('list', { name: 'Versions' });
    await versions.getByText('Version 1').waitFor();
    expect(await versions.locator('li').count()).toBe(1);
    expect(await versions.locator('li time').getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT/);
    await pane.locator('.message-head [data-state="live"]').waitFor();
    await pane.getByText('new runs start on version 1').waitFor();
    await page.getByRole('list', { name: 'Workflows' }).locator('a.row', { hasText: 'Welcome series' }).getByText('version 1').waitFor();
    const published = (
      await api.ok('query($id: ID!) { workflow(id: $id) { state liveVersion draft versions { edges { node { number definition } } } } }', {
        id,
      })
    ).workflow;
    const fixed = {
      ...meant,
      steps: [meant.steps[0], { ...meant.steps[1], no: 'done' }, meant.steps[2]],
    };
    expect(published.draft).toEqual(fixed);
    expect(published).toMatchObject({ state: 'live', liveVersion: 1 });
    expect(published.versions.edges.map((e: { node: { number: number } }) => e.node.number)).toEqual([1]);
    // The version as the service read it: entry spelled out, the condition with its attribute's type.
    expect(published.versions.edges[0].node.definition).toEqual({
      ...fixed,
      entry: { once: false, againAfterDays: 30 },
      steps: [
        fixed.steps[0],
        { ...fixed.steps[1], condition: { all: [{ attribute: 'plan', op: 'is', value: 'pro', type: 'string' }] } },
        fixed.steps[2],
      ],
    });
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}console-workflows-published.png` });

    // Paused, then resumed.
    await pane.getByRole('button', { name: 'Pause' }).click();
    await pane.locator('.message-head [data-state="paused"]').waitFor();
    await page.getByRole('list', { name: 'Workflows' }).locator('a.row', { hasText: 'Welcome series' }).getByText('Paused').waitFor();
    expect((await draftOf()).state).toBe('paused');
    await pane.getByRole('button', { name: 'Resume' }).click();
    await pane.locator('.message-head [data-state="live"]').waitFor();
    expect((await draftOf()).state).toBe('live');

    // Work not saved outlives a reload, and can be dropped for the saved draft.
    await editor.getByLabel('Event name').fill('signed_up_twice');
    await editor.getByRole('status').filter({ hasText: 'Changes not saved yet.' }).waitFor();
    await page.reload();
    const again = page.getByRole('form', { name: 'The workflow' });
    await again.getByText('Changes you had not saved are shown.').waitFor();
    expect(await again.getByLabel('Event name').inputValue()).toBe('signed_up_twice');
    expect(((await draftOf()).draft as typeof meant).trigger.event).toBe('signed_up');
    await again.getByRole('button', { name: 'Go back to the saved draft' }).click();
    expect(await again.getByLabel('Event name').inputValue()).toBe('signed_up');

    // The list, by the keyboard: Esc goes back to it, j and Enter open the workflow again.
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Escape');
    await page.waitForURL(/\/console\/workflows$/);
    await page.keyboard.press('j');
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/console/workflows/${id}$`));
    expect(errors).toEqual([]);
  });

  it('moves the runs waiting on an older version to the live one, once confirmed, saying which stay', async () => {
    const { t, app, browser, errors } = suite;
    const api = staffApi(
      () => t.url,
      () => app.owner,
    );
    const event = unique('trial');
    const steps = (v: number) => [
      {
        key: 'start',
        kind: 'branch',
        condition: { attribute: 'plan', op: 'is', value: 'pro' },
        yes: 'nap',
        no: v === 1 ? 'linger' : 'nap',
      },
      { key: 'nap', kind: 'wait', seconds: 3600, next: 'done' },
      ...(v === 1 ? [{ key: 'linger', kind: 'wait', seconds: 3600, next: 'done' }] : []),
      { key: 'done', kind: 'end', outcome: `v${v}` },
    ];
    const { createWorkflow } = await api.ok('mutation($m: ID!, $i: WorkflowInput!) { createWorkflow(appModeId: $m, input: $i) { id } }', {
      m: app.modes.live,
      i: { name: 'Trial nudges', definition: { trigger: { kind: 'event', event }, steps: steps(1) } },
    });
    const id = createWorkflow.id as string;
    await api.ok('mutation($id: ID!) { publishWorkflow(id: $id) { id } }', { id });
    const server = serverApi(t, app.live.server_key);
    const [pro, free] = [unique('pro'), unique('free')];
    await server.identify(pro, { attributes: { plan: 'pro' } });
    await server.identify(free, { attributes: { plan: 'free' } });
    const sent = await server.sendEvents(
      [pro, free].map((external_id) => ({ id: unique('ev'), external_id, name: event, at: t.clock.now().toISOString() })),
    );
    expect(sent.rejected).toEqual([]);
    await settle(t);
    await api.ok('mutation($id: ID!, $i: WorkflowInput!) { changeWorkflow(id: $id, input: $i) { id } }', {
      id,
      i: { definition: { trigger: { kind: 'event', event }, steps: steps(2) } },
    });
    await api.ok('mutation($id: ID!) { publishWorkflow(id: $id) { id } }', { id });

    const page = await signedInConsole(browser, { url: t.url, token: app.owner, errors, viewport: { width: 1360, height: 1000 } });
    await page.goto(`${t.url}/console/workflows/${id}`);
    const versions = page.locator('.workflow-versions');
    await versions.getByRole('list', { name: 'Versions' }).getByText('Version 2').waitFor();
    await versions.getByRole('button', { name: 'Move waiting runs to version 2' }).click();
    const dialog = page.getByRole('dialog', { name: 'Move waiting runs to version 2?' });
    await dialog.getByText('Runs at a step version 2 lacks stay on their version.').waitFor();
    expect(await seriousFindings(page)).toEqual([]);
    // Cancel leaves it: nothing asked.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await t.svc.db.outboxEvent.count({ where: { topic: 'workflow.runs_moved', appModeId: app.modes.live } })).toBe(0);

    await versions.getByRole('button', { name: 'Move waiting runs to version 2' }).click();
    await dialog.getByRole('button', { name: 'Move to version 2' }).click();
    const said = versions.getByRole('status');
    await said.getByText('1 run asked to move to version 2').waitFor();
    await said.getByText('1 run stays on its version: the step it waits at is not in version 2.').waitFor();
    expect(await said.getByRole('list', { name: 'Runs that stay' }).textContent()).toBe('1 run on version 1 at linger');
    expect(await seriousFindings(page)).toEqual([]);
    await page.screenshot({ path: `${SHOTS}console-workflows-moved.png` });

    // The run moves; the runs, read again, show it on version 2 and the other on version 1.
    await settle(t);
    await expect
      .poll(async () =>
        (
          await api.ok('query($w: ID!) { workflowRuns(workflowId: $w) { edges { node { step versionNumber } } } }', { w: id })
        ).workflowRuns.edges
          .map((e: { node: { step: string; versionNumber: number } }) => `${e.node.step}:${e.node.versionNumber}`)
          .sort(),
      )
      .toEqual(['linger:1', 'nap:2']);
    const runs = page.locator('.workflow-runs');
    await runs.getByRole('button', { name: 'Read again' }).click();
    await runs.getByText('version 2').waitFor();
    await runs.getByText('version 1').waitFor();
    expect(errors).toEqual([]);
  });
});
