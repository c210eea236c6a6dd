import type { Step } from '../../../src/domain/workflows/definition.js';
import type { WorkflowRunInput } from '../../../src/domain/workflows/entry.js';
import { addMs } from '../../engine/commands.js';
import { defineProcess } from '../../engine/define.js';
import type { Decision, Instant } from '../../engine/types.js';

// One person's run of a workflow: its decide function walks the version's steps. Each step is an
// activity named for what it does, so an operator reads a run's history in Temporal as its steps;
// each activity keeps the step's outcome where staff read it (why a person got a message or not).
// Waits are durable timers: `wait` and `wait_until` a time the activity works out (a time of day
// in the person's zone), `wait_for_event` a timer with a signal (the event wakes it; else the
// timeout way on). Every wait also hears the exit rules (the goal event, leaving the audience) and
// a move to a newer version of the workflow (taken when the step the run waits at is still there).
// A cancel (an erase) ends the run at once.

/** What a run starts with (src/domain/workflows/entry.ts makes it): the version's steps travel in it, so a run keeps its version. */
export type RunInput = WorkflowRunInput;

/** What a run keeps: its input (the version's steps among it), and where it stands. */
export interface RunState extends RunInput {
  /** The step the run is at. */
  at: string;
  /** A waiting run's timer. */
  until?: Instant;
  /** Steps taken since the last wait: a guard against a loop that never waits (publishing refuses one). */
  unwaited: number;
  /** The outcome it ends with, once its end is being recorded. */
  ended?: string;
  /** Visits per step, so each visit of a webhook step posts under a delivery id of its own, kept over its tries. */
  visits: Record<string, number>;
  /** When the run entered the step it is at. */
  enteredAt?: Instant;
  /** A webhook step's try under way (or, with `waiting`, the last made before the wait for the next). */
  tries?: number;
  /** The step waits to be asked again: a webhook's next try, a send held until its window opens. */
  retrying?: boolean;
  /** A move to a newer version, taken once its record is written (moveWorkflowRun). */
  moving?: VersionMove;
}

/** The version a run moves to: what a `move` signal carries. */
export interface VersionMove {
  versionId: string;
  steps: Step[];
  goalEvent?: string;
}

/** The step a run has just left and the way it left it (a wait: waited, event or timeout), closed where staff read it. */
export interface CameFrom {
  key: string;
  visit: number;
  way: string;
}

/** What each step's activity is told: the run and the step. */
export interface StepCall {
  appModeId: string;
  workflowId: string;
  versionId: string;
  contactId: string;
  runKey: string;
  step: Step;
  /** The step's visit, from 1. */
  visit: number;
  /** When the run entered the step. */
  at: Instant;
  /** A webhook step's try, from 1. */
  attempt?: number;
  from?: CameFrom;
}

/** Why a step went as it did, for the person's runs (sent, skipped with its reason, failed with the provider's answer). */
export interface StepOutcome {
  outcome: string;
  reason?: string;
  detail?: string;
}

/** The activities, by the names a history shows. Their implementations are type-checked against this set when wired. */
export type RunActivities = {
  /** The wait's end; none for a wait for an event alone (the run is parked). */
  beginWorkflowWait: (input: StepCall) => Promise<{ until?: Instant }>;
  checkWorkflowCondition: (input: StepCall) => Promise<{ matched: boolean }>;
  /** `heldUntil` when the step's sending window is shut: asked again then (the step not yet recorded). */
  sendWorkflowMessage: (input: StepCall) => Promise<StepOutcome & { heldUntil?: Instant }>;
  /** One try; `retryInMs` when the post is to be tried again after that wait (the step not yet recorded). */
  postWorkflowWebhook: (input: StepCall) => Promise<StepOutcome & { retryInMs?: number }>;
  setWorkflowAttribute: (input: StepCall) => Promise<StepOutcome>;
  tagWorkflowPerson: (input: StepCall) => Promise<StepOutcome>;
  endWorkflowRun: (input: RunEnd) => Promise<void>;
  /** Records the run on the version it moves to (person_run's version), before it waits again. */
  moveWorkflowRun: (input: RunMove) => Promise<void>;
};

/** A run's move, as recorded. */
export interface RunMove {
  appModeId: string;
  workflowId: string;
  runKey: string;
  versionId: string;
  /** The event the step waits for in that version (a wait for an event), shown where staff read the run. */
  waitsFor?: string;
}

/** The run's end, as recorded: the step it ended at and its outcome (an end step's, goal, failed, an exit's). */
export interface RunEnd {
  appModeId: string;
  workflowId: string;
  contactId: string;
  runKey: string;
  at: string;
  outcome: string;
  from?: CameFrom;
}

