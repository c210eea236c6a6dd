import { ApplicationFailure } from '@temporalio/common';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import type { Fairness } from '../engine/types.js';
import { DEFERRED } from './definitions.js';

/**
 * Fair slots on Temporal, as the embedded engine shares its own: a worker's activity interceptor
 * that lets the activities of one app-mode (a process's fairness key) hold at most half of the
 * worker's activity slots at once, and those of one lane (a webhook endpoint) at most four. An
 * activity beyond its share is not run: it answers DEFERRED at once, and the workflow loop calls it
 * again after a short pause, without counting an attempt (loop.ts). So a tenant's slow receivers
 * cost that tenant: another's activity finds a free slot as soon as the task queue hands it over.
 * A quarter of the slots is kept for app-modes holding none: an app-mode already holding one takes
 * another only while more than that many are free, so two tenants flooding together still leave
 * room for a third's quick step.
 * The workflow passes the run's fairness as the activity's second argument, which the activity
 * itself never sees.
 */
export function fairSlots({ slots, laneCap = 4 }: { slots: number; laneCap?: number }): ActivityInterceptorsFactory {
  const keyCap = Math.max(1, Math.floor(slots / 2));
  const reserve = Math.max(1, Math.floor(slots / 4));
  const held = new Map<string, number>();
  let running = 0;
  const count = (k: string | null) => (k === null ? 0 : (held.get(k) ?? 0));
  const add = (k: string | null, n: number) => {
    if (k === null) return;
    const now = count(k) + n;
    if (now > 0) held.set(k, now);
    else held.delete(k);
  };
  return () => ({
    inbound: {
      async execute(input, next) {
        const fairness = (input.args[1] as { fairness?: Fairness } | undefined)?.fairness;
        const key = fairness?.key ? `key:${fairness.key}` : null;
        const lane = fairness?.lane ? `lane:${fairness.lane}` : null;
        const crowded = key !== null && count(key) > 0 && slots - running <= reserve;
        if (count(key) >= keyCap || count(lane) >= laneCap || crowded)
          throw ApplicationFailure.create({
            type: DEFERRED,
            nonRetryable: true,
            message: `its ${count(lane) >= laneCap ? 'endpoint' : 'app-mode'} holds its share of this worker's activity slots`,
          });
        add(key, 1);
        add(lane, 1);
        running++;
        try {
          return await next({ ...input, args: input.args.slice(0, 1) });
        } finally {
          add(key, -1);
          add(lane, -1);
          running--;
        }
      },
    },
  });
}
