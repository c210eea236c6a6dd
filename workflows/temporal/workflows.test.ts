import { ActivityFailure, ApplicationFailure, CancelledFailure, RetryState } from '@temporalio/common';
import { beforeEach, describe, expect, it, vi } from 'vitest';

// The workflow loop with @temporalio/workflow mocked: activities answer from the test, condition()
// waits until the test resolves it (a timer that fired: false; a signal: the condition's own
// answer), handlers are kept to be called. This shows the loop calls, waits and ends as decide
// says; it does not show Temporal's semantics, which only a Temporal server can.

type Answer = (activity: string, input: unknown) => Promise<unknown>;
interface PendingCondition {
  fn: () => boolean;
  timeout: number | undefined;
  resolve: (fired: boolean) => void;
  reject: (err: unknown) => void;
}

const h = vi.hoisted(() => ({
  calls: [] as { activity: string; input: unknown; options: Record<string, unknown> }[],
  answer: (async () => ({})) as Answer,
  signals: new Map<string, (payload: unknown) => void>(),
  queries: new Map<string, () => unknown>(),
  pending: undefined as PendingCondition | undefined,
}));

vi.mock('@temporalio/workflow', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@temporalio/workflow')>()),
  workflowInfo: () => ({ workflowType: 'ping' }),
  proxyActivities: (options: Record<string, unknown>) =>
    new Proxy(
      {},
      { get: (_, activity: string) => (input: unknown) => (h.calls.push({ activity, input, options }), h.answer(activity, input)) },
    ),
  defineSignal: (name: string) => ({ type: 'signal', name }),
  defineQuery: (name: string) => ({ type: 'query', name }),
  setHandler: (def: { type: string; name: string }, handler: never) =>
    (def.type === 'signal' ? h.signals : h.queries).set(def.name, handler),
  condition: (fn: () => boolean, timeout?: number) =>
    new Promise((resolve, reject) => {
      if (fn()) return resolve(true);
      h.pending = { fn, timeout, resolve, reject };
    }),
  CancellationScope: { nonCancellable: (fn: () => Promise<unknown>) => fn() },
}));

// The tests' workflows module: the same loop as the service's, over a registry holding the ping.
const { default: durableProcess } = await import('../../test/fixtures/ping/workflows.js');
const { HEARTBEAT_TIMEOUT_MS } = await import('./definitions.js');

const input = { to: 'ops', replyWithinMs: 60_000 };

/** The condition the workflow waits on now, once it has got there. */
async function waiting(): Promise<PendingCondition> {
  await vi.waitFor(() => expect(h.pending).toBeDefined());
  const pending = h.pending!;
  h.pending = undefined;
  return pending;
}

function signal(pending: PendingCondition, name: string, payload: unknown) {
  h.signals.get(name)!(payload);
  pending.resolve(pending.fn()); // Temporal re-evaluates blocked conditions after a signal
}

const view = () => h.queries.get('runView')!();

beforeEach(() => {
  h.calls = [];
  h.answer = async () => ({});
  h.signals.clear();
  h.queries.clear();
  h.pending = undefined;
});

