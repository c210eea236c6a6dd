import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { HEARTBEAT_EVERY_MS } from './definitions.js';

/**
 * Every worker's activity interceptor: an activity beats while it runs, so that when its worker
 * dies (kill -9, a lost machine) Temporal gives the attempt to another worker once the heartbeat
 * timeout (HEARTBEAT_TIMEOUT_MS) has passed, rather than at the end of its start-to-close timeout
 * (an erase step's is 5 minutes). The activities need not beat themselves.
 */
export const heartbeating: ActivityInterceptorsFactory = (ctx) => ({
  inbound: {
    async execute(input, next) {
      const beat = setInterval(() => ctx.heartbeat(), HEARTBEAT_EVERY_MS);
      try {
        return await next(input);
      } finally {
        clearInterval(beat);
      }
    },
  },
});
