import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { Instant, RunState } from '../engine/types.js';

// What the workflow and the service's Temporal client agree on.

/** A workflow's argument; its workflow type is the process's name. The version is fixed at start so a replay decides as the first run did. */
export interface DurableArgs {
  version: number;
  input: unknown;
  /**
   * Set only by a starter that keeps its own clock (the tests' engine, whose service clock the test
   * moves): the run's time is then this instant and what the clock signal tells it later, not the
   * server's, so its timers fire when that clock says, as the embedded engine's runDue does.
   */
  clock?: Instant;
}

export interface RunView {
  state: RunState;
  wakeAt: Instant | null;
}

export const runViewQuery = defineQuery<RunView>('runView');

/** The time of a run started with a clock (DurableArgs.clock): its due timers fire. Never earlier than it was. */
export const clockSignal = defineSignal<[Instant]>('engine.clock');

/**
 * Every activity on Temporal beats while it runs (the workers' interceptor, heartbeat.ts): one
 * silent this long is taken as lost (its worker killed, say) and tried again by another worker at
 * once, however long its attempt may take (the start-to-close timeout is for a live but slow one).
 */
export const HEARTBEAT_TIMEOUT_MS = 10_000;
/** How often a running activity beats (the SDK sends at most one heartbeat in 80% of the timeout). */
export const HEARTBEAT_EVERY_MS = 2_000;

/** What an activity beyond its run's share of a worker's slots answers (fair-slots.ts); the loop calls it again after DEFER_MS. */
export const DEFERRED = 'Deferred';
export const DEFER_MS = 1_000;

/** Activities a worker runs at once (the SDK's default, said aloud: the fair slots' shares are halves of it). */
export const ACTIVITY_SLOTS = 100;