describe('the Temporal workflow loop over decide', () => {
  it('calls the activity by its own name with the mapped retry policy, waits with a timer and a signal, calls the next, ends', async () => {
    const run = durableProcess({ version: 1, input });
    const pending = await waiting();
    expect(h.calls).toEqual([
      {
        activity: 'sendPing',
        input: { to: 'ops', reminder: false },
        options: {
          startToCloseTimeout: 10_000,
          heartbeatTimeout: HEARTBEAT_TIMEOUT_MS,
          retry: { maximumAttempts: 3, initialInterval: 1_000, backoffCoefficient: 2, maximumInterval: 10_000 },
        },
      },
    ]);
    expect(pending.timeout).toBeGreaterThan(59_000);
    expect(pending.timeout).toBeLessThanOrEqual(60_000);
    expect(view()).toMatchObject({ state: 'waiting', wakeAt: expect.any(String) });
    signal(pending, 'pong', { from: 'ops' });
    expect(await run).toEqual({ answered: true, reminded: false, pong: { from: 'ops' } });
    expect(h.calls.map((c) => c.activity)).toEqual(['sendPing', 'recordPong']);
  });

  it('on a clock of its starter, fires the timer when the clock signal says its time has come, and not before', async () => {
    const run = durableProcess({ version: 1, input, clock: '2026-01-01T00:00:00.000Z' });
    const pending = await waiting();
    expect(pending.timeout).toBeUndefined(); // no timer of the server's: the starter's clock decides
    expect(view()).toEqual({ state: 'waiting', wakeAt: '2026-01-01T00:01:00.000Z' });
    h.signals.get('engine.clock')!('2026-01-01T00:00:59.999Z');
    expect(pending.fn()).toBe(false);
    h.signals.get('engine.clock')!('2026-01-01T00:01:00.000Z');
    expect(pending.fn()).toBe(true);
    h.signals.get('engine.clock')!('2026-01-01T00:00:30.000Z'); // a clock put back: the run's time never goes back
    expect(pending.fn()).toBe(true);
    pending.resolve(true);
    const parked = await waiting();
    expect(h.calls.map((c) => c.input)).toEqual([
      { to: 'ops', reminder: false },
      { to: 'ops', reminder: true },
    ]);
    signal(parked, 'pong', 'late');
    expect(await run).toEqual({ answered: true, reminded: true, pong: 'late' });
  });

  it('on the timer, reminds, then parks on the signal alone', async () => {
    const run = durableProcess({ version: 1, input });
    (await waiting()).resolve(false);
    const parked = await waiting();
    expect(parked.timeout).toBeUndefined();
    expect(view()).toEqual({ state: 'parked', wakeAt: null });
    signal(parked, 'pong', 'late');
    expect(await run).toEqual({ answered: true, reminded: true, pong: 'late' });
    expect(h.calls.map((c) => [c.activity, c.input])).toEqual([
      ['sendPing', { to: 'ops', reminder: false }],
      ['sendPing', { to: 'ops', reminder: true }],
      ['recordPong', { to: 'ops', pong: 'late' }],
    ]);
  });

  it('keeps a signal that came during an activity for the next wait, which then does not wait', async () => {
    h.answer = async (activity) => {
      if (activity === 'sendPing') h.signals.get('pong')!('early');
      return {};
    };
    expect(await durableProcess({ version: 1, input })).toEqual({ answered: true, reminded: false, pong: 'early' });
    expect(h.pending).toBeUndefined();
  });

  it('hands decide an activity that failed for good, with its error', async () => {
    h.answer = async (activity) => {
      throw new ActivityFailure(
        'activity failed',
        activity,
        '1',
        RetryState.MAXIMUM_ATTEMPTS_REACHED,
        'worker',
        ApplicationFailure.retryable('unreachable'),
      );
    };
    expect(await durableProcess({ version: 1, input })).toEqual({
      answered: false,
      reminded: false,
      failed: { activity: 'sendPing', error: 'unreachable', attempts: 3 },
    });
  });

  it('hands decide a cancel that comes while waiting', async () => {
    const run = durableProcess({ version: 1, input });
    (await waiting()).reject(new CancelledFailure('cancelled'));
    expect(await run).toEqual({ answered: false, reminded: false, cancelled: true });
  });

  it('hands decide a cancel that comes during an activity', async () => {
    h.answer = async (activity) => {
      throw new ActivityFailure(
        'activity cancelled',
        activity,
        '1',
        RetryState.CANCEL_REQUESTED,
        'worker',
        new CancelledFailure('cancelled'),
      );
    };
    expect(await durableProcess({ version: 1, input })).toEqual({ answered: false, reminded: false, cancelled: true });
  });

  it('refuses a version this code does not have, failing the workflow task rather than deciding wrongly', async () => {
    await expect(durableProcess({ version: 99, input })).rejects.toThrow('this worker has no ping v99');
  });
});
