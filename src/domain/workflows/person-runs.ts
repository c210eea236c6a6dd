import type { PersonRun, PersonRunStep, Prisma } from '../../generated/prisma/client.js';

// A person's runs, as staff ask "why did this person get it, or not" and as the export gives
// them: each run's state, the step it is at and since when, what it waits for, and each step it
// passed with its outcome and reason code. A run keeps its last MAX_STEPS_SHOWN visits here (a
// weekly loop over years keeps its record whole in person_run_step; this reads its newest).

export const MAX_STEPS_SHOWN = 100;

export type RunWithSteps = PersonRun & { steps: PersonRunStep[]; workflow: { name: string } };

/** Runs as they are listed: newest first. */
export const RUNS_ORDER = [{ startedAt: 'desc' }, { id: 'desc' }] satisfies Prisma.PersonRunOrderByWithRelationInput[];

/** A run's newest visits (oldest first once reversed: stepsInOrder). */
export const NEWEST_STEPS = { orderBy: { id: 'desc' }, take: MAX_STEPS_SHOWN } satisfies Prisma.PersonRunStepFindManyArgs;

/** The include that reads a run's newest visits and its workflow's name. */
export const RUN_DETAIL = { workflow: { select: { name: true } }, steps: NEWEST_STEPS } satisfies Prisma.PersonRunInclude;

/** Visits oldest first. */
export const stepsInOrder = (run: RunWithSteps): PersonRunStep[] => [...run.steps].reverse();

/** A run as the export gives it (the spec's members, and where it stands with its steps' outcomes and reasons). */
export const exportedRun = (run: RunWithSteps) => ({
  workflow: run.workflow.name,
  state: run.state,
  startedAt: run.startedAt.toISOString(),
  outcome: run.outcome,
  endedAt: run.endedAt?.toISOString() ?? null,
  step: run.atStep,
  since: run.since.toISOString(),
  waitsFor: run.waitsFor,
  until: run.until?.toISOString() ?? null,
  steps: stepsInOrder(run).map((s) => ({
    step: s.stepKey,
    kind: s.kind,
    visit: s.visit,
    enteredAt: s.enteredAt.toISOString(),
    leftAt: s.leftAt?.toISOString() ?? null,
    outcome: s.outcome,
    reason: s.reason,
    detail: s.detail,
  })),
});
