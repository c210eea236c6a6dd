import type { Services } from '../context.js';
import { tooManyRequests } from '../errors.js';

export interface Allowance {
  key: string;
  perMinute: number;
}

const WINDOW_SECONDS = 60;

/**
 * Admits one request against every allowance at once, or throws 429 with the seconds to wait.
 * Never more than `perMinute` in any 60-second span; counts live in PostgreSQL (crm_rate_take),
 * so every server process on one database shares them.
 */
export async function takeRequest(svc: Services, allowances: Allowance[]): Promise<void> {
  const { rows } = await svc.pool.query<{ wait: number }>('SELECT crm_rate_take($1::text[], $2::int[], $3, $4) AS wait', [
    allowances.map((a) => a.key),
    allowances.map((a) => a.perMinute),
    WINDOW_SECONDS,
    svc.clock.now().getTime(),
  ]);
  const wait = rows[0]?.wait ?? 0;
  if (wait > 0) throw tooManyRequests(wait);
}

/** Drops buckets that no window reaches any more. */
export async function sweepRateBuckets(svc: Services): Promise<void> {
  await svc.pool.query('DELETE FROM rate_bucket WHERE second < $1', [Math.floor(svc.clock.now().getTime() / 1000) - WINDOW_SECONDS - 1]);
}
