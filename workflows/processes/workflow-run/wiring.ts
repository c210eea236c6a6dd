import { CONTACT_CHANGED } from '../../../src/domain/contacts/changes.js';
import { DATE_REACHED } from '../../../src/domain/workflows/date-trigger.js';
import { runsHearing, WORKFLOW_EVENT } from '../../../src/domain/workflows/entry.js';
import { RUNS_CANCELLED } from '../../../src/domain/workflows/personal-data.js';
import { RUNS_MOVED, withMoves } from '../../../src/domain/workflows/run-moves.js';
import { enterOnTriggers, LEFT_AUDIENCE, runsLeaving } from '../../../src/domain/workflows/triggers.js';
import { wireProcess } from '../module.js';
import { workflowRunActivities } from './activities.js';
import { workflowRunProcess } from './decide.js';

// Events a workflow hears, a person's changes it watches and dates reached start runs (their trigger)
// and wake the person's runs under way (a goal, a wait for an event, leaving the audience); an erase
// cancels the person's runs; staff move waiting runs to a newer version. Each from the outbox rows
// written with the change.
export default wireProcess(workflowRunProcess, {
  activities: (svc) =>
    workflowRunActivities(svc, {
      testTrust: svc.config.outboundTestTrust,
      ...(svc.config.webhookTestRetryWaitMs !== undefined && { retryWaitMs: svc.config.webhookTestRetryWaitMs }),
    }),
  startsOn: { topics: [WORKFLOW_EVENT, CONTACT_CHANGED, DATE_REACHED], runs: (ctx, rows) => enterOnTriggers(ctx, rows) },
  steersOn: {
    topics: [WORKFLOW_EVENT, CONTACT_CHANGED, RUNS_CANCELLED, RUNS_MOVED],
    steers: withMoves(async (ctx, rows) => [
      ...(
        await runsHearing(
          ctx,
          rows.filter((r) => r.topic === WORKFLOW_EVENT),
        )
      ).map(({ runId, name }) => ({
        runId,
        signal: 'event',
        payload: { name },
      })),
      ...(
        await runsLeaving(
          ctx,
          rows.filter((r) => r.topic === WORKFLOW_EVENT || r.topic === CONTACT_CHANGED),
        )
      ).map(({ runId }) => ({ runId, signal: 'exit', payload: { outcome: LEFT_AUDIENCE } })),
      ...rows
        .filter((r) => r.topic === RUNS_CANCELLED)
        .flatMap((r) => (r.data.run_ids as string[]).map((runId) => ({ runId, cancel: true as const }))),
    ]),
  },
});
