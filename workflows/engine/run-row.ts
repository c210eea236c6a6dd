import { ENGINE_LEASE_BOUNDS_MS } from '../../src/config.js';
import { Prisma, type WorkflowRun } from '../../src/generated/prisma/client.js';
import { join, raw, sql, type Sql } from '../../src/db/sql.js';
import { awaitsSignal, backoffMs, retryPolicyOf, runStateOf, timeoutOf } from './commands.js';
import type { AnyProcess, CallCommand, Command, Decision, Instant, ProcessEvent, RunDescription, RunState } from './types.js';

// How a run's row changes on the embedded engine, apart from the SQL that claims and saves it.

export interface InboxEntry {
  name: string;
  payload: unknown;
  receivedAt: Instant;
}

export interface RunChange {
  status?: RunState;
  state?: Prisma.InputJsonValue;
  command?: Prisma.InputJsonValue;
  inbox?: Prisma.InputJsonValue;
  wakeAt?: Date | null;
  leaseUntil?: Date | null;
  attempts?: number;
  lastError?: string | null;
  cancelDeliveredAt?: Date;
  endedAt?: Date;
  outcome?: Prisma.InputJsonValue | typeof Prisma.JsonNull;
}

/** The columns a change writes, and how each value is sent (JSON as text cast to jsonb, a time as a time). */
const CHANGE_COLUMNS: Record<keyof RunChange, { column: string; json?: true }> = {
  status: { column: 'status' },
  state: { column: 'state', json: true },
  command: { column: 'command', json: true },
  inbox: { column: 'inbox', json: true },
  wakeAt: { column: 'wake_at' },
  leaseUntil: { column: 'lease_until' },
  attempts: { column: 'attempts' },
  lastError: { column: 'last_error' },
  cancelDeliveredAt: { column: 'cancel_delivered_at' },
  endedAt: { column: 'ended_at' },
  outcome: { column: 'outcome', json: true },
};

/** A change as the SET list of an UPDATE of workflow_run, the revision bumped: raw SQL, as the engine's hot path writes it. */
export function setsOf(change: RunChange): Sql {
  const sets = Object.entries(change).flatMap(([key, value]) => {
    if (value === undefined) return [];
    const { column, json } = CHANGE_COLUMNS[key as keyof RunChange];
    // Prisma.JsonNull is JSON's null, not the database's NULL (which a run's outcome never is once ended).
    if (json) return [sql`${raw(column)} = ${value === Prisma.JsonNull ? 'null' : JSON.stringify(value)}::jsonb`];
    if (key === 'status') return [sql`status = ${value}::"WorkflowRunStatus"`];
    return [sql`${raw(column)} = ${value}`];
  });
  return join([...sets, raw('revision = revision + 1')]);
}

/** A decision's state and command, stored as they are: JSON by the model's own rule. */
const json = (value: unknown) => value as Prisma.InputJsonValue;

export const commandOf = (run: WorkflowRun) => run.command as unknown as Command;
export const inboxOf = (run: WorkflowRun) => run.inbox as unknown as InboxEntry[];
export const cancelPending = (run: WorkflowRun) => run.cancelRequestedAt !== null && run.cancelDeliveredAt === null;

/** The row after decide answered. Status and due time follow from the command; a wait that an
 *  inbox signal or a pending cancel already answers is due at once. */
export function settle(decision: Decision<unknown>, now: Date, inbox: InboxEntry[], cancelWaiting: boolean) {
  const { command } = decision;
  const dueNow =
    command.kind === 'call' || (command.kind === 'wait' && (cancelWaiting || inbox.some((s) => awaitsSignal(command, s.name))));
  return {
    status: runStateOf(command),
    state: json(decision.state),
    command: json(command),
    inbox: json(inbox),
    wakeAt: dueNow ? now : command.kind === 'wait' && command.until !== undefined ? new Date(command.until) : null,
    leaseUntil: null,
    attempts: 0,
    lastError: null,
    ...(command.kind === 'end' ? { endedAt: now, outcome: command.outcome == null ? Prisma.JsonNull : json(command.outcome) } : {}),
  } satisfies RunChange;
}

