import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  condition,
  defineSignal,
  isCancellation,
  proxyActivities,
  setHandler,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import { awaitsSignal, retryPolicyOf, runStateOf, timeoutOf } from '../engine/commands.js';
import type { ProcessRegistry } from '../engine/registry.js';
import type { CallCommand, Fairness, ProcessEvent, WaitCommand } from '../engine/types.js';
import { clockSignal, DEFER_MS, DEFERRED, HEARTBEAT_TIMEOUT_MS, runViewQuery, type DurableArgs, type RunView } from './definitions.js';

// The Temporal adapter: one workflow that loops over a process's decide function, for the
// processes of a registry. A workflows module makes it its default export (workflows.ts, for the
// service's registry), which Temporal runs for every workflow type the bundle does not name, so
// each run's workflow type is its process's name ("erase") and its history shows each activity
// under its own name. Only pure modules are imported: the bundle is a sandbox.

interface Received {
  name: string;
  payload: unknown;
}

/** A run's time: its starter's clock when it was started with one, else (deterministic inside a workflow) the current workflow task's. */
interface RunClock {
  now(): string;
  /** Only for a run started with a clock: the time it was last told. */
  told: number | null;
}

/** The workflow that runs the registry's processes, each run on the version it began with. */
export const durableWorkflow = (registry: ProcessRegistry) =>
  async function durableProcess({ version, input, clock }: DurableArgs): Promise<unknown> {
    const { workflowType } = workflowInfo();
    const def = registry.get(workflowType, version);
    // Thrown, not returned: the workflow task fails and is retried until a worker that has this version takes it.
    if (!def) throw new Error(`this worker has no ${workflowType} v${version}`);

    const inbox: Received[] = [];
    for (const name of def.signals) setHandler(defineSignal<[unknown]>(name), (payload) => void inbox.push({ name, payload }));
    let view: RunView = { state: 'active', wakeAt: null };
    setHandler(runViewQuery, () => view);
    const time: RunClock = {
      told: clock === undefined ? null : Date.parse(clock),
      now: () => new Date(time.told ?? Date.now()).toISOString(),
    };
    setHandler(clockSignal, (at) => {
      if (time.told !== null) time.told = Math.max(time.told, Date.parse(at));
    });
    const now = time.now;

    const fairness = def.fairness?.(input) ?? {};
    let decision = def.decide(def.initialState(input), { kind: 'started', at: now(), input });
    let cancelled = false;
    while (decision.command.kind !== 'end') {
      const command = decision.command;
      view = { state: runStateOf(command), wakeAt: command.kind === 'wait' ? (command.until ?? null) : null };
      const next = () => (command.kind === 'call' ? call(command, time, fairness) : wait(command, inbox, time));
      let event: ProcessEvent;
      try {
        // Once cancelled, the process's own answer to it (a last activity, say) must run to its end.
        event = await (cancelled ? CancellationScope.nonCancellable(next) : next());
      } catch (err) {
        if (cancelled || !isCancellation(err)) throw err;
        cancelled = true;
        event = { kind: 'cancelled', at: now() };
      }
      decision = def.decide(decision.state, event);
    }
    return decision.command.outcome;
  };

async function call(command: CallCommand, { now }: RunClock, fairness: Fairness): Promise<ProcessEvent> {
  const policy = retryPolicyOf(command);
  const activities = proxyActivities({
    startToCloseTimeout: timeoutOf(command),
    heartbeatTimeout: HEARTBEAT_TIMEOUT_MS,
    retry: {
      maximumAttempts: policy.maxAttempts,
      initialInterval: policy.initialIntervalMs,
      backoffCoefficient: policy.backoffCoefficient,
      maximumInterval: policy.maxIntervalMs,
    },
  });
  const activity = activities[command.activity]!; // the proxy answers every name
  try {
    // The run's fairness goes along for the workers' fair slots (fair-slots.ts), which keep it from the activity.
    const result = await deferred(() => activity(command.input, { fairness }));
    return { kind: 'activity_completed', at: now(), activity: command.activity, result };
  } catch (err) {
    if (!(err instanceof ActivityFailure) || isCancellation(err)) throw err;
    // Temporal gives up only once the policy's attempts are spent (our activities raise no non-retryable errors).
    return {
      kind: 'activity_failed',
      at: now(),
      activity: command.activity,
      error: err.cause?.message ?? err.message,
      attempts: policy.maxAttempts,
    };
  }
}

/** Called again after a pause while a worker answers that the run's share of its slots is taken: no attempt is counted. */
async function deferred<T>(attempt: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await attempt();
    } catch (err) {
      if (!(err instanceof ActivityFailure && err.cause instanceof ApplicationFailure && err.cause.type === DEFERRED)) throw err;
      await sleep(DEFER_MS);
    }
  }
}

/** condition() with a timeout is the durable timer (or, on a starter's clock, the clock signal); the inbox answers the signals. */
async function wait(command: WaitCommand, inbox: Received[], time: RunClock): Promise<ProcessEvent> {
  const { now } = time;
  const awaited = () => inbox.findIndex((s) => awaitsSignal(command, s.name));
  if (command.until === undefined) await condition(() => awaited() >= 0);
  else if (time.told !== null) {
    const until = Date.parse(command.until);
    await condition(() => awaited() >= 0 || time.told! >= until);
  } else {
    const ms = Date.parse(command.until) - Date.now();
    if (awaited() < 0 && ms > 0) await condition(() => awaited() >= 0, ms);
  }
  const i = awaited();
  const signal = inbox[i];
  if (!signal) return { kind: 'timer_fired', at: now() };
  inbox.splice(i, 1);
  return { kind: 'signal', at: now(), name: signal.name, payload: signal.payload };
}
