import { describe, expect, it } from 'vitest';
import type { Step } from '../../../src/domain/workflows/definition.js';
import type { Command, ProcessEvent } from '../../engine/types.js';
import { MAX_UNWAITED, workflowRunProcess as run, type RunInput, type RunState } from './decide.js';

const steps: Step[] = [
  { key: 'wait_a_day', kind: 'wait', seconds: 86_400, next: 'pro' },
  { key: 'pro', kind: 'branch', condition: {}, yes: 'hello_pro', no: 'hello' },
  { key: 'hello_pro', kind: 'send', channel: 'email', messageId: 'm1', next: 'opened' },
  { key: 'hello', kind: 'send', channel: 'notice', content: { title: 'Hello' }, next: 'opened' },
  { key: 'opened', kind: 'wait_for_event', event: 'app_opened', timeoutSeconds: 3600, next: 'engaged', timeout: 'nudge' },
  { key: 'nudge', kind: 'webhook', url: 'https://hooks.example.com/n', next: 'done' },
  { key: 'engaged', kind: 'tag', action: 'add', tag: 'engaged', next: 'done' },
  { key: 'done', kind: 'end', outcome: 'welcomed' },
];
const input: RunInput = { appModeId: 'm', workflowId: 'w', versionId: 'v1', runKey: 'k', contactId: 'c', steps, goalEvent: 'order_paid' };
const at = '2026-11-29T10:00:00.000Z';

/** Feeds events one after another; answers each command and the last state. */
function drive(events: ProcessEvent[], from?: RunState) {
  let state = from ?? run.initialState(input);
  const commands: Command[] = [];
  for (const event of events) {
    const d = run.decide(state, event as never);
    state = d.state;
    commands.push(d.command as Command);
  }
  return { state, commands, last: commands.at(-1)! };
}
const started: ProcessEvent = { kind: 'started', at, input };
const done = (activity: string, result: unknown = { outcome: 'sent' }): ProcessEvent => ({
  kind: 'activity_completed',
  at,
  activity,
  result,
});
const signal = (name: string, payload: unknown): ProcessEvent => ({ kind: 'signal', at, name, payload });
const later = '2026-11-30T10:00:00.000Z';

