import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Services } from '../../src/domain/context.js';
import type { Removed } from '../../src/domain/contacts/erasure.js';
import { buildActivities } from '../processes/activities.js';
import type { EraseActivities } from '../processes/erase/activities.js';
import { eraseProcess, type EraseInput } from '../processes/erase/decide.js';
import type { WebhookInput } from '../processes/webhook/decide.js';
import { processes, type Processes } from '../processes/registry.js';
import { defineProcess } from './define.js';
import { createDurableEngine } from './engine.js';
import type { ProcessInputs, ProcessStarter } from './types.js';
import type { ConversationWakeInput } from '../processes/conversation-wake/decide.js';
import type { PushSendInput } from '../processes/push-send/decide.js';
import type { SignupMailInput } from '../processes/signup-mail/decide.js';
import type { RunInput } from '../processes/workflow-run/decide.js';

// What the compiler holds a process to. Vitest does not type-check: `tsc --noEmit` does (npm test
// runs it first), and every `@ts-expect-error` below fails it the day its line compiles, so the
// guarantee cannot rot unseen. Functions whose names end in "Typing" are never run.

interface State {
  requestId: string;
  removed: Removed | null;
}
const { call, define } = defineProcess<State, EraseInput, EraseActivities>();

describe('a process declared with defineProcess', () => {
  it("builds a call from an activity of its set and that activity's input", () => {
    expect(call('eraseContactData', { requestId: 'r1' }, { timeoutMs: 5 })).toEqual({
      kind: 'call',
      activity: 'eraseContactData',
      input: { requestId: 'r1' },
      timeoutMs: 5,
    });
  });

  it('keeps its name as a literal, so a registry maps names to inputs', () => {
    expectTypeOf(eraseProcess.name).toEqualTypeOf<'erase'>();
    expectTypeOf<ProcessInputs<Processes>>().toEqualTypeOf<{
      erase: EraseInput;
      webhook: WebhookInput;
      'conversation-wake': ConversationWakeInput;
      'push-send': PushSendInput;
      'email-send': PushSendInput;
      'signup-mail': SignupMailInput;
      'workflow-run': RunInput;
    }>();
  });
});

function callTyping() {
  call('finishErase', { requestId: 'r1' });
  // @ts-expect-error a misspelt activity
  call('eraseContactDta', { requestId: 'r1' });
  // @ts-expect-error a wrong activity input
  call('eraseContactData', { requestId: 1 });
  // @ts-expect-error an input the activity does not take
  call('finishErase', { requestId: 'r1', also: true });
  // @ts-expect-error an activity of another process
  call('sendPing', { to: 'ops', reminder: false });
}

function decideTyping() {
  define({
    name: 'typed',
    version: 1,
    signals: ['nudge'],
    initialState: ({ requestId }) => ({ requestId, removed: null }),
    decide: (state, event) => {
      if (event.kind === 'started') expectTypeOf(event.input).toEqualTypeOf<EraseInput>();
      // Each activity's result comes typed by its name.
      if (event.kind === 'activity_completed' && event.activity === 'eraseContactData')
        return { state: { ...state, removed: event.result }, command: call('finishErase', state) };
      if (event.kind === 'signal') expectTypeOf(event.name).toEqualTypeOf<'nudge'>();
      if (event.kind === 'timer_fired') return { state, command: { kind: 'wait', signals: ['nudge'] } };
      return { state, command: { kind: 'end', outcome: null } };
    },
  });

  define({
    name: 'typed',
    version: 1,
    signals: [],
    initialState: ({ requestId }) => ({ requestId, removed: null }),
    // @ts-expect-error a call written out by hand is held to the set too: misspelt
    decide: (state) => ({ state, command: { kind: 'call', activity: 'eraseContatData', input: { requestId: state.requestId } } }),
  });

  define({
    name: 'typed',
    version: 1,
    signals: ['nudge'],
    initialState: ({ requestId }) => ({ requestId, removed: null }),
    // @ts-expect-error a wait on a signal the process does not list (Temporal would register no handler for it)
    decide: (state) => ({ state, command: { kind: 'wait', signals: ['pong'] } }),
  });

  define({
    name: 'typed',
    version: 1,
    signals: [],
    initialState: ({ requestId }) => ({ requestId, removed: null }),
    // @ts-expect-error a process that lists no signal waits on none
    decide: (state) => ({ state, command: { kind: 'wait', signals: ['nudge'] } }),
  });

  define({
    name: 'typed',
    version: 1,
    signals: [],
    // @ts-expect-error a state that is not the process's
    initialState: ({ requestId }) => ({ request: requestId }),
    decide: (state) => ({ state, command: { kind: 'end', outcome: null } }),
  });
}

function startTyping(engine: ProcessStarter<Processes>) {
  void engine.start('erase', 'run', { requestId: 'r1' });
  void engine.start(eraseProcess, 'run', { requestId: 'r1' });
  // @ts-expect-error a wrong process input
  void engine.start('erase', 'run', { requestId: 1 });
  // @ts-expect-error a wrong process input, the process given by its definition
  void engine.start(eraseProcess, 'run', { request: 'r1' });
  // @ts-expect-error a process the registry does not hold (the ping is the tests' own)
  void engine.start('ping', 'run', { to: 'ops', replyWithinMs: 1_000 });
}

function engineTyping(svc: Services) {
  void createDurableEngine(svc, processes, buildActivities(svc));
  // @ts-expect-error an engine takes the activities of every process its registry holds
  void createDurableEngine(svc, processes, {});
  // @ts-expect-error and each with its own signature
  void createDurableEngine(svc, processes, { ...buildActivities(svc), finishErase: async (input: { id: number }) => void input });
}

// Referenced, so they are plainly part of the module; tsc checks them, nothing calls them.
void [callTyping, decideTyping, startTyping, engineTyping];
