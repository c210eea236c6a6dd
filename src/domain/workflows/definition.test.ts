import { describe, expect, it } from 'vitest';
import { readWorkflow, type RuleReader } from './definition.js';

// Conditions are read by the caller's audience reader; here any object is a rule.
const anyRule: RuleReader = (r, value, path) => (typeof value === 'object' && value !== null ? value : r.fail(path, 'must be a rule'));

const welcome = {
  trigger: { kind: 'event', event: 'signed_up' },
  entry: { againAfterDays: 30 },
  exit: { goalEvent: 'order_paid' },
  steps: [
    { key: 'wait_a_day', kind: 'wait', seconds: 86_400, next: 'morning' },
    { key: 'morning', kind: 'wait_until', time: '09:00', next: 'pro' },
    { key: 'pro', kind: 'branch', condition: { attribute: 'plan', op: 'eq', value: 'pro' }, yes: 'hello_pro', no: 'hello' },
    { key: 'hello_pro', kind: 'send', channel: 'email', messageId: 'msg-1', next: 'opened' },
    { key: 'hello', kind: 'send', channel: 'notice', content: { title: 'Hello', link: '/start' }, topic: 'news', next: 'opened' },
    { key: 'opened', kind: 'wait_for_event', event: 'app_opened', timeoutSeconds: 604_800, next: 'tag', timeout: 'nudge' },
    { key: 'nudge', kind: 'webhook', url: 'https://hooks.example.com/nudge', next: 'mark' },
    { key: 'mark', kind: 'set_attribute', attribute: 'nudged', value: true, next: 'done' },
    { key: 'tag', kind: 'tag', action: 'add', tag: 'engaged', next: 'done' },
    { key: 'done', kind: 'end', outcome: 'welcomed' },
  ],
};

describe('readWorkflow', () => {
  it('reads a workflow of every step kind, its trigger, entry and exit rules', () => {
    const { workflow, errors } = readWorkflow(welcome, anyRule);
    expect(errors).toEqual([]);
    expect(workflow!.entry).toEqual({ once: false, againAfterDays: 30 });
    expect(workflow!.exit).toEqual({ goalEvent: 'order_paid' });
    expect(workflow!.steps.map((s) => s.kind)).toEqual([
      'wait',
      'wait_until',
      'branch',
      'send',
      'send',
      'wait_for_event',
      'webhook',
      'set_attribute',
      'tag',
      'end',
    ]);
    expect(readWorkflow({ ...welcome, entry: undefined }, anyRule).workflow!.entry).toEqual({ once: true });
  });

  it('refuses each bad member, named by its path', () => {
    const steps = [
      { key: 'Bad Key', kind: 'end' },
      { key: 'w', kind: 'wait', next: 'done' },
      { key: 'at', kind: 'wait_until', time: '25:00', next: 'done' },
      { key: 's', kind: 'send', channel: 'fax', messageId: 'm', next: 'done' },
      { key: 'h', kind: 'webhook', url: 'http://plain.example.com', next: 'done' },
      { key: 'x', kind: 'teleport' },
      { key: 'done', kind: 'end' },
      { key: 'done', kind: 'end' },
    ];
    const { errors } = readWorkflow({ trigger: { kind: 'event' }, exit: { leavesAudience: true }, steps }, anyRule);
    expect(errors.map((e) => e.field)).toEqual([
      'trigger.event',
      'steps.0.key',
      'steps.1.seconds',
      'steps.2.time',
      'steps.3.channel',
      'steps.4.url',
      'steps.5.kind',
      'steps.7.key',
    ]);
  });

  it('reads a wait for an event alone (no timeout, no timeout way), and refuses one of the pair without the other', () => {
    const parked = (step: Record<string, unknown>) =>
      readWorkflow(
        {
          trigger: { kind: 'event', event: 'asked' },
          steps: [
            { key: 'answer', kind: 'wait_for_event', event: 'answered', next: 'done', ...step },
            { key: 'done', kind: 'end' },
          ],
        },
        anyRule,
      );
    expect(parked({}).workflow!.steps[0]).toEqual({ key: 'answer', kind: 'wait_for_event', event: 'answered', next: 'done' });
    expect(parked({ timeout: 'done' }).errors).toEqual([{ field: 'steps.0.timeoutSeconds', message: 'is required' }]);
    expect(parked({ timeoutSeconds: 60 }).errors).toEqual([{ field: 'steps.0.timeout', message: 'must name a step by its key' }]);
  });

  it('refuses leaving the audience as an exit of a workflow no audience starts', () => {
    const { errors } = readWorkflow({ ...welcome, exit: { leavesAudience: true } }, anyRule);
    expect(errors).toEqual([
      { field: 'exit.leavesAudience', message: 'only a workflow its audience starts can end when the person leaves it' },
    ]);
  });

  it('refuses, naming the step, a step unreached, a path that never ends and a loop without a wait', () => {
    const steps = [
      { key: 'a', kind: 'tag', action: 'add', tag: 't', next: 'b' },
      { key: 'b', kind: 'tag', action: 'remove', tag: 't', next: 'a' },
      { key: 'lost', kind: 'end' },
    ];
    const { workflow, errors } = readWorkflow({ trigger: { kind: 'event', event: 'e' }, steps }, anyRule);
    expect(workflow).toBeUndefined();
    expect(errors.map((e) => e.message)).toEqual([
      'step lost cannot be reached from the first step (a)',
      'step a never ends: every way on from it loops without reaching an end step',
      'step b never ends: every way on from it loops without reaching an end step',
      'steps a, b loop without waiting: put a wait in the loop',
    ]);
    const wrongWay = readWorkflow(
      { trigger: { kind: 'event', event: 'e' }, steps: [{ key: 'a', kind: 'wait', seconds: 60, next: 'zz' }] },
      anyRule,
    );
    expect(wrongWay.errors).toEqual([{ field: 'steps.0.next', message: 'step a leads to zz, which is no step of this workflow' }]);
  });
});

describe('a send step', () => {
  const sendOf = (step: Record<string, unknown>) =>
    readWorkflow(
      {
        trigger: { kind: 'event', event: 'x' },
        steps: [
          { key: 's', kind: 'send', next: 'e', ...step },
          { key: 'e', kind: 'end' },
        ],
      },
      anyRule,
    );

  it('reads a notice or a push with its words and topic, and an email or in-app message by id', () => {
    expect(sendOf({ channel: 'push', content: { title: 'Hi', body: '', link: '' } }).workflow!.steps[0]).toEqual({
      key: 's',
      kind: 'send',
      channel: 'push',
      content: { title: 'Hi' },
      next: 'e',
    });
    expect(sendOf({ channel: 'email', messageId: 'em_1' }).workflow!.steps[0]).toMatchObject({ channel: 'email', messageId: 'em_1' });
  });

  it('refuses a notice without its words, naming the member', () => {
    expect(sendOf({ channel: 'notice' }).errors.map((e) => e.field)).toEqual(['steps.0.content']);
    expect(sendOf({ channel: 'notice', content: { body: 'no title' } }).errors.map((e) => e.field)).toEqual(['steps.0.content.title']);
    expect(sendOf({ channel: 'push', content: { title: 'Hi' }, topic: 7 }).errors.map((e) => e.field)).toEqual(['steps.0.topic']);
  });
});
