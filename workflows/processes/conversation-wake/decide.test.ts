import { describe, expect, it } from 'vitest';
import { conversationWakeProcess as wake } from './decide.js';

const input = { appModeId: 'm1', conversationId: 'c1', until: '2026-11-22T09:00:00.000Z' };
const at = '2026-11-21T10:00:00.000Z';

describe('conversation-wake decide', () => {
  it('waits until the snooze time, then wakes the conversation, then ends saying whether it did', () => {
    const first = wake.decide(wake.initialState(input), { kind: 'started', at, input });
    expect(first.command).toEqual({ kind: 'wait', until: input.until });
    const fired = wake.decide(first.state, { kind: 'timer_fired', at: input.until });
    expect(fired.command).toMatchObject({ kind: 'call', activity: 'wakeConversation', input });
    const done = wake.decide(fired.state, { kind: 'activity_completed', at: input.until, activity: 'wakeConversation', result: false });
    expect(done.command).toEqual({ kind: 'end', outcome: { woke: false } });
  });
});
