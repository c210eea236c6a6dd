import type { WorkerOptions } from '@temporalio/worker';
import { fairSlots } from './fair-slots.js';
import { heartbeating } from './heartbeat.js';

/**
 * How a worker runs activities, the same for `npm run worker` and the tests' workers: `slots` at
 * once, each beating while it runs (heartbeat.ts), shared fairly between app-modes and endpoints
 * (fair-slots.ts).
 */
export const activitySlots = (slots: number): Pick<WorkerOptions, 'maxConcurrentActivityTaskExecutions' | 'interceptors'> => ({
  maxConcurrentActivityTaskExecutions: slots,
  interceptors: { activity: [heartbeating, fairSlots({ slots })] },
});
