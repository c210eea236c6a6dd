import { rows, sql } from '../../db/sql.js';
import type { Ctx } from '../context.js';
import type { WorkflowGraph } from './definition.js';
import { workflowIn } from './workflows.js';

// A workflow's statistics per step, over all its versions, from the counters its runs' steps keep
// as they are taken (run-record.ts): how many visits entered each step, how many runs wait there
// now, and how the visits went, by outcome (a wait: waited, event, timeout, goal; a run's end at a
// step: `end:<outcome>`). Read as the sum of each counter's slots: one indexed read, whatever the
// number of runs.

export interface StepStatistics {
  step: string;
  entered: number;
  waiting: number;
  outcomes: { outcome: string; count: number }[];
}

/** The workflow's steps in the order of its live version (steps only older versions have come after, by key). */
export async function workflowStatistics(ctx: Ctx, workflowId: string): Promise<StepStatistics[]> {
  const workflow = await workflowIn(ctx, workflowId);
  const live =
    workflow.liveVersion === null
      ? null
      : await ctx.db.workflowVersion.findUnique({ where: { workflowId_number: { workflowId, number: workflow.liveVersion } } });
  const counted = await rows<{ step_key: string; measure: string; n: string }>(
    ctx,
    sql`SELECT step_key, measure, sum(n)::text AS n FROM workflow_step_count WHERE workflow_id = ${workflowId} GROUP BY 1, 2 ORDER BY 1, 2`,
  );
  const order = (live?.definition as WorkflowGraph | undefined)?.steps.map((s) => s.key) ?? [];
  const byStep = new Map<string, StepStatistics>(order.map((step) => [step, { step, entered: 0, waiting: 0, outcomes: [] }]));
  for (const c of counted) {
    let s = byStep.get(c.step_key);
    if (!s) byStep.set(c.step_key, (s = { step: c.step_key, entered: 0, waiting: 0, outcomes: [] }));
    const n = Number(c.n);
    if (c.measure === 'entered') s.entered = n;
    else if (c.measure === 'waiting') s.waiting = Math.max(0, n);
    else if (n > 0) s.outcomes.push({ outcome: c.measure, count: n });
  }
  const rank = (step: string) => (order.includes(step) ? order.indexOf(step) : order.length);
  return [...byStep.values()].sort((a, b) => rank(a.step) - rank(b.step) || a.step.localeCompare(b.step));
}