export const RUN_SIGNALS = ['event', 'exit', 'move'] as const;
export type RunSignal = (typeof RUN_SIGNALS)[number];

/** Steps a run may take in a row without waiting before it is ended as failed. */
export const MAX_UNWAITED = 1000;

const { call, define } = defineProcess<RunState, RunInput, RunActivities>();
const RETRY = { retry: { maxAttempts: 5 }, timeoutMs: 60_000 };

type Decided = Decision<RunState, RunActivities, RunSignal>;

const stepOf = (state: RunState, key: string) => state.steps.find((s) => s.key === key);

/** The step the run is at, left by `way`. */
const leaving = (state: RunState, way: string): CameFrom | undefined =>
  state.visits[state.at] ? { key: state.at, visit: state.visits[state.at]!, way } : undefined;

/** Enters a step, leaving the one it is at by `way`: its activity, or for an end its record. */
function enter(state: RunState, key: string, at: Instant, way = 'passed'): Decided {
  const step = stepOf(state, key);
  if (!step) return finish(state, 'failed', way);
  const unwaited = state.unwaited + 1;
  if (unwaited > MAX_UNWAITED) return finish(state, 'failed', way);
  const from = leaving(state, way);
  const visit = (state.visits[key] ?? 0) + 1;
  const next: RunState = {
    ...state,
    at: key,
    enteredAt: at,
    until: undefined,
    tries: undefined,
    retrying: undefined,
    unwaited,
    visits: { ...state.visits, [key]: visit },
  };
  const input: StepCall = {
    appModeId: state.appModeId,
    workflowId: state.workflowId,
    versionId: state.versionId,
    contactId: state.contactId,
    runKey: state.runKey,
    step,
    visit,
    at,
    ...(from && { from }),
  };
  switch (step.kind) {
    case 'wait':
    case 'wait_until':
    case 'wait_for_event':
      return { state: next, command: call('beginWorkflowWait', input, RETRY) };
    case 'branch':
      return { state: next, command: call('checkWorkflowCondition', input, RETRY) };
    case 'send':
      return { state: next, command: call('sendWorkflowMessage', input, RETRY) };
    case 'webhook':
      return postWebhook(next, { ...input, attempt: 1 });
    case 'set_attribute':
      return { state: next, command: call('setWorkflowAttribute', input, RETRY) };
    case 'tag':
      return { state: next, command: call('tagWorkflowPerson', input, RETRY) };
    case 'end':
      return finish(next, step.outcome, way, from);
  }
}

/**
 * One try of a webhook step: the endpoints' retry rules are the activity's (one delivery id over the
 * tries, Retry-After honoured), the waits between tries the run's durable timers. The activity's own
 * attempts are retried as every step's are: a try lost with its worker (killed mid-post; on Temporal
 * a lost attempt counts against them) or stopped by the database is made again, the same try under
 * the same delivery id, rather than ending the run as failed.
 */
const postWebhook = (state: RunState, input: StepCall): Decided => ({
  state: { ...state, tries: input.attempt, retrying: undefined },
  command: call('postWorkflowWebhook', input, RETRY),
});

/** The call of the step the run is at, again, the same visit: a webhook's next try, or a held send once its window opens. */
function again(state: RunState): Decided {
  const { appModeId, workflowId, versionId, contactId, runKey } = state;
  const step = stepOf(state, state.at)!;
  const input: StepCall = {
    appModeId,
    workflowId,
    versionId,
    contactId,
    runKey,
    step,
    visit: state.visits[state.at]!,
    at: state.enteredAt!,
  };
  if (step.kind === 'webhook') return postWebhook(state, { ...input, attempt: (state.tries ?? 1) + 1 });
  return { state: { ...state, retrying: undefined }, command: call('sendWorkflowMessage', input, RETRY) };
}

/** Records the run's end (at its end step, or where an exit or a failure found it), then ends it. */
function finish(state: RunState, outcome: string, way: string, from = leaving(state, way)): Decided {
  const { appModeId, workflowId, contactId, runKey, at } = state;
  const end: RunEnd = { appModeId, workflowId, contactId, runKey, at, outcome, ...(from && { from }) };
  return {
    state: { ...state, until: undefined, ended: outcome },
    command: call('endWorkflowRun', end, { retry: { maxAttempts: 10 } }),
  };
}

/** Waits (again) at the step the run is at: its timer, and the signals every wait hears. */
const waiting = (state: RunState): Decided => ({
  state,
  command: state.until ? { kind: 'wait', until: state.until, signals: [...RUN_SIGNALS] } : { kind: 'wait', signals: [...RUN_SIGNALS] },
});

/**
 * A move to a newer version: its record first, then the run waits again at the same step with the
 * same timer. Signals that come meanwhile wait in the inbox for that wait; a timer due meanwhile
 * fires as soon as it is set again, on the new version.
 */
