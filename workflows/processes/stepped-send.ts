import { addMs } from '../engine/commands.js';
import { defineProcess } from '../engine/define.js';
import type { CallCommand, Decision, ProcessDefinition } from '../engine/types.js';

// A send taken step by step (a push to an audience, an email to an audience): each step sends the
// next page and says when the next is to come (at once, or at a time it names: a provider's pause, a
// throttled device due) or that the send is over. A step that keeps failing (the database away) is
// tried again after a rest, a few rounds, then the send is stopped and says why; a cancel stops it.
// One decide function for every such send; each names its two activities.

export interface SendInput {
  sendId: string;
  /** Whose send it is: the engine shares its slots by it (runs started before it was carried have none). */
  appModeId?: string;
}

export interface StepResult {
  /** The cursor the next step starts after. */
  after: string | null;
  /** The send is over (done or stopped): nothing more to do. */
  finished: boolean;
  /** When to take the next step; null: at once. */
  waitUntil: string | null;
}

export interface SendState {
  sendId: string;
  /** The cursor the next step starts after. */
  after: string | null;
  steps: number;
  /** Rests taken in a row after failed steps. */
  rounds: number;
}

/** A send's activities: the step, and the stop that says why the send ended early. */
export type SendActivities<Step extends string, Stop extends string> = Record<
  Step,
  (input: { sendId: string; after: string | null }) => Promise<StepResult>
> &
  Record<Stop, (input: { sendId: string; reason: string }) => Promise<void>>;

export interface SteppedSendSpec<Name extends string, Step extends string, Stop extends string> {
  name: Name;
  version: number;
  step: Step;
  stop: Stop;
  /** How long one step may take. */
  stepTimeoutMs: number;
  /** The rest after a step that failed every retry, and how many rests in a row before the send is stopped. */
  restMs: number;
  rounds: number;
}

export function steppedSend<const Name extends string, const Step extends string, const Stop extends string>(
  spec: SteppedSendSpec<Name, Step, Stop>,
): ProcessDefinition<SendState, SendInput, SendActivities<Step, Stop>, never, Name> {
  type Acts = SendActivities<Step, Stop>;
  type SendDecision = Decision<SendState, Acts, never>;
  const { define } = defineProcess<SendState, SendInput, Acts>();
  // The two calls, built plainly: the compiler cannot follow generic activity names through the kit's `call`.
  const calling = (state: SendState, command: CallCommand) => ({ state, command }) as unknown as SendDecision;
  const step = (state: SendState) =>
    calling(state, {
      kind: 'call',
      activity: spec.step,
      input: { sendId: state.sendId, after: state.after },
      retry: { maxAttempts: 3 },
      timeoutMs: spec.stepTimeoutMs,
    });
  const stop = (state: SendState, reason: string) =>
    calling(state, { kind: 'call', activity: spec.stop, input: { sendId: state.sendId, reason }, retry: { maxAttempts: 10 } });
  return define({
    name: spec.name,
    version: spec.version,
    signals: [],
    initialState: ({ sendId }) => ({ sendId, after: null, steps: 0, rounds: 0 }),
    fairness: ({ appModeId }) => ({ key: appModeId }),
    decide(state, event): SendDecision {
      switch (event.kind) {
        case 'started':
        case 'timer_fired':
          return step(state);
        case 'activity_completed': {
          if (event.activity === spec.stop) return { state, command: { kind: 'end', outcome: { finished: false, steps: state.steps } } };
          const result = event.result as StepResult;
          const next = { ...state, after: result.after, steps: state.steps + 1, rounds: 0 };
          if (result.finished) return { state: next, command: { kind: 'end', outcome: { finished: true, steps: next.steps } } };
          return result.waitUntil ? { state: next, command: { kind: 'wait', until: result.waitUntil } } : step(next);
        }
        case 'activity_failed':
          if (event.activity === spec.stop)
            return { state, command: { kind: 'end', outcome: { finished: false, steps: state.steps, error: event.error } } };
          if (state.rounds >= spec.rounds) return stop(state, `a step kept failing: ${event.error}`);
          return { state: { ...state, rounds: state.rounds + 1 }, command: { kind: 'wait', until: addMs(event.at, spec.restMs) } };
        case 'cancelled':
          return stop(state, 'cancelled');
        case 'signal':
          return { state, command: { kind: 'end', outcome: { finished: false, steps: state.steps } } };
      }
    },
  });
}
