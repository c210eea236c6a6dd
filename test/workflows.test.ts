import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffApp, type StaffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { startTestServer, type TestServer } from './support/server.js';

// Workflows on the staff side, black-box: a draft saved as written, published into versions once it
// reads and checks whole (refused naming each problem under `definition`), paused and resumed; none
// of another workspace's reached.

let t: TestServer;
let app: StaffApp;
let other: StaffApp;
let api: ReturnType<typeof staffApi>;

beforeAll(async () => {
  t = await startTestServer();
  [app, other] = await Promise.all([staffApp(t, 'Garden'), staffApp(t, 'Other')]);
  api = staffApi(
    () => t.url,
    () => app.owner,
  );
});
afterAll(() => t?.close());

const welcome = {
  trigger: { kind: 'event', event: 'signed_up' },
  exit: { goalEvent: 'order_paid' },
  steps: [
    { key: 'wait_a_day', kind: 'wait', seconds: 86_400, next: 'paying' },
    { key: 'paying', kind: 'branch', condition: { event: 'app_opened', did: true }, yes: 'done', no: 'nudge' },
    { key: 'nudge', kind: 'tag', action: 'add', tag: 'nudged', next: 'done' },
    { key: 'done', kind: 'end', outcome: 'welcomed' },
  ],
};
const FIELDS = 'id name state liveVersion draft versions(first: 10) { edges { node { number definition } } }';