/** Hands the run's decide function one event and settles its answer. */
export function advance(def: AnyProcess, run: WorkflowRun, event: ProcessEvent, now: Date, inbox = inboxOf(run)): RunChange {
  const cancelDelivered = event.kind === 'cancelled';
  const change = settle(def.decide(run.state, event), now, inbox, cancelPending(run) && !cancelDelivered);
  return cancelDelivered ? { ...change, cancelDeliveredAt: now } : change;
}

/**
 * How long a running activity's lease lasts without a heartbeat by default: a killed worker's runs
 * are taken up by another this soon. A deployment sets its own (EMBEDDED_ENGINE_LEASE_MS).
 */
export const LEASE_MS: number = ENGINE_LEASE_BOUNDS_MS.default;
/** How often a process extends its leases: three tenths of the lease, so a few heartbeats fit in one (3 s of 10 s). */
export const heartbeatOf = (leaseMs: number): number => Math.round((leaseMs * 3) / 10);
/** The lease an activity call is taken under: short, extended by its process's heartbeat; never past its own timeout. */
export const leaseOf = (call: CallCommand, leaseMs = LEASE_MS): number => Math.min(leaseMs, timeoutOf(call));

/** How many more times than its retry policy allows an attempt is made again after it was lost with its worker
 *  or its connection to the database: nothing says it was done, so decide is not told it failed. Ten, a second
 *  apart: a database cutting connections for several seconds (a failover) does not make a step fail (a push
 *  step that failed rests a minute). */
export const LOST_ATTEMPT_RETRIES = 10;
/** The pause before an attempt lost with its worker or its connection is made again: nothing says the activity itself failed. */
export const LOST_RETRY_MS = 1_000;

/** A failed attempt (run.attempts counts it): tried again after backoff while the policy
 *  allows, else decide hears of the failure. An attempt `lost` (its worker gone, its database
 *  connection cut) is made again with the same input a few times more than the policy allows. */
export function afterFailure(def: AnyProcess, run: WorkflowRun, call: CallCommand, error: string, now: Date, lost = false): RunChange {
  const policy = retryPolicyOf(call);
  if (run.attempts < policy.maxAttempts + (lost ? LOST_ATTEMPT_RETRIES : 0)) {
    const retryAt = new Date(now.getTime() + (lost ? LOST_RETRY_MS : backoffMs(policy, run.attempts)));
    return { leaseUntil: null, lastError: error, wakeAt: cancelPending(run) ? now : retryAt };
  }
  const event = { kind: 'activity_failed', at: now.toISOString(), activity: call.activity, error, attempts: run.attempts } as const;
  return { ...advance(def, run, event, now), lastError: error };
}

/** The step a claimed run takes when it is not the start of an activity. Throws when this code cannot take it. */
export function stepWithoutActivity(def: AnyProcess | undefined, run: WorkflowRun, now: Date, leaseMs = LEASE_MS): RunChange {
  if (!def) throw new Error(`this code has no ${run.process} v${run.processVersion}`);
  const at = now.toISOString();
  const command = commandOf(run);
  if (cancelPending(run)) return advance(def, run, { kind: 'cancelled', at }, now);
  // A call gets here only still leased: the worker running it was lost (no heartbeat for a lease's length).
  if (command.kind === 'call')
    return afterFailure(
      def,
      run,
      command,
      `${command.activity} was lost with its worker: no heartbeat within ${leaseOf(command, leaseMs)} ms`,
      now,
      true,
    );
  if (command.kind === 'end') throw new Error('an ended run was due');
  const inbox = inboxOf(run);
  const i = inbox.findIndex((s) => awaitsSignal(command, s.name));
  const signal = inbox[i];
  if (signal)
    return advance(
      def,
      run,
      { kind: 'signal', at, name: signal.name, payload: signal.payload },
      now,
      inbox.filter((_, j) => j !== i),
    );
  if (command.until !== undefined && Date.parse(command.until) <= now.getTime()) return advance(def, run, { kind: 'timer_fired', at }, now);
  // Woken by a signal it does not wait for: back to sleep.
  return { wakeAt: command.until === undefined ? null : new Date(command.until) };
}

export function describeRun(run: WorkflowRun): RunDescription {
  return {
    runId: run.id,
    process: run.process,
    state: run.status,
    startedAt: run.startedAt,
    endedAt: run.endedAt,
    outcome: run.outcome,
    wakeAt: run.status === 'ended' ? null : run.wakeAt,
    attempts: run.attempts,
    lastError: run.lastError,
  };
}
