import { addMs } from '../../engine/commands.js';
import type { Decision, Instant, ProcessDefinition, ProcessEvent } from '../../engine/types.js';

// The demonstration process: send a ping, wait for a pong up to a deadline, send one reminder
// when none came and then wait as long as it takes, record the pong, end. It passes through
// every run state: active, waiting (deadline and signal), parked (signal only), ended.

export interface PingInput {
  to: string;
  replyWithinMs: number;
}

export interface PingState {
  to: string;
  replyWithinMs: number;
  phase: 'pinging' | 'awaiting_pong' | 'reminding' | 'recording';
  reminded: boolean;
  pong: unknown;
}

export interface PingOutcome {
  answered: boolean;
  reminded: boolean;
  pong?: unknown;
  cancelled?: boolean;
  failed?: { activity: string; error: string; attempts: number };
}

const retry = { maxAttempts: 3, initialIntervalMs: 1_000, backoffCoefficient: 2, maxIntervalMs: 10_000 };
const timeoutMs = 10_000;

const sendPing = (state: PingState, reminder: boolean): Decision<PingState> => ({
  state: { ...state, phase: reminder ? 'reminding' : 'pinging', reminded: state.reminded || reminder },
  command: { kind: 'call', activity: 'sendPing', input: { to: state.to, reminder }, retry, timeoutMs },
});

const awaitPong = (state: PingState, until?: Instant): Decision<PingState> => ({
  state: { ...state, phase: 'awaiting_pong' },
  command: until === undefined ? { kind: 'wait', signals: ['pong'] } : { kind: 'wait', until, signals: ['pong'] },
});

const end = (state: PingState, outcome: Omit<PingOutcome, 'reminded'>): Decision<PingState> => ({
  state,
  command: { kind: 'end', outcome: { ...outcome, reminded: state.reminded } },
});

function decide(state: PingState, event: ProcessEvent<PingInput>): Decision<PingState> {
  switch (event.kind) {
    case 'started':
      return sendPing(state, false);
    case 'activity_completed':
      if (state.phase === 'pinging') return awaitPong(state, addMs(event.at, state.replyWithinMs));
      if (state.phase === 'reminding') return awaitPong(state);
      return end(state, { answered: true, pong: state.pong });
    case 'timer_fired':
      return sendPing(state, true);
    case 'signal':
      return {
        state: { ...state, phase: 'recording', pong: event.payload },
        command: { kind: 'call', activity: 'recordPong', input: { to: state.to, pong: event.payload }, retry, timeoutMs },
      };
    case 'activity_failed':
      return end(state, { answered: false, failed: { activity: event.activity, error: event.error, attempts: event.attempts } });
    case 'cancelled':
      return end(state, { answered: false, cancelled: true });
  }
}

export const ping: ProcessDefinition<PingState, PingInput> = {
  name: 'ping',
  version: 1,
  signals: ['pong'],
  initialState: ({ to, replyWithinMs }) => ({ to, replyWithinMs, phase: 'pinging', reminded: false, pong: null }),
  decide,
};
