import { addMs } from '../../engine/commands.js';
import { defineProcess } from '../../engine/define.js';
import type { Decision, ProcessEvent } from '../../engine/types.js';
import { BATCH_TIMEOUT_MS, REST_MS, ROUNDS } from '../../../src/domain/push/schedule.js';
import type { PushSendActivities } from './activities.js';

// One push send, step by step: each step sends the throttled devices due again and the next page of
// the audience, and says when the next step is to come (at once, after a provider's pause, or when
// the next throttled device is due) or that the send is over. A step that keeps failing (the
// database away) is tried again after a rest, a few rounds, then the send is stopped and says why.

export interface PushSendInput {
  sendId: string;
  /** Whose send it is: the engine shares its slots by it (runs started before it was carried have none). */
  appModeId?: string;
}

export interface PushSendState {
  sendId: string;
  /** The last contact paged. */
  after: string | null;
  steps: number;
  /** Rests taken in a row after failed steps. */
  rounds: number;
}

const { call, define } = defineProcess<PushSendState, PushSendInput, PushSendActivities>();
type PushSendDecision = Decision<PushSendState, PushSendActivities, never>;
type PushSendEvent = ProcessEvent<PushSendInput, PushSendActivities, never>;

const step = (state: PushSendState): PushSendDecision => ({
  state,
  command: call('sendPushBatch', { sendId: state.sendId, after: state.after }, { retry: { maxAttempts: 3 }, timeoutMs: BATCH_TIMEOUT_MS }),
});
const stop = (state: PushSendState, reason: string): PushSendDecision => ({
  state,
  command: call('stopPushSend', { sendId: state.sendId, reason }, { retry: { maxAttempts: 10 } }),
});

function decide(state: PushSendState, event: PushSendEvent): PushSendDecision {
  switch (event.kind) {
    case 'started':
    case 'timer_fired':
      return step(state);
    case 'activity_completed': {
      if (event.activity === 'stopPushSend') return { state, command: { kind: 'end', outcome: { finished: false, steps: state.steps } } };
      const result = event.result;
      const next = { ...state, after: result.after, steps: state.steps + 1, rounds: 0 };
      if (result.finished) return { state: next, command: { kind: 'end', outcome: { finished: true, steps: next.steps } } };
      return result.waitUntil ? { state: next, command: { kind: 'wait', until: result.waitUntil } } : step(next);
    }
    case 'activity_failed':
      if (event.activity === 'stopPushSend')
        return { state, command: { kind: 'end', outcome: { finished: false, steps: state.steps, error: event.error } } };
      if (state.rounds >= ROUNDS) return stop(state, `a step kept failing: ${event.error}`);
      return { state: { ...state, rounds: state.rounds + 1 }, command: { kind: 'wait', until: addMs(event.at, REST_MS) } };
    case 'cancelled':
      return stop(state, 'cancelled');
    case 'signal':
      return { state, command: { kind: 'end', outcome: { finished: false, steps: state.steps } } };
  }
}

export const pushSendProcess = define({
  name: 'push-send',
  version: 1,
  signals: [],
  initialState: ({ sendId }) => ({ sendId, after: null, steps: 0, rounds: 0 }),
  fairness: ({ appModeId }) => ({ key: appModeId }),
  decide,
});
