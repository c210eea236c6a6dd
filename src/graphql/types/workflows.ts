import { changeWorkflow, createWorkflow, MAX_WORKFLOWS, publishWorkflow, setWorkflowLive } from '../../domain/workflows/workflows.js';
import { MAX_MOVED, moveWaitingRuns, STAYING_SHOWN, type RunsMove, type StayingRuns } from '../../domain/workflows/run-moves.js';
import { staffContactWhere } from '../../domain/contacts/staff.js';
import { invalidField } from '../../domain/errors.js';
import { MAX_STEPS_SHOWN, NEWEST_STEPS, RUNS_ORDER } from '../../domain/workflows/person-runs.js';
import { changesOf } from '../../domain/changes-of.js';
import { workflowStatistics, type StepStatistics } from '../../domain/workflows/statistics.js';
import { builder, connectionType } from '../builder.js';
import { liveFor } from '../subscription-access.js';

/** How often a statistics subscription reads the counters again. */
const STATISTICS_EVERY_MS = 2_000;
import { asStaff } from '../context.js';
import { JSONValue } from '../json.js';

// Workflows on the staff side: kept as drafts, published into versions (refused naming each problem
// under `definition`), paused and resumed; a person's runs, each step with how it went and why.

const WorkflowStateEnum = builder.enumType('WorkflowState', { values: ['draft', 'live', 'paused'] as const });

const WorkflowVersionRef = builder.prismaObject('WorkflowVersion', {
  fields: (t) => ({
    id: t.exposeID('id'),
    number: t.exposeInt('number'),
    definition: t.expose('definition', { type: JSONValue, description: 'The definition as published, read whole.' }),
    publishedAt: t.expose('publishedAt', { type: 'DateTime' }),
  }),
});

