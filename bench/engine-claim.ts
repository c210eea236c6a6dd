import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { readConfig } from '../src/config.js';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres.js';
import { applyMigrations, withDatabase } from '../src/db/migrations.js';
import { openServices } from '../src/services.js';
import { EmbeddedEngine } from '../workflows/engine/embedded.js';
import { pingActivities } from '../test/fixtures/ping/activities.js';
import { pingProcesses } from '../test/fixtures/ping/registry.js';
import { BENCH_SECRET_KEY } from './database.js';

// The embedded engine's claim with a backlog: 20,000 due runs, each claim taking 16 activities.
// Two backlogs: spread over 2,000 tenants, and one tenant's 20,000 (capped) before another's 100.
// Prints the median time of the claim's statement and of the whole claim (the statement, reading the
// runs, leasing each) for each. `npx tsx bench/engine-claim.ts` (DUE=… for another backlog).

const DUE = Number(process.env.DUE ?? 20_000);
const CLAIMS = 25;

async function main() {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'crm-bench-claim-'));
  const embedded = await startEmbeddedPostgres(dataDir);
  try {
    const admin = new pg.Client({ connectionString: embedded.adminUrl });
    await admin.connect();
    await admin.query('CREATE DATABASE claim_bench');
    await admin.end();
    const url = withDatabase(embedded.adminUrl, 'claim_bench');
    await applyMigrations(url);
    const config = { ...readConfig({ LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv), secretKey: BENCH_SECRET_KEY };
    const svc = await openServices({ config, url, secretKey: BENCH_SECRET_KEY, listen: false });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const fill = async (keyOf: string, count: number, offset = 0) =>
      client.query(
        `INSERT INTO workflow_run (id, process, process_version, status, state, command, wake_at, started_at, fair_key)
         SELECT 'run-' || (g + $2), 'ping', 1, 'active',
           jsonb_build_object('to', 'x', 'replyWithinMs', 1000, 'phase', 'pinging', 'reminded', false, 'pong', null),
           jsonb_build_object('kind', 'call', 'activity', 'sendPing', 'input', jsonb_build_object('to', 'x', 'reminder', false),
             'retry', jsonb_build_object('maxAttempts', 3), 'timeoutMs', 10000),
           now() AT TIME ZONE 'UTC' - interval '1 hour' + g * interval '1 ms', now() AT TIME ZONE 'UTC', ${keyOf}
         FROM generate_series(1, $1) g`,
        [count, offset],
      );
    // The claim's own statement is timed apart from the claim's steps (16 runs leased, one update each).
    let statementMs = 0;
    const original = pg.Client.prototype.query;
    pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
      const text = typeof args[0] === 'string' ? args[0] : String((args[0] as { text?: string } | undefined)?.text ?? '');
      const answer = (original as (...a: unknown[]) => unknown).apply(this, args);
      if (!text.includes('FOR UPDATE OF r SKIP LOCKED') || !(answer instanceof Promise)) return answer;
      const t0 = performance.now();
      return answer.finally(() => (statementMs += performance.now() - t0));
    } as typeof original;
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!.toFixed(1);
    const measure = async (label: string, held: string[] = []) => {
      await client.query('ANALYZE workflow_run');
      const engine = new EmbeddedEngine(svc, pingProcesses, pingActivities(svc) as never, { batchSize: 16 });
      const claim = (engine as unknown as { claimDue(room: number): Promise<{ claimed: number }> }).claimDue.bind(engine);
      const whole: number[] = [];
      const statement: number[] = [];
      let claimed = 0;
      for (let i = 0; i < CLAIMS; i++) {
        statementMs = 0;
        const t0 = performance.now();
        claimed += (await claim(16)).claimed;
        whole.push(performance.now() - t0);
        statement.push(statementMs);
        // The activities "ran" and their runs are due again: the backlog stays as it was, the leases freed.
        await client.query(
          `UPDATE workflow_run SET lease_until = NULL, wake_at = now() AT TIME ZONE 'UTC' - interval '1 hour', attempts = 0
           WHERE lease_until IS NOT NULL AND NOT id = ANY($1)`,
          [held],
        );
      }
      console.log(
        `${label}: claim statement median ${median(statement)} ms, whole claim median ${median(whole)} ms (${claimed} claimed in ${CLAIMS})`,
      );
    };
    await fill(`'tenant-' || (g % 2000)`, DUE);
    await measure(`${DUE} due runs of 2,000 tenants`);
    await client.query('DELETE FROM workflow_run');
    await fill(`'tenant-a'`, DUE);
    await fill(`'tenant-b'`, 100, DUE);
    // Tenant A holds its 8 slots already (another server's leases): only B's runs may be taken.
    const { rows: held } = await client.query<{ id: string }>(
      `UPDATE workflow_run SET lease_until = now() AT TIME ZONE 'UTC' + interval '1 hour', wake_at = now() AT TIME ZONE 'UTC' + interval '1 hour'
       WHERE id IN (SELECT id FROM workflow_run WHERE fair_key = 'tenant-a' LIMIT 8) RETURNING id`,
    );
    await measure(
      `${DUE} due runs of one tenant at its cap, 100 of another behind them`,
      held.map((r) => r.id),
    );
    pg.Client.prototype.query = original;
    await client.end();
    await svc.close();
  } finally {
    await embedded.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