describe('a workflow run', () => {
  it('walks wait, branch, send and a wait for an event that came, to its end, each step its own activity', () => {
    const { commands, last } = drive([
      started,
      done('beginWorkflowWait', { until: later }),
      { kind: 'timer_fired', at: later },
      done('checkWorkflowCondition', { matched: true }),
      done('sendWorkflowMessage'),
      done('beginWorkflowWait', { until: later }),
      signal('event', { name: 'app_opened' }),
      done('tagWorkflowPerson'),
      done('endWorkflowRun', undefined),
    ]);
    expect(commands.map((c) => (c.kind === 'call' ? c.activity : c.kind))).toEqual([
      'beginWorkflowWait',
      'wait',
      'checkWorkflowCondition',
      'sendWorkflowMessage',
      'beginWorkflowWait',
      'wait',
      'tagWorkflowPerson',
      'endWorkflowRun',
      'end',
    ]);
    expect(commands[1]).toEqual({ kind: 'wait', until: later, signals: ['event', 'exit', 'move'] });
    expect(last).toEqual({ kind: 'end', outcome: { outcome: 'welcomed', at: 'done' } });
  });

  it('takes the other way of a branch and the timeout way of a wait for an event, posting the webhook under its visit', () => {
    const { commands } = drive([
      started,
      done('beginWorkflowWait', { until: later }),
      { kind: 'timer_fired', at: later },
      done('checkWorkflowCondition', { matched: false }),
      done('sendWorkflowMessage'),
      done('beginWorkflowWait', { until: later }),
      signal('event', { name: 'something_else' }),
      { kind: 'timer_fired', at: later },
    ]);
    const calls = commands.filter((c) => c.kind === 'call');
    expect(calls[2]).toMatchObject({ activity: 'sendWorkflowMessage', input: { step: { key: 'hello' }, visit: 1 } });
    // Another event than the awaited one: the run waits on, until the same time.
    expect(commands[6]).toEqual({ kind: 'wait', until: later, signals: ['event', 'exit', 'move'] });
    expect(commands.at(-1)).toMatchObject({
      kind: 'call',
      activity: 'postWorkflowWebhook',
      input: { step: { key: 'nudge' }, visit: 1, runKey: 'k' },
    });
  });

  it('ends with the goal when the goal event comes at any wait, and on an exit', () => {
    const goal = drive([started, done('beginWorkflowWait', { until: later }), signal('event', { name: 'order_paid' })]);
    expect(goal.last).toMatchObject({ kind: 'call', activity: 'endWorkflowRun', input: { at: 'wait_a_day', outcome: 'goal' } });
    expect(drive([done('endWorkflowRun', undefined)], goal.state).last).toEqual({
      kind: 'end',
      outcome: { outcome: 'goal', at: 'wait_a_day' },
    });
    const left = drive([started, done('beginWorkflowWait', { until: later }), signal('exit', { outcome: 'left_audience' })]);
    expect(left.last).toMatchObject({ kind: 'call', activity: 'endWorkflowRun', input: { outcome: 'left_audience' } });
  });

  it('moves a waiting run to a newer version where its step is still there, recording the move first, and keeps it where it is not', () => {
    const waitingRun = drive([started, done('beginWorkflowWait', { until: later })]).state;
    const newer = [{ ...steps[0]!, seconds: 60, next: 'hello' }, ...steps.slice(1)];
    const asked = drive([signal('move', { versionId: 'v2', steps: newer })], waitingRun);
    // The move is recorded before it is taken: the run is still on its version meanwhile.
    expect(asked.last).toEqual({
      kind: 'call',
      activity: 'moveWorkflowRun',
      input: { appModeId: 'm', workflowId: 'w', runKey: 'k', versionId: 'v2' },
      retry: { maxAttempts: 5 },
      timeoutMs: 60_000,
    });
    expect(asked.state.versionId).toBe('v1');
    const moved = drive([done('moveWorkflowRun', undefined)], asked.state);
    // On v2, without v1's goal (v2 has none), waiting again with the same timer.
    expect(moved.state).toMatchObject({ versionId: 'v2', at: 'wait_a_day', steps: newer, goalEvent: undefined, moving: undefined });
    expect(moved.last).toEqual({ kind: 'wait', until: later, signals: ['event', 'exit', 'move'] });
    // Its timer then takes it on by v2's way.
    expect(drive([{ kind: 'timer_fired', at: later }], moved.state).last).toMatchObject({
      activity: 'sendWorkflowMessage',
      input: { versionId: 'v2', step: { key: 'hello' } },
    });

    // A step v3 lacks, or has as another kind: the run stays on its version and waits on.
    const gone = drive([signal('move', { versionId: 'v3', steps: steps.slice(1) })], waitingRun);
    expect(gone.state.versionId).toBe('v1');
    expect(gone.last).toEqual({ kind: 'wait', until: later, signals: ['event', 'exit', 'move'] });
    const otherKind = [{ key: 'wait_a_day', kind: 'wait_until', time: '09:00', next: 'pro' } as Step, ...steps.slice(1)];
    expect(drive([signal('move', { versionId: 'v3', steps: otherKind })], waitingRun).last.kind).toBe('wait');
    // A move to the version it is on already (a row handed on twice) records nothing.
    expect(drive([signal('move', { versionId: 'v1', steps })], waitingRun).last.kind).toBe('wait');
  });

  it('tells the record the event a moved wait for an event now waits for, and keeps the move off a webhook between its tries', () => {
    const atOpened = drive([
      started,
      done('beginWorkflowWait', { until: later }),
      { kind: 'timer_fired', at: later },
      done('checkWorkflowCondition', { matched: true }),
      done('sendWorkflowMessage'),
      done('beginWorkflowWait', { until: later }),
    ]).state;
    const newer = steps.map((s) => (s.key === 'opened' ? { ...s, event: 'app_launched' } : s));
    const asked = drive([signal('move', { versionId: 'v2', steps: newer, goalEvent: 'order_paid' })], atOpened);
    expect(asked.last).toMatchObject({ activity: 'moveWorkflowRun', input: { versionId: 'v2', waitsFor: 'app_launched' } });
    // v2's event takes it on once moved (v1's no longer does).
    const moved = drive([done('moveWorkflowRun', undefined)], asked.state).state;
    expect(drive([signal('event', { name: 'app_opened' })], moved).last.kind).toBe('wait');
    expect(drive([signal('event', { name: 'app_launched' })], moved).last).toMatchObject({ activity: 'tagWorkflowPerson' });

    const retrying = drive(
      [{ kind: 'timer_fired', at: later }, done('postWorkflowWebhook', { outcome: 'failed', retryInMs: 1000 })],
      atOpened,
    );
    expect(retrying.state).toMatchObject({ at: 'nudge', retrying: true });
    expect(drive([signal('move', { versionId: 'v2', steps })], retrying.state).last).toMatchObject({ kind: 'wait' });
  });

  it('answers a timer, an event or the goal that came while the move was being recorded, once it waits again, on the new version', () => {
    const waitingRun = drive([started, done('beginWorkflowWait', { until: later })]).state;
    const newer = [{ ...steps[0]!, next: 'hello' }, ...steps.slice(1)];
    const asked = drive([signal('move', { versionId: 'v2', steps: newer, goalEvent: 'renewed' })], waitingRun).state;
    // The timer's time passed meanwhile: the wait set again is due at once (the engines fire it), and leads by v2's way.
    const { commands } = drive([done('moveWorkflowRun', undefined), { kind: 'timer_fired', at: later }], asked);
    expect(commands[0]).toEqual({ kind: 'wait', until: later, signals: ['event', 'exit', 'move'] });
    expect(commands[1]).toMatchObject({ activity: 'sendWorkflowMessage', input: { step: { key: 'hello' } } });
    // The new version's goal, heard in the wait after the move, ends the run; v1's goal no longer does.
    const moved = drive([done('moveWorkflowRun', undefined)], asked).state;
    expect(drive([signal('event', { name: 'renewed' })], moved).last).toMatchObject({
      activity: 'endWorkflowRun',
      input: { outcome: 'goal' },
    });
    expect(drive([signal('event', { name: 'order_paid' })], moved).last.kind).toBe('wait');
    // A move whose record cannot be written is not taken: the run waits on its version.
    const failed = drive([{ kind: 'activity_failed', at, activity: 'moveWorkflowRun', error: 'db away', attempts: 5 }], asked);
    expect(failed.state).toMatchObject({ versionId: 'v1', steps, moving: undefined });
    expect(failed.last).toEqual({ kind: 'wait', until: later, signals: ['event', 'exit', 'move'] });
    // A cancel while it is recorded ends the run.
    expect(drive([{ kind: 'cancelled', at }], asked).last).toMatchObject({ kind: 'end', outcome: { outcome: 'cancelled' } });
  });

  it('ends as failed when a step’s retries are spent, and at once when cancelled (an erase)', () => {
    const failed = drive([started, { kind: 'activity_failed', at, activity: 'beginWorkflowWait', error: 'db away', attempts: 5 }]);
    expect(failed.last).toMatchObject({ kind: 'call', activity: 'endWorkflowRun', input: { outcome: 'failed' } });
    expect(drive([started, { kind: 'cancelled', at }]).last).toEqual({ kind: 'end', outcome: { outcome: 'cancelled', at: 'wait_a_day' } });
  });

  it('ends as failed rather than spin, should a loop without a wait ever be run', () => {
    const spin: Step[] = [
      { key: 'a', kind: 'tag', action: 'add', tag: 't', next: 'b' },
      { key: 'b', kind: 'tag', action: 'remove', tag: 't', next: 'a' },
    ];
    let state = run.initialState({ ...input, steps: spin });
    let d = run.decide(state, { kind: 'started', at, input } as never);
    for (let i = 0; i < MAX_UNWAITED + 5 && d.command.kind === 'call' && d.command.activity !== 'endWorkflowRun'; i++) {
      state = d.state;
      d = run.decide(state, done('tagWorkflowPerson') as never);
    }
    expect(d.command).toMatchObject({ kind: 'call', activity: 'endWorkflowRun', input: { outcome: 'failed' } });
  });
});

