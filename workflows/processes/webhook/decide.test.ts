import { describe, expect, it } from 'vitest';
import type { Tried } from '../../../src/domain/webhooks/deliver.js';
import { MAX_TRIES, RETRY_WAITS_MS } from '../../../src/domain/webhooks/schedule.js';
import { webhookProcess as hook, type WebhookState } from './decide.js';

const at = '2026-11-21T10:00:00.000Z';
const input = { deliveryId: 'd1' };
const later = (ms: number) => new Date(Date.parse(at) + ms).toISOString();
const start = () => hook.decide(hook.initialState(input), { kind: 'started', at, input });
const posted = (state: WebhookState, result: Tried, when = at) =>
  hook.decide(state, { kind: 'activity_completed', at: when, activity: 'postDelivery', result });
const post = (attempt: number) => ({
  kind: 'call',
  activity: 'postDelivery',
  input: { deliveryId: 'd1', attempt },
  retry: { maxAttempts: 1 },
  timeoutMs: 60_000,
});

describe('webhook decide', () => {
  it('posts once, the engine not retrying it (each try is logged and counted), and ends when it is delivered', () => {
    const first = start();
    expect(first.command).toEqual(post(1));
    expect(posted(first.state, { outcome: 'delivered' }).command).toEqual({ kind: 'end', outcome: { delivered: true, tries: 1 } });
  });

  it('after a failed try waits as the schedule says, then posts the next try, 10 in all over about twenty minutes, then gives up', () => {
    let d = start();
    let elapsed = 0;
    for (let attempt = 1; attempt < MAX_TRIES; attempt++) {
      expect(d.command).toEqual(post(attempt));
      d = posted(d.state, { outcome: 'retry' }, later(elapsed));
      elapsed += RETRY_WAITS_MS[attempt - 1]!;
      expect(d.command).toEqual({ kind: 'wait', until: later(elapsed) });
      d = hook.decide(d.state, { kind: 'timer_fired', at: later(elapsed) });
    }
    expect(d.command).toEqual(post(MAX_TRIES));
    expect(elapsed).toBe(1_190_000);
    expect(posted(d.state, { outcome: 'retry' }, later(elapsed)).command).toEqual({
      kind: 'end',
      outcome: { delivered: false, tries: MAX_TRIES },
    });
  });

  it('waits 5 s after the first failed try and 5 minutes after the ninth', () => {
    expect(posted(start().state, { outcome: 'retry' }).command).toEqual({ kind: 'wait', until: later(5_000) });
    const ninth: WebhookState = { deliveryId: 'd1', attempt: 9, last: null };
    expect(posted(ninth, { outcome: 'retry' }).command).toEqual({ kind: 'wait', until: later(300_000) });
  });

  it('waits as long as a test asked between every two tries, when its input says so', () => {
    const quick = hook.decide(hook.initialState({ deliveryId: 'd1', retryWaitMs: 200 }), { kind: 'started', at, input });
    const ninth = { ...quick.state, attempt: 9 };
    expect(posted(quick.state, { outcome: 'retry' }).command).toEqual({ kind: 'wait', until: later(200) });
    expect(posted(ninth, { outcome: 'retry' }).command).toEqual({ kind: 'wait', until: later(200) });
  });

  it('ends at once on a final answer (refused for good, the endpoint off or gone), saying it was not delivered', () => {
    let d = posted(start().state, { outcome: 'retry' });
    d = posted(hook.decide(d.state, { kind: 'timer_fired', at }).state, { outcome: 'final' });
    expect(d.command).toEqual({ kind: 'end', outcome: { delivered: false, tries: 2 } });
  });

  it('mails the owners of an endpoint a try switched off, then ends as that try said', () => {
    const switchedOff = { endpointId: 'e1', at };
    const d = posted(start().state, { outcome: 'final', switchedOff });
    expect(d.command).toEqual({
      kind: 'call',
      activity: 'mailSwitchOff',
      input: switchedOff,
      retry: { maxAttempts: 8 },
      timeoutMs: 60_000,
    });
    const mailed = hook.decide(d.state, { kind: 'activity_completed', at, activity: 'mailSwitchOff', result: undefined });
    expect(mailed.command).toEqual({ kind: 'end', outcome: { delivered: false, tries: 1 } });
  });

  it('goes on as the try said when mailing the owners fails past its retries: the mail does not hold up the delivery', () => {
    const d = posted(start().state, { outcome: 'retry', switchedOff: { endpointId: 'e1', at } });
    const failed = hook.decide(d.state, { kind: 'activity_failed', at, activity: 'mailSwitchOff', error: 'smtp down', attempts: 8 });
    expect(failed.command).toEqual({ kind: 'wait', until: later(RETRY_WAITS_MS[0]!) });
  });

  it('counts a try whose step itself failed (the database away) as failed: waits and tries the next', () => {
    const d = hook.decide(start().state, { kind: 'activity_failed', at, activity: 'postDelivery', error: 'db down', attempts: 1 });
    expect(d.command).toEqual({ kind: 'wait', until: later(RETRY_WAITS_MS[0]!) });
    expect(hook.decide(d.state, { kind: 'timer_fired', at: later(RETRY_WAITS_MS[0]!) }).command).toEqual(post(2));
  });

  it('ends when cancelled', () => {
    expect(hook.decide(start().state, { kind: 'cancelled', at }).command).toEqual({
      kind: 'end',
      outcome: { delivered: false, cancelled: true },
    });
  });
});