describe('workflows', () => {
  it('keep a draft as written, and publish it into numbered versions', async () => {
    const { createWorkflow: made } = await api.ok(
      `mutation($m: ID!, $i: WorkflowInput!) { createWorkflow(appModeId: $m, input: $i) { ${FIELDS} } }`,
      {
        m: app.modes.live,
        i: { name: 'Welcome', definition: { steps: [{ key: 'half written' }] } },
      },
    );
    expect(made).toMatchObject({ name: 'Welcome', state: 'draft', liveVersion: null, draft: { steps: [{ key: 'half written' }] } });

    // A draft that does not read is kept, and refused only when published, naming each problem.
    const refused = await api.refused('mutation($id: ID!) { publishWorkflow(id: $id) { id } }', { id: made.id });
    expect(refused.code).toBe('invalid_request');
    expect(refused.errors!.map((e: { field: string }) => e.field)).toEqual(['definition.trigger', 'definition.steps.0.key']);

    await api.ok('mutation($id: ID!, $i: WorkflowInput!) { changeWorkflow(id: $id, input: $i) { id } }', {
      id: made.id,
      i: { definition: welcome },
    });
    const { publishWorkflow: first } = await api.ok(`mutation($id: ID!) { publishWorkflow(id: $id) { ${FIELDS} } }`, { id: made.id });
    expect(first).toMatchObject({ state: 'live', liveVersion: 1 });
    expect(first.versions.edges[0].node.definition.steps).toHaveLength(4);

    const second = await api.ok(`mutation($id: ID!) { publishWorkflow(id: $id) { ${FIELDS} } }`, { id: made.id });
    expect(second.publishWorkflow.liveVersion).toBe(2);
    expect(second.publishWorkflow.versions.edges.map((e: { node: { number: number } }) => e.node.number)).toEqual([2, 1]);
  });

  it('refuse publishing a loop without a wait, a step unreached, and a condition naming what the app-mode lacks', async () => {
    const { createWorkflow: made } = await api.ok(
      'mutation($m: ID!, $i: WorkflowInput!) { createWorkflow(appModeId: $m, input: $i) { id } }',
      {
        m: app.modes.live,
        i: {
          name: 'Broken',
          definition: {
            trigger: { kind: 'event', event: 'signed_up' },
            steps: [
              { key: 'a', kind: 'tag', action: 'add', tag: 't', next: 'b' },
              { key: 'b', kind: 'branch', condition: { attribute: 'no_such_attribute', op: 'eq', value: 1 }, yes: 'a', no: 'done' },
              { key: 'done', kind: 'end' },
              { key: 'island', kind: 'end' },
            ],
          },
        },
      },
    );
    const first = await api.refused('mutation($id: ID!) { publishWorkflow(id: $id) { id } }', { id: made.id });
    expect(first.errors!.map((e: { field: string }) => e.field)).toEqual(['definition.steps.1.condition.attribute']);
    await api.ok('mutation($id: ID!, $i: WorkflowInput!) { changeWorkflow(id: $id, input: $i) { id } }', {
      id: made.id,
      i: {
        definition: {
          trigger: { kind: 'event', event: 'signed_up' },
          steps: [
            { key: 'a', kind: 'tag', action: 'add', tag: 't', next: 'b' },
            { key: 'b', kind: 'branch', condition: { event: 'app_opened', did: true }, yes: 'a', no: 'done' },
            { key: 'done', kind: 'end' },
            { key: 'island', kind: 'end' },
          ],
        },
      },
    });
    const second = await api.refused('mutation($id: ID!) { publishWorkflow(id: $id) { id } }', { id: made.id });
    expect(second.errors!.map((e: { field: string; message?: string }) => e.message)).toEqual([
      'step island cannot be reached from the first step (a)',
      'steps a, b loop without waiting: put a wait in the loop',
    ]);
    expect((await t.svc.db.workflow.findUniqueOrThrow({ where: { id: made.id } })).liveVersion).toBeNull();
  });

  it('pause and resume a published workflow, and refuse pausing one never published', async () => {
    const { createWorkflow: made } = await api.ok(
      'mutation($m: ID!, $i: WorkflowInput!) { createWorkflow(appModeId: $m, input: $i) { id } }',
      {
        m: app.modes.live,
        i: { name: 'Pausable', definition: welcome },
      },
    );
    expect((await api.refused('mutation($id: ID!) { setWorkflowLive(id: $id, live: false) { id } }', { id: made.id })).code).toBe(
      'workflow_unpublished',
    );
    await api.ok('mutation($id: ID!) { publishWorkflow(id: $id) { id } }', { id: made.id });
    expect(
      (await api.ok('mutation($id: ID!) { setWorkflowLive(id: $id, live: false) { state } }', { id: made.id })).setWorkflowLive.state,
    ).toBe('paused');
    expect(
      (await api.ok('mutation($id: ID!) { setWorkflowLive(id: $id, live: true) { state } }', { id: made.id })).setWorkflowLive.state,
    ).toBe('live');
  });

  it('refuse a bad name and a draft past its size, naming the field, and reach no other workspace’s', async () => {
    const bad = await api.refused('mutation($m: ID!, $i: WorkflowInput!) { createWorkflow(appModeId: $m, input: $i) { id } }', {
      m: app.modes.live,
      i: { name: ' ', definition: {} },
    });
    expect(bad.errors).toEqual([expect.objectContaining({ field: 'name' })]);
    const huge = await api.refused('mutation($m: ID!, $i: WorkflowInput!) { createWorkflow(appModeId: $m, input: $i) { id } }', {
      m: app.modes.live,
      i: { name: 'Huge', definition: { note: 'x'.repeat(300 * 1024) } },
    });
    expect(huge.errors).toEqual([expect.objectContaining({ field: 'definition' })]);

    const { workflows } = await api.ok('query($m: ID!) { workflows(appModeId: $m, first: 50) { edges { node { id } } } }', {
      m: app.modes.live,
    });
    const theirs = staffApi(
      () => t.url,
      () => other.owner,
    );
    const id = workflows.edges[0].node.id;
    expect((await theirs.refused('query($id: ID!) { workflow(id: $id) { id } }', { id })).code).toBe('not_found');
    expect((await theirs.refused('mutation($id: ID!) { publishWorkflow(id: $id) { id } }', { id })).code).toBe('not_found');
    expect(
      (await theirs.refused('query($m: ID!) { workflows(appModeId: $m) { edges { node { id } } } }', { m: app.modes.live })).code,
    ).toBe('not_found');
  });
});