function moveTo(state: RunState, to: VersionMove): Decided {
  const { appModeId, workflowId, runKey } = state;
  const step = to.steps.find((s) => s.key === state.at);
  const waitsFor = step?.kind === 'wait_for_event' ? step.event : undefined;
  return {
    state: { ...state, moving: to },
    command: call('moveWorkflowRun', { appModeId, workflowId, runKey, versionId: to.versionId, ...(waitsFor && { waitsFor }) }, RETRY),
  };
}

/** A move's version, each member taken (a version without a goal has none). */
const movedTo = ({ versionId, steps, goalEvent }: VersionMove): VersionMove => ({ versionId, steps, goalEvent });

/** Where a step leads once passed. */
function wayOn(step: Step, branch?: 'yes' | 'no' | 'timeout'): string | undefined {
  switch (step.kind) {
    case 'end':
      return undefined;
    case 'branch':
      return branch === 'yes' ? step.yes : step.no;
    case 'wait_for_event':
      return branch === 'timeout' ? (step.timeout ?? step.next) : step.next;
    default:
      return step.next;
  }
}

export const workflowRunProcess = define({
  name: 'workflow-run',
  version: 1,
  signals: RUN_SIGNALS,
  initialState: (input) => ({ ...input, at: input.steps[0]?.key ?? '', unwaited: 0, visits: {} }),
  fairness: ({ appModeId }) => ({ key: appModeId }),
  decide(state, event): Decided {
    const step = stepOf(state, state.at);
    switch (event.kind) {
      case 'started':
        return enter(state, state.at, event.at);
      case 'activity_completed':
        switch (event.activity) {
          case 'endWorkflowRun':
            return { state, command: { kind: 'end', outcome: { outcome: state.ended, at: state.at } } };
          case 'moveWorkflowRun':
            // Recorded: on the new version, waiting again with its timer (a timer due meanwhile fires at once).
            return waiting({ ...state, ...movedTo(state.moving!), moving: undefined });
          case 'beginWorkflowWait':
            return waiting({ ...state, until: event.result.until, unwaited: 0 });
          case 'checkWorkflowCondition': {
            const way = event.result.matched ? 'yes' : 'no';
            return enter(state, wayOn(step!, way)!, event.at, way);
          }
          case 'postWorkflowWebhook':
            if (event.result.retryInMs !== undefined) {
              return waiting({ ...state, retrying: true, until: addMs(event.at, event.result.retryInMs) });
            }
            return enter(state, wayOn(step!)!, event.at, event.result.outcome);
          case 'sendWorkflowMessage':
            if (event.result.heldUntil !== undefined)
              return waiting({ ...state, retrying: true, until: event.result.heldUntil, unwaited: 0 });
            return enter(state, wayOn(step!)!, event.at, event.result.outcome);
          default:
            return enter(state, wayOn(step!)!, event.at, event.result.outcome);
        }
      case 'activity_failed':
        // Retries spent (the database or a provider away for long): the run ends, and says so; a move not recorded is not taken.
        if (event.activity === 'moveWorkflowRun') return waiting({ ...state, moving: undefined });
        return event.activity === 'endWorkflowRun'
          ? { state, command: { kind: 'end', outcome: { outcome: state.ended, at: state.at, unrecorded: true } } }
          : finish(state, 'failed', 'failed');
      case 'timer_fired':
        if (state.retrying) return again({ ...state, until: undefined });
        return step?.kind === 'wait_for_event'
          ? enter(state, step.timeout ?? step.next, event.at, 'timeout')
          : enter(state, wayOn(step!)!, event.at, 'waited');
      case 'signal': {
        const payload = (event.payload ?? {}) as {
          name?: string;
          outcome?: string;
          versionId?: string;
          steps?: Step[];
          goalEvent?: string;
        };
        if (event.name === 'exit') return finish(state, payload.outcome ?? 'exited', 'exited');
        if (event.name === 'event' && payload.name !== undefined) {
          if (state.goalEvent && payload.name === state.goalEvent) return finish(state, 'goal', 'goal');
          if (step?.kind === 'wait_for_event' && payload.name === step.event && !state.retrying)
            return enter({ ...state, unwaited: 0 }, step.next, event.at, 'event');
        }
        if (
          event.name === 'move' &&
          payload.versionId &&
          payload.versionId !== state.versionId &&
          !state.retrying &&
          payload.steps?.some((s) => s.key === state.at && s.kind === step?.kind)
        )
          return moveTo(state, movedTo(payload as VersionMove));
        return waiting(state);
      }
      case 'cancelled':
        return { state, command: { kind: 'end', outcome: { outcome: 'cancelled', at: state.at } } };
    }
  },
});
