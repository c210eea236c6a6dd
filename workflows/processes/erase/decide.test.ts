import { describe, expect, it } from 'vitest';
import { ERASE_ROUNDS, eraseProcess, REST_MS, type EraseState } from './decide.js';

const at = '2026-11-21T10:00:00.000Z';
const start = () =>
  eraseProcess.decide(eraseProcess.initialState({ requestId: 'r1' }), { kind: 'started', at, input: { requestId: 'r1' } });

describe('erase decide', () => {
  it('erases, then marks the request done, then ends with what was removed', () => {
    const first = start();
    expect(first.command).toMatchObject({ kind: 'call', activity: 'eraseContactData', input: { requestId: 'r1' } });
    const removed = { contacts: 2, events: 6, refusedEvents: 0, outboxEvents: 1 };
    const second = eraseProcess.decide(first.state, { kind: 'activity_completed', at, activity: 'eraseContactData', result: removed });
    expect(second.command).toMatchObject({ kind: 'call', activity: 'finishErase', input: { requestId: 'r1' } });
    const last = eraseProcess.decide(second.state, { kind: 'activity_completed', at, activity: 'finishErase', result: undefined });
    expect(last.command).toEqual({ kind: 'end', outcome: { erased: true, removed } });
  });

  it('rests and tries again when retries are spent, a few rounds, then gives up and says so', () => {
    let d = start();
    for (let round = 1; round < ERASE_ROUNDS; round++) {
      d = eraseProcess.decide(d.state, { kind: 'activity_failed', at, activity: 'eraseContactData', error: 'db down', attempts: 8 });
      expect(d.command).toEqual({ kind: 'wait', until: new Date(Date.parse(at) + REST_MS).toISOString() });
      d = eraseProcess.decide(d.state, { kind: 'timer_fired', at });
      expect(d.command).toMatchObject({ kind: 'call', activity: 'eraseContactData' });
    }
    expect((d.state as EraseState).rounds).toBe(ERASE_ROUNDS);
    d = eraseProcess.decide(d.state, { kind: 'activity_failed', at, activity: 'eraseContactData', error: 'db down', attempts: 8 });
    // The request is handed back for a later sweep to start a new run, then the run ends saying why.
    expect(d.command).toMatchObject({ kind: 'call', activity: 'eraseGaveUp', input: { requestId: 'r1' } });
    const failed = { kind: 'end', outcome: { erased: false, failed: { activity: 'eraseContactData', error: 'db down' } } };
    expect(eraseProcess.decide(d.state, { kind: 'activity_completed', at, activity: 'eraseGaveUp', result: undefined }).command).toEqual(
      failed,
    );
    // Handing it back failing too does not hold the run.
    expect(
      eraseProcess.decide(d.state, { kind: 'activity_failed', at, activity: 'eraseGaveUp', error: 'db down', attempts: 8 }).command,
    ).toEqual(failed);
  });

  it('ends when cancelled', () => {
    expect(eraseProcess.decide(start().state, { kind: 'cancelled', at }).command).toEqual({
      kind: 'end',
      outcome: { erased: false, cancelled: true },
    });
  });
});