export const WorkflowRef = builder.prismaObject('Workflow', {
  fields: (t) => ({
    id: t.exposeID('id'),
    appModeId: t.exposeID('appModeId'),
    name: t.exposeString('name'),
    state: t.expose('state', { type: WorkflowStateEnum }),
    draft: t.expose('draft', { type: JSONValue, description: 'The definition as last saved (checked only when published).' }),
    liveVersion: t.exposeInt('liveVersion', { nullable: true, description: 'The version new runs start on; null until published.' }),
    versions: t.relatedConnection('versions', { cursor: 'id', description: 'Newest first.', query: { orderBy: { number: 'desc' } } }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const WorkflowInput = builder.inputType('WorkflowInput', {
  fields: (t) => ({
    name: t.string({ description: '1 to 100 characters.' }),
    definition: t.field({ type: JSONValue, description: 'The definition (docs/areas/workflows.md), saved as written up to 256 KiB.' }),
  }),
});

builder.queryField('workflows', (t) =>
  t.prismaConnection(
    {
      type: 'Workflow',
      cursor: 'id',
      description: `The app-mode's workflows (at most ${MAX_WORKFLOWS}), most recently changed first.`,
      args: { appModeId: t.arg.id({ required: true }) },
      authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
      resolve: (query, _root, { appModeId }, ctx) =>
        ctx.svc.db.workflow.findMany({ ...query, where: { appModeId }, orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }] }),
    },
    connectionType(WorkflowRef, 'Workflow'),
  ),
);

builder.queryField('workflow', (t) =>
  t.prismaField({
    type: 'Workflow',
    args: { id: t.arg.id({ required: true }) },
    authScopes: (_root, { id }) => ({ read: { workflowId: id } }),
    resolve: (query, _root, { id }, ctx) => ctx.svc.db.workflow.findUniqueOrThrow({ ...query, where: { id } }),
  }),
);

builder.mutationField('createWorkflow', (t) =>
  t.prismaField({
    type: 'Workflow',
    args: { appModeId: t.arg.id({ required: true }), input: t.arg({ type: WorkflowInput, required: true }) },
    authScopes: (_root, { appModeId }) => ({ manage_settings: { appModeId } }),
    resolve: async (query, _root, { appModeId, input }, ctx) => {
      const made = await createWorkflow(asStaff(ctx), appModeId, input);
      return ctx.svc.db.workflow.findUniqueOrThrow({ ...query, where: { id: made.id } });
    },
  }),
);

builder.mutationField('changeWorkflow', (t) =>
  t.prismaField({
    type: 'Workflow',
    description: 'Saves the draft as written (the name too, when given); what is published stays until published again.',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: WorkflowInput, required: true }) },
    authScopes: (_root, { id }) => ({ manage_settings: { workflowId: id } }),
    resolve: async (query, _root, { id, input }, ctx) => {
      await changeWorkflow(asStaff(ctx), id, input);
      return ctx.svc.db.workflow.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
);

builder.mutationField('publishWorkflow', (t) =>
  t.prismaField({
    type: 'Workflow',
    description:
      'Publishes the draft as the next version, which new runs start on. Refused naming each problem under `definition` (a step unreached, a path that never ends, a loop without a wait, a bad member).',
    args: { id: t.arg.id({ required: true }) },
    authScopes: (_root, { id }) => ({ manage_settings: { workflowId: id } }),
    resolve: async (query, _root, { id }, ctx) => {
      await publishWorkflow(asStaff(ctx), id);
      return ctx.svc.db.workflow.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
);

builder.mutationField('setWorkflowLive', (t) =>
  t.prismaField({
    type: 'Workflow',
    description: 'live: false pauses it (no one new enters; runs under way go on); true takes people again.',
    args: { id: t.arg.id({ required: true }), live: t.arg.boolean({ required: true }) },
    authScopes: (_root, { id }) => ({ manage_settings: { workflowId: id } }),
    resolve: async (query, _root, { id, live }, ctx) => {
      await setWorkflowLive(asStaff(ctx), id, live);
      return ctx.svc.db.workflow.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
);

// Moving waiting runs to the live version.

const StayingRunsRef = builder.objectRef<StayingRuns>('WorkflowRunsStaying').implement({
  description: 'Runs that stay on an older version: the step they wait at is not in the live version (or is another kind of step there).',
  fields: (t) => ({
    versionNumber: t.exposeInt('versionNumber'),
    step: t.exposeString('step'),
    runs: t.exposeInt('runs'),
  }),
});

const RunsMoveRef = builder.objectRef<RunsMove>('WorkflowRunsMove').implement({
  description: 'What a move of waiting runs asked: the runs are moved by their processes shortly after.',
  fields: (t) => ({
    versionNumber: t.exposeInt('versionNumber', { description: 'The live version the runs move to.' }),
    moving: t.exposeInt('moving', { description: `Runs asked to move (at most ${MAX_MOVED} a request).` }),
    notYet: t.exposeInt('notYet', { description: 'Runs that could move beyond that bound: ask again once these have moved.' }),
    staying: t.exposeInt('staying', { description: 'Runs that stay on their version: the step they wait at is not in the live version.' }),
    stayingAt: t.field({
      type: [StayingRunsRef],
      description: `The staying runs by version and step (the first ${STAYING_SHOWN}).`,
      resolve: (m) => m.stayingAt,
    }),
  }),
});

builder.mutationField('moveWorkflowRuns', (t) =>
  t.field({
    type: RunsMoveRef,
    description:
      'Moves the workflow’s runs waiting (or parked) on older versions to its live version, each where the step it waits at is there with the same kind: it waits on with its timer and walks the live version from that step. The others stay on their version, counted. 409 workflow_unpublished before the first version.',
    args: { workflowId: t.arg.id({ required: true }) },
    authScopes: (_root, { workflowId }) => ({ manage_settings: { workflowId } }),
    resolve: (_root, { workflowId }, ctx) => moveWaitingRuns(asStaff(ctx), workflowId),
  }),
);

// A person's runs: where each stands and why each step went as it did (the "why" of a message sent or not).

const PersonRunStateEnum = builder.enumType('PersonRunState', {
  description: 'active: doing a step; waiting: on a timer (perhaps for an event too); parked: on an event only; ended: with its outcome.',
  values: ['active', 'waiting', 'parked', 'ended'] as const,
});

const PersonRunStepRef = builder.prismaObject('PersonRunStep', {
  description: 'One visit of a step by a run, and how it went.',
  fields: (t) => ({
    step: t.exposeString('stepKey', { description: 'The step’s key.' }),
    kind: t.exposeString('kind'),
    visit: t.exposeInt('visit', { description: 'The visit, from 1 (a loop visits a step again).' }),
    enteredAt: t.expose('enteredAt', { type: 'DateTime' }),
    leftAt: t.expose('leftAt', { type: 'DateTime', nullable: true, description: 'Null while the run is at it.' }),
    outcome: t.exposeString('outcome', {
      nullable: true,
      description:
        'passed, sent, skipped, failed, yes or no; a wait: waited, event, timeout (or goal, exited when the run ended there). Null while at it.',
    }),
    reason: t.exposeString('reason', {
      nullable: true,
      description:
        'Why a step was skipped or failed, a code (docs/areas/workflows.md): unchanged, wrong_type, attribute_undefined, webhook_refused, no_webhook_secret…',
    }),
    detail: t.exposeString('detail', { nullable: true, description: 'A line more: the receiver’s answer, the rule that refused.' }),
  }),
});

const PersonRunRef = builder.prismaObject('PersonRun', {
  description: 'A person’s run of a workflow.',
  fields: (t) => ({
    id: t.exposeID('id'),
    workflow: t.relation('workflow'),
    contactId: t.exposeID('contactId'),
    contact: t.relation('contact', { description: 'The person (a person being erased is gone with their runs).' }),
    versionNumber: t.exposeInt('versionNumber', { description: 'The version it runs on.' }),
    state: t.expose('state', { type: PersonRunStateEnum }),
    step: t.exposeString('atStep', { description: 'The step it is at (an ended run: the step it ended at).' }),
    since: t.expose('since', { type: 'DateTime', description: 'Since when it is at that step, in that state.' }),
    waitsFor: t.exposeString('waitsFor', {
      nullable: true,
      description: 'The event a waiting run waits for (besides the workflow’s goal).',
    }),
    until: t.expose('until', { type: 'DateTime', nullable: true, description: 'A waiting run’s timer.' }),
    outcome: t.exposeString('outcome', {
      nullable: true,
      description: 'An ended run’s: an end step’s outcome, goal, failed or cancelled.',
    }),
    startedAt: t.expose('startedAt', { type: 'DateTime' }),
    endedAt: t.expose('endedAt', { type: 'DateTime', nullable: true }),
    steps: t.prismaField({
      type: ['PersonRunStep'],
      description: `Its newest ${MAX_STEPS_SHOWN} visits of steps, oldest first.`,
      resolve: async (query, run, _args, ctx) =>
        (await ctx.svc.db.personRunStep.findMany({ ...query, where: { runId: run.id }, ...NEWEST_STEPS })).reverse(),
    }),
  }),
});

const PersonRunConnection = connectionType(PersonRunRef, 'PersonRun');

builder.queryField('workflowRuns', (t) =>
  t.prismaConnection(
    {
      type: 'PersonRun',
      cursor: 'id',
      description: 'The runs of a workflow, newest first; of one state when `state` is given.',
      args: { workflowId: t.arg.id({ required: true }), state: t.arg({ type: PersonRunStateEnum }) },
      authScopes: (_root, { workflowId }) => ({ read: { workflowId } }),
      resolve: (query, _root, { workflowId, state }, ctx) =>
        ctx.svc.db.personRun.findMany({
          ...query,
          where: { workflowId, ...(state && { state }) },
          orderBy: RUNS_ORDER,
        }),
    },
    PersonRunConnection,
  ),
);

builder.queryField('personWorkflowRuns', (t) =>
  t.prismaConnection(
    {
      type: 'PersonRun',
      cursor: 'id',
      description: 'A person’s runs of the app-mode’s workflows (of one, when `workflowId` is given), newest first.',
      args: {
        appModeId: t.arg.id({ required: true }),
        externalId: t.arg.string(),
        contactId: t.arg.id({ description: 'The contact’s id in this service; or give externalId.' }),
        workflowId: t.arg.id(),
      },
      authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
      resolve: (query, _root, { appModeId, externalId, contactId, workflowId }, ctx) => {
        if (!contactId === !externalId) throw invalidField('contactId', 'give either contactId or externalId, not both');
        return ctx.svc.db.personRun.findMany({
          ...query,
          where: { appModeId, contact: staffContactWhere(appModeId, { id: contactId, externalId }), ...(workflowId && { workflowId }) },
          orderBy: RUNS_ORDER,
        });
      },
    },
    PersonRunConnection,
  ),
);

// Statistics per step, and the same live.

const StepOutcomeCountRef = builder.objectRef<{ outcome: string; count: number }>('WorkflowStepOutcomeCount').implement({
  fields: (t) => ({ outcome: t.exposeString('outcome'), count: t.exposeInt('count') }),
});

const StepStatisticsRef = builder.objectRef<StepStatistics>('WorkflowStepStatistics').implement({
  description: 'One step of a workflow over all its versions: visits that entered it, runs waiting at it now, and how the visits went.',
  fields: (t) => ({
    step: t.exposeString('step'),
    entered: t.exposeInt('entered'),
    waiting: t.exposeInt('waiting', { description: 'Runs waiting at the step now.' }),
    outcomes: t.field({
      type: [StepOutcomeCountRef],
      description: 'By outcome (passed, sent, skipped, failed, yes, no, waited, event, timeout, goal; a run’s end there: end:<outcome>).',
      resolve: (s) => s.outcomes,
    }),
  }),
});

builder.objectField(WorkflowRef, 'statistics', (t) =>
  t.field({
    type: [StepStatisticsRef],
    description: 'Per step, in the order of the live version (steps only older versions have come after).',
    resolve: (w, _args, ctx) => workflowStatistics(asStaff(ctx), w.id),
  }),
);

builder.subscriptionField('workflowStatisticsChanged', (t) =>
  t.field({
    type: [StepStatisticsRef],
    description: `A workflow's statistics per step now, then again each time they change (read every ${STATISTICS_EVERY_MS / 1000} s while subscribed).`,
    args: { workflowId: t.arg.id({ required: true }) },
    authScopes: (_root, { workflowId }) => ({ read: { workflowId } }),
    subscribe: (_root, { workflowId }, ctx) =>
      liveFor(ctx, { workflowId }, 'read', (signal) =>
        changesOf(() => workflowStatistics(asStaff(ctx), workflowId), STATISTICS_EVERY_MS, signal),
      ),
    resolve: (s) => s,
  }),
);
