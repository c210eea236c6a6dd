import { addMs } from '../../engine/commands.js';
import { defineProcess } from '../../engine/define.js';
import type { Decision, ProcessEvent } from '../../engine/types.js';
import { MAX_TRIES, RETRY_WAITS_MS } from '../../../src/domain/webhooks/schedule.js';
import type { Tried } from '../../../src/domain/webhooks/deliver.js';
import type { WebhookActivities } from './activities.js';

// One webhook delivery: post, and after a failure wait and post again, 10 tries in all over about
// twenty minutes, unless the answer is final. When a try switched the endpoint off, its owners
// are mailed before the process ends or waits.

export interface WebhookInput {
  deliveryId: string;
  /** Whose delivery it is, and the endpoint it goes to: the engine shares its slots by them, and caps what one endpoint holds. */
  appModeId?: string;
  endpointId?: string;
  /** Tests only (WEBHOOK_TEST_RETRY_WAIT_MS): every wait between tries is this long instead of the schedule's. */
  retryWaitMs?: number;
}

export interface WebhookState {
  deliveryId: string;
  attempt: number;
  /** What the last try said, kept while the owners are mailed. */
  last: Tried['outcome'] | null;
  /** From the input, tests only. */
  retryWaitMs?: number;
}

const { call, define } = defineProcess<WebhookState, WebhookInput, WebhookActivities>();
type WebhookEvent = ProcessEvent<WebhookInput, WebhookActivities, never>;
type WebhookDecision = Decision<WebhookState, WebhookActivities, never>;

const once = { maxAttempts: 1 };
const post = (state: WebhookState, attempt: number): WebhookDecision => ({
  state: { ...state, attempt, last: null },
  command: call('postDelivery', { deliveryId: state.deliveryId, attempt }, { retry: once, timeoutMs: 60_000 }),
});

/** After a try: end, or wait before the next. */
function next(state: WebhookState, outcome: Tried['outcome'], at: string): WebhookDecision {
  if (outcome === 'retry' && state.attempt < MAX_TRIES)
    return {
      state: { ...state, last: outcome },
      command: { kind: 'wait', until: addMs(at, state.retryWaitMs ?? RETRY_WAITS_MS[state.attempt - 1]!) },
    };
  return {
    state: { ...state, last: outcome },
    command: { kind: 'end', outcome: { delivered: outcome === 'delivered', tries: state.attempt } },
  };
}

function decide(state: WebhookState, event: WebhookEvent): WebhookDecision {
  switch (event.kind) {
    case 'started':
      return post(state, 1);
    case 'timer_fired':
      return post(state, state.attempt + 1);
    case 'activity_completed': {
      if (event.activity === 'mailSwitchOff') return next(state, state.last ?? 'final', event.at);
      const tried = event.result as Tried;
      if (tried.switchedOff)
        return {
          state: { ...state, last: tried.outcome },
          command: call('mailSwitchOff', tried.switchedOff, { retry: { maxAttempts: 8 }, timeoutMs: 60_000 }),
        };
      return next(state, tried.outcome, event.at);
    }
    case 'activity_failed':
      // The step itself failed (the database away): a try that may not have been logged; wait and go on.
      if (event.activity === 'mailSwitchOff') return next(state, state.last ?? 'final', event.at);
      return next(state, 'retry', event.at);
    case 'cancelled':
      return { state, command: { kind: 'end', outcome: { delivered: false, cancelled: true } } };
    case 'signal':
      return { state, command: { kind: 'end', outcome: { delivered: false } } };
  }
}

export const webhookProcess = define({
  name: 'webhook',
  version: 1,
  signals: [],
  initialState: ({ deliveryId, retryWaitMs }) => ({
    deliveryId,
    attempt: 0,
    last: null,
    ...(retryWaitMs === undefined ? {} : { retryWaitMs }),
  }),
  fairness: ({ appModeId, endpointId }) => ({ key: appModeId, lane: endpointId }),
  decide,
});
