import { describe, expect, it } from 'vitest';
import { BATCH_TIMEOUT_MS, REST_MS, ROUNDS } from '../../../src/domain/push/schedule.js';
import { pushSendProcess as send, type PushSendState } from './decide.js';

const at = '2026-11-21T10:00:00.000Z';
const start = () => send.decide(send.initialState({ sendId: 's1' }), { kind: 'started', at, input: { sendId: 's1' } });
const done = (state: unknown, result: { after: string | null; finished: boolean; waitUntil: string | null }) =>
  send.decide(state as PushSendState, { kind: 'activity_completed', at, activity: 'sendPushBatch', result });

describe('push-send decide', () => {
  it('takes steps one after the other from the cursor each step hands back, then ends when a step says the send is over', () => {
    const first = start();
    expect(first.command).toEqual({
      kind: 'call',
      activity: 'sendPushBatch',
      input: { sendId: 's1', after: null },
      retry: { maxAttempts: 3 },
      timeoutMs: BATCH_TIMEOUT_MS,
    });
    const second = done(first.state, { after: 'c500', finished: false, waitUntil: null });
    expect(second.command).toMatchObject({ kind: 'call', activity: 'sendPushBatch', input: { sendId: 's1', after: 'c500' } });
    const last = done(second.state, { after: 'c900', finished: true, waitUntil: null });
    expect(last.command).toEqual({ kind: 'end', outcome: { finished: true, steps: 2 } });
  });

  it('waits until the time a step names (a provider’s pause, a throttled device due), then takes the next step from where it was', () => {
    const waiting = done(start().state, { after: 'c500', finished: false, waitUntil: '2026-11-21T10:00:07.000Z' });
    expect(waiting.command).toEqual({ kind: 'wait', until: '2026-11-21T10:00:07.000Z' });
    const fired = send.decide(waiting.state, { kind: 'timer_fired', at: '2026-11-21T10:00:07.000Z' });
    expect(fired.command).toMatchObject({ kind: 'call', activity: 'sendPushBatch', input: { sendId: 's1', after: 'c500' } });
  });

  it('rests after a step that failed every retry, a few rounds, then stops the send saying why', () => {
    let d = start();
    for (let round = 1; round <= ROUNDS; round++) {
      d = send.decide(d.state, { kind: 'activity_failed', at, activity: 'sendPushBatch', error: 'db down', attempts: 3 });
      expect(d.command).toEqual({ kind: 'wait', until: new Date(Date.parse(at) + REST_MS).toISOString() });
      d = send.decide(d.state, { kind: 'timer_fired', at });
    }
    d = send.decide(d.state, { kind: 'activity_failed', at, activity: 'sendPushBatch', error: 'db down', attempts: 3 });
    expect(d.command).toMatchObject({
      kind: 'call',
      activity: 'stopPushSend',
      input: { sendId: 's1', reason: 'a step kept failing: db down' },
    });
    expect(send.decide(d.state, { kind: 'activity_completed', at, activity: 'stopPushSend', result: undefined }).command).toEqual({
      kind: 'end',
      outcome: { finished: false, steps: 0 },
    });
  });

  it('a step that succeeds after rests starts the count of rounds afresh', () => {
    let d = send.decide(start().state, { kind: 'activity_failed', at, activity: 'sendPushBatch', error: 'db down', attempts: 3 });
    d = done(send.decide(d.state, { kind: 'timer_fired', at }).state, { after: 'c1', finished: false, waitUntil: null });
    expect((d.state as PushSendState).rounds).toBe(0);
  });

  it('stops the send when cancelled', () => {
    expect(send.decide(start().state, { kind: 'cancelled', at }).command).toMatchObject({
      kind: 'call',
      activity: 'stopPushSend',
      input: { sendId: 's1', reason: 'cancelled' },
    });
  });
});
