import { defineQuery } from '@temporalio/workflow';
import type { Instant, RunState } from '../engine/types.js';

// What the workflow and the service's Temporal client agree on.

/** A workflow's argument; its workflow type is the process's name. The version is fixed at start so a replay decides as the first run did. */
export interface DurableArgs {
  version: number;
  input: unknown;
}

export interface RunView {
  state: RunState;
  wakeAt: Instant | null;
}

export const runViewQuery = defineQuery<RunView>('runView');
