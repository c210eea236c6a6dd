import { describe, expect, it } from 'vitest';
import type { Command, Decision, ProcessEvent } from '../../engine/types.js';
import { ping, type PingInput, type PingState } from './decide.js';

const input: PingInput = { to: 'ops', replyWithinMs: 60_000 };
const t0 = '2026-01-01T00:00:00.000Z';

/** Feeds events in order from the started one; returns every command decided. */
function run(...events: ProcessEvent<PingInput>[]): { state: PingState; commands: Command[] } {
  let decision: Decision<PingState> = ping.decide(ping.initialState(input), { kind: 'started', at: t0, input });
  const commands = [decision.command];
  for (const event of events) {
    decision = ping.decide(decision.state, event);
    commands.push(decision.command);
  }
  return { state: decision.state, commands };
}

const completed = (activity: string, at = t0): ProcessEvent<PingInput> => ({ kind: 'activity_completed', at, activity, result: {} });

describe('ping decide', () => {
  it('sends a ping first', () => {
    expect(run().commands).toEqual([expect.objectContaining({ kind: 'call', activity: 'sendPing', input: { to: 'ops', reminder: false } })]);
  });

  it('then waits for a pong until the deadline, counted from when the ping went', () => {
    const { commands } = run(completed('sendPing', '2026-01-01T00:00:05.000Z'));
    expect(commands[1]).toEqual({ kind: 'wait', until: '2026-01-01T00:01:05.000Z', signals: ['pong'] });
  });

  it('records a pong that came in time and ends answered', () => {
    const { commands } = run(completed('sendPing'), { kind: 'signal', at: t0, name: 'pong', payload: { from: 'ops' } }, completed('recordPong'));
    expect(commands[2]).toMatchObject({ kind: 'call', activity: 'recordPong', input: { to: 'ops', pong: { from: 'ops' } } });
    expect(commands[3]).toEqual({ kind: 'end', outcome: { answered: true, reminded: false, pong: { from: 'ops' } } });
  });

  it('reminds once at the deadline, then waits for the pong with no deadline (parked)', () => {
    const { commands } = run(completed('sendPing'), { kind: 'timer_fired', at: t0 }, completed('sendPing'));
    expect(commands[2]).toMatchObject({ kind: 'call', activity: 'sendPing', input: { to: 'ops', reminder: true } });
    expect(commands[3]).toEqual({ kind: 'wait', signals: ['pong'] });
    const after = run(completed('sendPing'), { kind: 'timer_fired', at: t0 }, completed('sendPing'), { kind: 'signal', at: t0, name: 'pong', payload: 'late' }, completed('recordPong'));
    expect(after.commands.at(-1)).toEqual({ kind: 'end', outcome: { answered: true, reminded: true, pong: 'late' } });
  });

  it('ends unanswered when an activity fails for good, saying which and how often', () => {
    const { commands } = run({ kind: 'activity_failed', at: t0, activity: 'sendPing', error: 'unreachable', attempts: 3 });
    expect(commands[1]).toEqual({ kind: 'end', outcome: { answered: false, reminded: false, failed: { activity: 'sendPing', error: 'unreachable', attempts: 3 } } });
  });

  it('ends on a cancel, wherever it stands', () => {
    expect(run(completed('sendPing'), { kind: 'cancelled', at: t0 }).commands.at(-1)).toEqual({ kind: 'end', outcome: { answered: false, reminded: false, cancelled: true } });
  });

  it('is deterministic: the same events give the same answers', () => {
    const events: ProcessEvent<PingInput>[] = [completed('sendPing'), { kind: 'timer_fired', at: t0 }];
    expect(run(...events)).toEqual(run(...events));
  });
});
