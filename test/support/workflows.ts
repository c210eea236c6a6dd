import { expect } from 'vitest';
import type { staffApi } from './graphql.js';
import type { TestServer } from './server.js';

// Workflows as the workflow tests make them and read their runs back: made and published in an
// app-mode, and a person's runs as staff read them (personWorkflowRuns, the "why").

type Api = ReturnType<typeof staffApi>;

const RUNS = `query($m: ID!, $x: String, $w: ID) { personWorkflowRuns(appModeId: $m, externalId: $x, workflowId: $w) {
  edges { node { id state step waitsFor until outcome versionNumber endedAt workflow { name }
    steps { step kind visit outcome reason detail leftAt } } } } }`;

export interface RunStep {
  step: string;
  kind: string;
  visit: number;
  outcome: string | null;
  reason: string | null;
  detail: string | null;
  leftAt: string | null;
}

export interface Run {
  id: string;
  state: string;
  step: string;
  waitsFor: string | null;
  until: string | null;
  outcome: string | null;
  versionNumber: number;
  endedAt: string | null;
  workflow: { name: string };
  steps: RunStep[];
}

/** What the workflow tests do through the staff API, in the app-mode `mode()` unless told another. */
export function workflowsIn(api: () => Api, mode: () => string) {
  /** A person's runs (of one workflow when named), newest first. */
  const runsOf = async (externalId: string, workflowId?: string, m = mode()): Promise<Run[]> =>
    (await api().ok(RUNS, { m, x: externalId, w: workflowId ?? null })).personWorkflowRuns.edges.map((e: { node: Run }) => e.node);
  /** A person's one run of a workflow. */
  const runOf = async (externalId: string, workflowId: string, m = mode()): Promise<Run> => {
    const runs = await runsOf(externalId, workflowId, m);
    expect(runs).toHaveLength(1);
    return runs[0]!;
  };
  /** A new workflow's draft; answers its id. */
  const draft = async (name: string, definition: unknown, m = mode()): Promise<string> =>
    (
      await api().ok('mutation($m: ID!, $i: WorkflowInput!) { createWorkflow(appModeId: $m, input: $i) { id } }', {
        m,
        i: { name, definition },
      })
    ).createWorkflow.id;
  const PUBLISH = 'mutation($id: ID!) { publishWorkflow(id: $id) { liveVersion } }';
  /** A new workflow, published; answers its id. */
  const workflow = async (name: string, definition: unknown, m = mode()): Promise<string> => {
    const id = await draft(name, definition, m);
    await api().ok(PUBLISH, { id });
    return id;
  };
  return { runsOf, runOf, draft, workflow, PUBLISH };
}

/** Runs the due process steps, `rounds` passes (each step of a run a pass or so): until nothing more is due now. */
export async function settle(t: Pick<TestServer, 'engine'>, rounds = 6): Promise<void> {
  for (let i = 0; i < rounds; i++) await t.engine.runDue();
}
