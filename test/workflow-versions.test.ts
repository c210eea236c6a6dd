import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exec, sql } from '../src/db/sql.js';
import { systemContext } from '../src/domain/context.js';
import { MAX_MOVED, MOVE_PAGE, RUNS_MOVED, runsToMove } from '../src/domain/workflows/run-moves.js';
import { serverApi, staffApp, unique, type StaffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { settle, workflowsIn } from './support/workflows.js';
import { ENGINES, sayIfTemporalSkipped, startTestServer, type TestServer } from './support/server.js';

// Versions of a workflow, black-box, on both engines: publishing makes a new version while a run
// under way keeps walking the version it began on; staff move the waiting and parked runs on older
// versions to the live version (moveWorkflowRuns), each where the step it waits at is still there:
// it keeps its timer and walks the new version's steps from that step, its record showing the new
// version. A run waiting at a step the new version lacks stays, counted in the answer; runs of
// another workflow or app-mode are untouched; another workspace's workflow is not found.

sayIfTemporalSkipped('test/workflow-versions.test.ts');

let t: TestServer;
let app: StaffApp;
let api: ReturnType<typeof staffApi>;
const { runOf, workflow } = workflowsIn(
  () => api,
  () => app.modes.live,
);

const MOVE = `mutation($w: ID!) { moveWorkflowRuns(workflowId: $w) { versionNumber moving notYet staying stayingAt { versionNumber step runs } } }`;

async function publish(id: string, definition?: unknown) {
  if (definition)
    await api.ok('mutation($id: ID!, $i: WorkflowInput!) { changeWorkflow(id: $id, input: $i) { id } }', { id, i: { definition } });
  await api.ok('mutation($id: ID!) { publishWorkflow(id: $id) { liveVersion } }', { id });
}

async function enter(serverKey: string, event: string, ...people: string[]) {
  const sent = await serverApi(t, serverKey).sendEvents(
    people.map((external_id) => ({ id: unique('ev'), external_id, name: event, at: t.clock.now().toISOString() })),
  );
  expect(sent.rejected).toEqual([]);
}

/** Each lane of people waits at its own step: `nap` (a wait), `linger` (a wait only v1 has), `listen` (parked on an event). */
const v1 = (event: string) => ({
  trigger: { kind: 'event', event },
  steps: [
    { key: 'start', kind: 'branch', condition: { attribute: 'lane', op: 'is', value: 'park' }, yes: 'listen', no: 'which' },
    { key: 'which', kind: 'branch', condition: { attribute: 'lane', op: 'is', value: 'gone' }, yes: 'linger', no: 'nap' },
    { key: 'nap', kind: 'wait', seconds: 600, next: 'old_tag' },
    { key: 'linger', kind: 'wait', seconds: 600, next: 'old_tag' },
    { key: 'listen', kind: 'wait_for_event', event: 'clicked', next: 'old_tag' },
    { key: 'old_tag', kind: 'tag', action: 'add', tag: 'v1', next: 'old_end' },
    { key: 'old_end', kind: 'end', outcome: 'old' },
  ],
});
const v2 = (event: string) => ({
  trigger: { kind: 'event', event },
  steps: [
    { key: 'start', kind: 'branch', condition: { attribute: 'lane', op: 'is', value: 'park' }, yes: 'listen', no: 'nap' },
    { key: 'nap', kind: 'wait', seconds: 60, next: 'new_tag' },
    { key: 'listen', kind: 'wait_for_event', event: 'clicked', next: 'new_tag' },
    { key: 'new_tag', kind: 'tag', action: 'add', tag: 'v2', next: 'new_end' },
    { key: 'new_end', kind: 'end', outcome: 'new' },
  ],
});
/** One wait, and its end: `old` in v1, `new` in v2. */
const simple = (event: string, outcome: string) => ({
  trigger: { kind: 'event', event },
  steps: [
    { key: 'nap', kind: 'wait', seconds: 600, next: 'done' },
    { key: 'done', kind: 'end', outcome },
  ],
});

async function tagsOf(externalId: string): Promise<string[]> {
  return (await t.svc.db.contact.findUniqueOrThrow({ where: { appModeId_externalId: { appModeId: app.modes.live, externalId } } })).tags;
}

describe.each(ENGINES)('workflow versions on the $engine engine', ({ engine, skip }) => {
  describe.skipIf(skip)('', () => {
    beforeAll(async () => {
      t = await startTestServer({ engine });
      app = await staffApp(t, 'Versions');
      api = staffApi(
        () => t.url,
        () => app.owner,
      );
    });
    afterAll(async () => {
      await t?.close();
    });

    it('keeps a running run on its version once a new one is published: it walks the old version’s steps', async () => {
      const p = unique('kept');
      await serverApi(t, app.live.server_key).identify(p, { attributes: { lane: 'nap' } });
      const event = unique('joined');
      const id = await workflow('Kept', v1(event));
      await enter(app.live.server_key, event, p);
      await settle(t);
      expect(await runOf(p, id)).toMatchObject({ state: 'waiting', step: 'nap', versionNumber: 1 });
      await publish(id, v2(event));
      t.clock.advance(601_000);
      await settle(t);
      const run = await runOf(p, id);
      expect(run).toMatchObject({ state: 'ended', outcome: 'old', versionNumber: 1 });
      expect(run.steps.map((s) => s.step)).toEqual(['start', 'which', 'nap', 'old_tag']);
      expect(await tagsOf(p)).toEqual(['v1']);
    });

    it('moves waiting and parked runs to the live version where their step still is, each walking it from there; the others stay, counted', async () => {
      const server = serverApi(t, app.live.server_key);
      const [napper, parked, gone, elsewhere] = [unique('napper'), unique('parked'), unique('gone'), unique('elsewhere')];
      await server.identify(napper, { attributes: { lane: 'nap' } });
      await server.identify(parked, { attributes: { lane: 'park' } });
      await server.identify(gone, { attributes: { lane: 'gone' } });
      await server.identify(elsewhere);
      const testMode = serverApi(t, app.test.server_key);
      const tester = unique('tester');
      await testMode.identify(tester);

      const event = unique('joined');
      const id = await workflow('Moving', v1(event));
      // Another workflow of the app-mode, and one of its test mode, each with a run waiting on v1 and a v2 published.
      const otherEvent = unique('other');
      const other = await workflow('Other', simple(otherEvent, 'old'));
      const inTest = await workflow('In test mode', simple(otherEvent, 'old'), app.modes.test);
      await enter(app.live.server_key, event, napper, parked, gone);
      await enter(app.live.server_key, otherEvent, elsewhere);
      await enter(app.test.server_key, otherEvent, tester);
      await settle(t);
      const before = await runOf(napper, id);
      expect(before).toMatchObject({ state: 'waiting', step: 'nap', versionNumber: 1 });
      expect(await runOf(parked, id)).toMatchObject({ state: 'parked', step: 'listen', waitsFor: 'clicked', versionNumber: 1 });
      expect(await runOf(gone, id)).toMatchObject({ state: 'waiting', step: 'linger', versionNumber: 1 });
      await publish(id, v2(event));
      await publish(other, simple(otherEvent, 'new'));
      await publish(inTest, simple(otherEvent, 'new'));

      // Two runs asked to move; the one at `linger` (gone from v2) stays on v1, and the answer says where.
      expect((await api.ok(MOVE, { w: id })).moveWorkflowRuns).toEqual({
        versionNumber: 2,
        moving: 2,
        notYet: 0,
        staying: 1,
        stayingAt: [{ versionNumber: 1, step: 'linger', runs: 1 }],
      });
      await settle(t);
      await expect.poll(async () => (await runOf(napper, id)).versionNumber).toBe(2);
      await expect.poll(async () => (await runOf(parked, id)).versionNumber).toBe(2);
      // Moved, each waits where it was, with the timer it had.
      expect(await runOf(napper, id)).toMatchObject({ state: 'waiting', step: 'nap', until: before.until });
      expect(await runOf(parked, id)).toMatchObject({ state: 'parked', step: 'listen', waitsFor: 'clicked', until: null });
      expect(await runOf(gone, id)).toMatchObject({ versionNumber: 1, step: 'linger' });
      expect(await runOf(elsewhere, other)).toMatchObject({ versionNumber: 1, state: 'waiting' });
      expect(await runOf(tester, inTest, app.modes.test)).toMatchObject({ versionNumber: 1, state: 'waiting' });
      // The runs screen reads the same: a workflow's runs by state, each with its version.
      const { workflowRuns } = await api.ok(
        'query($w: ID!) { workflowRuns(workflowId: $w, state: waiting) { edges { node { step versionNumber } } } }',
        {
          w: id,
        },
      );
      expect(workflowRuns.edges.map((e: { node: unknown }) => e.node)).toEqual(
        expect.arrayContaining([
          { step: 'nap', versionNumber: 2 },
          { step: 'linger', versionNumber: 1 },
        ]),
      );

      // Asked again: nothing more to move (the moved runs are on v2 now), the staying run still counted.
      expect((await api.ok(MOVE, { w: id })).moveWorkflowRuns).toMatchObject({ moving: 0, staying: 1 });

      // The timer fires as it was set (600 s from entry, not v2's 60 s), and the run walks v2 from `nap`.
      t.clock.advance(601_000);
      await settle(t);
      const moved = await runOf(napper, id);
      expect(moved).toMatchObject({ state: 'ended', outcome: 'new', versionNumber: 2 });
      expect(moved.steps.map((s) => [s.step, s.outcome])).toEqual([
        ['start', 'no'],
        ['which', 'no'],
        ['nap', 'waited'],
        ['new_tag', 'passed'],
      ]);
      expect(await tagsOf(napper)).toEqual(['v2']);
      // The one that stayed walks v1.
      expect(await runOf(gone, id)).toMatchObject({ state: 'ended', outcome: 'old', versionNumber: 1 });
      expect(await tagsOf(gone)).toEqual(['v1']);
      expect(await runOf(elsewhere, other)).toMatchObject({ state: 'ended', outcome: 'old', versionNumber: 1 });
      expect(await runOf(tester, inTest, app.modes.test)).toMatchObject({ state: 'ended', outcome: 'old', versionNumber: 1 });

      // The parked run's event takes it on by v2's way.
      await enter(app.live.server_key, 'clicked', parked);
      await settle(t);
      expect(await runOf(parked, id)).toMatchObject({ state: 'ended', outcome: 'new', versionNumber: 2 });
      expect(await tagsOf(parked)).toEqual(['v2']);
    });

    it('refuses another workspace’s workflow as not found, and a workflow not yet published', async () => {
      const id = await workflow('Theirs', simple(unique('x'), 'done'));
      const stranger = await staffApp(t, 'Stranger');
      expect((await api.refused(MOVE, { w: id }, stranger.owner)).code).toBe('not_found');
      const draft = await api.ok('mutation($m: ID!, $i: WorkflowInput!) { createWorkflow(appModeId: $m, input: $i) { id } }', {
        m: app.modes.live,
        i: { name: 'Draft', definition: simple(unique('y'), 'done') },
      });
      expect((await api.refused(MOVE, { w: draft.createWorkflow.id })).code).toBe('workflow_unpublished');
    });
  });
});

describe('a move of very many runs', () => {
  let s: TestServer;
  afterAll(async () => {
    await s?.close();
  });

  it(`asks at most ${MAX_MOVED} runs a request, counting the rest, and reads them ${MOVE_PAGE} at a time`, async () => {
    s = await startTestServer();
    t = s;
    app = await staffApp(s, 'Crowd');
    api = staffApi(
      () => s.url,
      () => app.owner,
    );
    const event = unique('crowd');
    const id = await workflow('Crowd', simple(event, 'old'));
    await publish(id, {
      ...simple(event, 'new'),
      steps: [
        { key: 'nap', kind: 'wait', seconds: 60, next: 'done' },
        { key: 'done', kind: 'end', outcome: 'new' },
      ],
    });
    const [v1, v2] = await s.svc.db.workflowVersion.findMany({ where: { workflowId: id }, orderBy: { number: 'asc' } });
    // Runs made as entry makes them, straight in the database: MAX_MOVED + 30 waiting or parked at `nap`, 7 at a step v2 lacks.
    const ctx = systemContext(s.svc, 'test');
    const many = MAX_MOVED + 30;
    await exec(
      ctx,
      sql`WITH people AS (
            INSERT INTO contact (id, app_mode_id, external_id, updated_at)
            SELECT ${id} || '-' || n, ${app.modes.live}, ${id} || '-' || n, now() FROM generate_series(1, ${many + 7}) n
            RETURNING id, (split_part(id, '-', 6))::int AS n)
          INSERT INTO person_run (id, app_mode_id, workflow_id, version_id, version_number, contact_id, state, at_step, since, started_at)
          SELECT 'run-' || id, ${app.modes.live}, ${id}, ${v1!.id}, 1, id,
                 (CASE WHEN n % 3 = 0 THEN 'parked' ELSE 'waiting' END)::"PersonRunState",
                 CASE WHEN n > ${many} THEN 'gone' ELSE 'nap' END, now(), now() - n * interval '1 second'
          FROM people`,
    );
    expect((await api.ok(MOVE, { w: id })).moveWorkflowRuns).toEqual({
      versionNumber: 2,
      moving: MAX_MOVED,
      notYet: 30,
      staying: 7,
      stayingAt: [{ versionNumber: 1, step: 'gone', runs: 7 }],
    });
    const [moved] = await s.svc.db.outboxEvent.findMany({ where: { topic: RUNS_MOVED, appModeId: app.modes.live } });
    expect(moved!.data).toEqual({ workflow_id: id, version_id: v2!.id, version_number: 2, at_most: MAX_MOVED });
    // The consumer's reading: pages of at most MOVE_PAGE, each run once, none at the step v2 lacks, MAX_MOVED in all.
    const pages: number[] = [];
    const asked = new Set<string>();
    for await (const page of runsToMove(ctx, [{ ...moved!, data: moved!.data as Record<string, unknown> }])) {
      pages.push(page.length);
      for (const steer of page) {
        asked.add(steer.runId);
        expect(steer.payload).toEqual({
          versionId: v2!.id,
          steps: expect.arrayContaining([expect.objectContaining({ key: 'nap', seconds: 60 })]),
        });
      }
    }
    expect(Math.max(...pages)).toBe(MOVE_PAGE);
    expect(asked.size).toBe(MAX_MOVED);
    const gone = await s.svc.db.personRun.findMany({ where: { workflowId: id, atStep: 'gone' }, select: { id: true } });
    expect(gone.filter((r) => asked.has(r.id))).toEqual([]);
  });
});
