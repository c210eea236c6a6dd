import { addMs } from '../../engine/commands.js';
import { defineProcess } from '../../engine/define.js';
import type { Decision, ProcessEvent } from '../../engine/types.js';
import type { EraseActivities } from './activities.js';

// Erasing a person (DELETE /server/v1/contacts/{external_id}): remove their data in every mode
// of the app, then mark the request done. Should the removal keep failing past its retries, the
// process waits a while and tries again, a few rounds, before it gives up and says so: it hands the
// request back (eraseGaveUp), so the next sweep starts a new run for it while its block lasts.

export interface EraseInput {
  requestId: string;
  /** Whose person it is: the engine shares its slots by it (runs started before it was carried have none). */
  appModeId?: string;
}

export interface EraseState {
  requestId: string;
  phase: 'erasing' | 'finishing' | 'resting' | 'giving_up';
  rounds: number;
  removed: unknown;
  /** Set when the run gives up: the step that kept failing. */
  failed?: { activity: string; error: string };
}

export interface EraseOutcome {
  erased: boolean;
  removed?: unknown;
  cancelled?: boolean;
  failed?: { activity: string; error: string };
}

export const ERASE_ROUNDS = 5;
export const REST_MS = 15 * 60_000;
const retry = { maxAttempts: 8, initialIntervalMs: 2_000, backoffCoefficient: 2, maxIntervalMs: 60_000 };
const timeoutMs = 5 * 60_000;

const { call, define } = defineProcess<EraseState, EraseInput, EraseActivities>();
/** What decide hears and answers: the erase's activities, and no signal. */
type EraseEvent = ProcessEvent<EraseInput, EraseActivities, never>;
type EraseDecision = Decision<EraseState, EraseActivities, never>;

const erase = (state: EraseState): EraseDecision => ({
  state: { ...state, phase: 'erasing', rounds: state.rounds + 1 },
  command: call('eraseContactData', { requestId: state.requestId }, { retry, timeoutMs }),
});

const gaveUp = (state: EraseState): EraseDecision => ({
  state,
  command: { kind: 'end', outcome: { erased: false, failed: state.failed } satisfies EraseOutcome },
});

function decide(state: EraseState, event: EraseEvent): EraseDecision {
  switch (event.kind) {
    case 'started':
    case 'timer_fired':
      return erase(state);
    case 'activity_completed':
      if (state.phase === 'erasing')
        return {
          state: { ...state, phase: 'finishing', removed: event.result },
          command: call('finishErase', { requestId: state.requestId }, { retry, timeoutMs }),
        };
      if (state.phase === 'giving_up') return gaveUp(state);
      return { state, command: { kind: 'end', outcome: { erased: true, removed: state.removed } satisfies EraseOutcome } };
    case 'activity_failed':
      // Handing the request back failed too: the run ends all the same, saying why.
      if (state.phase === 'giving_up') return gaveUp(state);
      if (state.rounds < ERASE_ROUNDS)
        return { state: { ...state, phase: 'resting' }, command: { kind: 'wait', until: addMs(event.at, REST_MS) } };
      return {
        state: { ...state, phase: 'giving_up', failed: { activity: event.activity, error: event.error } },
        command: call('eraseGaveUp', { requestId: state.requestId }, { retry, timeoutMs }),
      };
    case 'cancelled':
      return { state, command: { kind: 'end', outcome: { erased: false, cancelled: true } satisfies EraseOutcome } };
    case 'signal':
      // The process listens for none; erasing again from the start is safe (both steps are idempotent).
      return erase(state);
  }
}

export const eraseProcess = define({
  name: 'erase',
  version: 1,
  signals: [],
  initialState: ({ requestId }) => ({ requestId, phase: 'erasing', rounds: 0, removed: null }),
  fairness: ({ appModeId }) => ({ key: appModeId }),
  decide,
});
