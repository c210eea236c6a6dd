import type { CallCommand, Command, Instant, RetryPolicy, RunState } from './types.js';

// What both engines read out of a command the same way, so a process behaves alike on either.

/** Temporal's own defaults, but bounded: a process that must keep trying says so. */
export const defaultRetry: RetryPolicy = { maxAttempts: 5, initialIntervalMs: 1_000, backoffCoefficient: 2, maxIntervalMs: 60_000 };
export const defaultTimeoutMs = 60_000;

export const retryPolicyOf = (call: CallCommand): RetryPolicy => ({ ...defaultRetry, ...call.retry });
export const timeoutOf = (call: CallCommand): number => call.timeoutMs ?? defaultTimeoutMs;

/** The pause after the `failures`-th failed attempt, as Temporal computes it. */
export const backoffMs = (policy: RetryPolicy, failures: number): number =>
  Math.min(policy.initialIntervalMs * policy.backoffCoefficient ** (failures - 1), policy.maxIntervalMs);

export function runStateOf(command: Command): RunState {
  if (command.kind === 'call') return 'active';
  if (command.kind === 'end') return 'ended';
  return command.until === undefined ? 'parked' : 'waiting';
}

export const awaitsSignal = (command: Command, name: string): boolean => command.kind === 'wait' && (command.signals ?? []).includes(name);

/** For decide functions: a deadline from an event's time. */
export const addMs = (at: Instant, ms: number): Instant => new Date(Date.parse(at) + ms).toISOString();