describe('a workflow run’s ways out and webhook tries', () => {
  const toWebhook = [
    started,
    done('beginWorkflowWait', { until: later }),
    { kind: 'timer_fired', at: later } as ProcessEvent,
    done('checkWorkflowCondition', { matched: false }),
    done('sendWorkflowMessage'),
    done('beginWorkflowWait', { until: later }),
    { kind: 'timer_fired', at: later } as ProcessEvent,
  ];

  it('tells each step the way the run left the step before it', () => {
    const { commands } = drive(toWebhook);
    const froms = commands.filter((c) => c.kind === 'call').map((c) => (c.input as { from?: { key: string; way: string } }).from);
    expect(froms).toEqual([
      undefined,
      { key: 'wait_a_day', visit: 1, way: 'waited' },
      { key: 'pro', visit: 1, way: 'no' },
      { key: 'hello', visit: 1, way: 'sent' },
      { key: 'opened', visit: 1, way: 'timeout' },
    ]);
  });

  it('waits on a timer when a try asks to be made again, then tries the same visit with the next attempt and the first try’s time', () => {
    const first = drive(toWebhook);
    expect(first.last).toMatchObject({
      kind: 'call',
      activity: 'postWorkflowWebhook',
      input: { step: { key: 'nudge' }, visit: 1, attempt: 1, at: later },
    });
    // The activity's own attempts are retried (a try lost with a killed worker is made again), not one only.
    expect(first.last).toMatchObject({ retry: { maxAttempts: 5 } });
    const retry = '2026-11-30T10:00:05.000Z';
    const waited = drive(
      [{ kind: 'activity_completed', at: later, activity: 'postWorkflowWebhook', result: { outcome: 'retry', retryInMs: 5000 } }],
      first.state,
    );
    expect(waited.last).toEqual({ kind: 'wait', until: retry, signals: ['event', 'exit', 'move'] });
    const again = drive([{ kind: 'timer_fired', at: retry }], waited.state);
    expect(again.last).toMatchObject({
      kind: 'call',
      activity: 'postWorkflowWebhook',
      input: { step: { key: 'nudge' }, visit: 1, attempt: 2, at: later },
    });
    const sent = drive(
      [{ kind: 'activity_completed', at: retry, activity: 'postWorkflowWebhook', result: { outcome: 'sent' } }],
      again.state,
    );
    expect(sent.last).toMatchObject({ kind: 'call', activity: 'endWorkflowRun', input: { at: 'done', outcome: 'welcomed' } });
  });

  it('waits at a send step held by its sending window, asks it again the same visit when the window opens, and hears the goal meanwhile', () => {
    const toSend = toWebhook.slice(0, 4);
    const opens = '2026-12-01T09:00:00.000Z';
    const held = drive([...toSend, done('sendWorkflowMessage', { outcome: 'held', reason: 'outside_window', heldUntil: opens })]);
    expect(held.last).toEqual({ kind: 'wait', until: opens, signals: ['event', 'exit', 'move'] });
    expect(held.state).toMatchObject({ at: 'hello', retrying: true, unwaited: 0 });
    const asked = drive([{ kind: 'timer_fired', at: opens }], held.state);
    expect(asked.last).toMatchObject({ kind: 'call', activity: 'sendWorkflowMessage', input: { step: { key: 'hello' }, visit: 1, at } });
    expect(asked.state.retrying).toBeUndefined();
    const sent = drive([done('sendWorkflowMessage')], asked.state);
    expect(sent.last).toMatchObject({ kind: 'call', activity: 'beginWorkflowWait', input: { step: { key: 'opened' } } });
    // Held, the run still ends on its goal, and is not moved off the step it waits to take.
    const goal = drive([signal('event', { name: 'order_paid' })], held.state);
    expect(goal.last).toMatchObject({ kind: 'call', activity: 'endWorkflowRun', input: { outcome: 'goal', at: 'hello' } });
    const move = drive([signal('move', { versionId: 'v2', steps })], held.state);
    expect(move.last).toEqual({ kind: 'wait', until: opens, signals: ['event', 'exit', 'move'] });
  });
});
