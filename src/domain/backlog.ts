import { rows as sqlRows, sql } from '../db/sql.js';
import type { Ctx } from './context.js';

// What an operator alerts on, read when metrics are scraped: how far each outbox consumer is behind,
// and the durable runs not yet ended by process and status. Each is one grouped statement over
// small sets (the outbox is purged; ended runs are left out).

export interface ConsumerBacklog {
  consumer: string;
  /** Rows committed and not yet handed to the consumer. */
  rows: number;
  /** Seconds since the oldest of those was written; 0 when none is waiting. */
  seconds: number;
}

export async function outboxBacklog(ctx: Ctx): Promise<ConsumerBacklog[]> {
  const rows = await sqlRows<{ consumer: string; rows: number; seconds: number | null }>(
    ctx,
    sql`SELECT c.name AS consumer, count(e.id)::int AS rows, extract(epoch FROM now() - min(e.created_at))::float8 AS seconds
    FROM outbox_consumer c
    LEFT JOIN outbox_event e ON (e.tx_id, e.id) > (c.tx_id, c.last_id) AND e.tx_id < (SELECT crm_outbox_horizon())
    GROUP BY c.name`,
  );
  return rows.map((r) => ({ consumer: r.consumer, rows: Number(r.rows), seconds: Math.max(0, r.seconds ?? 0) }));
}

export interface RunCount {
  process: string;
  status: string;
  runs: number;
}

/** Durable runs of the embedded engine not yet ended (active, waiting, parked), by process and status. */
export async function openRuns(ctx: Ctx): Promise<RunCount[]> {
  const rows = await sqlRows<{ process: string; status: string; runs: number }>(
    ctx,
    sql`SELECT process, status::text AS status, count(*)::int AS runs FROM workflow_run WHERE status <> 'ended' GROUP BY process, status`,
  );
  return rows.map((r) => ({ process: r.process, status: r.status, runs: Number(r.runs) }));
}
