import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sql } from '../src/db/sql.js';
import { createApp } from '../src/domain/apps/create-app.js';
import { systemContext } from '../src/domain/context.js';
import { hearingStatement, type HeardEvent } from '../src/domain/workflows/entry.js';
import { ManualClock } from '../src/lib/clock.js';
import { openServices, type OpenServices } from '../src/services.js';
import { EmbeddedEngine } from '../workflows/engine/embedded.js';
import { processes } from '../workflows/processes/registry.js';
import { createTestDatabase } from './support/db.js';
import { TEST_SECRET_KEY, testConfig } from './support/server.js';

// Waiting runs at scale, without scanning them: 200,000 runs waiting on their timers (and 100,000
// ended before them) are seeded straight into the embedded engine's table and person_run, the
// tables analyzed, and the engine's own claim statements (the lease of runs that start an
// activity, the wakes and signals that need no slot) and the routing of events to the runs that
// wait on them (runsHearing's statement) are explained as the code sends them: each reads its
// tables by an index, never by a Seq Scan, and, run, touches a bounded number of rows however many
// runs wait. The plans are PostgreSQL's on these statistics, so a change of the code or of the
// indexes that turns one into a scan fails here.

const WAITING = 200_000;
const ENDED = 100_000;
const PEOPLE = 100_000;
const DUE = 40;
const at = new Date('2026-06-01T12:00:00.000Z');

let svc: OpenServices;
let client: pg.Client;
let appModeId: string;
let workflowId: string;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** The statement's plan as PostgreSQL makes it for these values (run when `analyze`, then rolled back), every node listed. */
async function planOf(statement: Sql, analyze = false): Promise<PlanNode[]> {
  await client.query('BEGIN');
  try {
    const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      `EXPLAIN (FORMAT JSON${analyze ? ', ANALYZE' : ''}) ${statement.text}`,
      statement.values as unknown[],
    );
    return nodesOf(rows[0]!['QUERY PLAN'][0].Plan);
  } finally {
    await client.query('ROLLBACK');
  }
}

/** The plan's reads of `table` (its writes, ModifyTable, left out). */
const scansOf = (plan: PlanNode[], table: string) => plan.filter((n) => n['Relation Name'] === table && /Scan/.test(n['Node Type']));
const seqScans = (plan: PlanNode[], tables: string[]) =>
  plan.filter((n) => n['Node Type'] === 'Seq Scan' && tables.includes(n['Relation Name'] ?? '')).map((n) => n['Relation Name']);
/** Rows the plan's reads of `table` took, those its filters passed over counted too, summed over their loops. */
const rowsRead = (plan: PlanNode[], table: string) =>
  scansOf(plan, table).reduce((n, s) => n + ((s['Actual Rows'] ?? 0) + (s['Rows Removed by Filter'] ?? 0)) * (s['Actual Loops'] ?? 1), 0);

beforeAll(async () => {
  const url = await createTestDatabase();
  svc = await openServices({ config: testConfig(), url, secretKey: TEST_SECRET_KEY, clock: new ManualClock(at) });
  const system = systemContext(svc, 'test');
  const ws = await svc.db.workspace.create({ data: { id: randomUUID(), name: 'Scale' } });
  const app = await createApp(system, { workspaceId: ws.id, name: 'Scale app' });
  appModeId = (await svc.db.appMode.findUniqueOrThrow({ where: { appKey: app.live.app_key } })).id;
  workflowId = randomUUID();
  await svc.db.workflow.create({
    data: { id: workflowId, appModeId, name: 'Waits', draft: {}, state: 'live', createdAt: at, updatedAt: at },
  });
  client = new pg.Client({ connectionString: url });
  await client.connect();
  const stamp = `'${at.toISOString()}'::timestamptz AT TIME ZONE 'UTC'`;
  const command = `'{"kind": "wait", "signals": ["event", "exit", "move"]}'::jsonb`;
  // Seeded on three connections at once, the foreign keys' triggers off for the seeding (every row's references are made here).
  const seed = async (...statements: [string, unknown[]][]) => {
    const seeder = new pg.Client({ connectionString: url });
    await seeder.connect();
    try {
      await seeder.query(`SET session_replication_role = replica`);
      for (const [text, values] of statements) await seeder.query(text, values);
    } finally {
      await seeder.end();
    }
  };
  await Promise.all([
    seed(
      [
        `INSERT INTO contact (id, app_mode_id, external_id) SELECT 'k-' || i, $1, 'person-' || i FROM generate_series(1, ${PEOPLE}) i`,
        [appModeId],
      ],
      // Other app-modes' workflows hear names too: the routing finds this one's by the key, not by reading them all.
      [
        `INSERT INTO workflow_listen (app_mode_id, event, workflow_id)
         SELECT 'mode-' || (i % 5000), 'event-' || (i % 7), 'w-' || i FROM generate_series(1, 50000) i
         UNION ALL SELECT $1, 'opened_app', $2`,
        [appModeId, workflowId],
      ],
    ),
    // Two runs a person, waiting on a timer up to a week away, a third for an event too.
    seed([
      `INSERT INTO person_run (id, app_mode_id, workflow_id, version_id, version_number, contact_id, state, at_step, since, waits_for, until,
                               started_at, trigger_tx, trigger_row)
       SELECT 'run-' || g, $1, $2, 'v1', 1, 'k-' || (1 + (g - 1) % ${PEOPLE}), 'waiting', 'pause', ${stamp},
              CASE WHEN g % 3 = 0 THEN 'opened_app' END, ${stamp} + (g % 604800) * interval '1 second', ${stamp}, 1, g
       FROM generate_series(1, ${WAITING}) g`,
      [appModeId, workflowId],
    ]),
    // The same runs in the engine, a few due now; and runs that ended before them.
    seed([
      `INSERT INTO workflow_run (id, process, process_version, status, state, command, wake_at, started_at, fair_key)
       SELECT 'run-' || g, 'workflow-run', 1, 'waiting'::"WorkflowRunStatus", '{}'::jsonb, ${command},
              CASE WHEN g <= ${DUE} THEN ${stamp} - interval '1 second' ELSE ${stamp} + (1 + g % 604800) * interval '1 second' END,
              ${stamp}, $1
       FROM generate_series(1, ${WAITING}) g
       UNION ALL
       SELECT 'ended-' || g, 'workflow-run', 1, 'ended', '{}'::jsonb, '{"kind": "end"}'::jsonb, NULL, ${stamp}, $1
       FROM generate_series(1, ${ENDED}) g`,
      [appModeId],
    ]),
  ]);
  await client.query('ANALYZE contact, person_run, workflow_run, workflow_listen');
}, 120_000);

afterAll(async () => {
  await client?.end();
  await svc?.close();
});

describe(`${WAITING.toLocaleString('en')} waiting runs`, () => {
  it('wakes the due ones by the wake time’s index: the claim’s statements scan no table and read only what is due', async () => {
    const engine = new EmbeddedEngine(svc, processes, {} as never);
    const { lease, free } = engine.claimStatements(at);
    // The quick claims between full ones read a bounded window of the oldest due runs.
    const quick = engine.claimStatements(at, 16, false);
    for (const statement of [lease, free, quick.lease, quick.free]) {
      const plan = await planOf(statement, true);
      expect(seqScans(plan, ['workflow_run'])).toEqual([]);
      expect(scansOf(plan, 'workflow_run').length).toBeGreaterThan(0);
      expect(scansOf(plan, 'workflow_run').every((n) => /Index/.test(n['Node Type']))).toBe(true);
      // The due ones (40) and the leased (none), not the 300,000 rows.
      expect(rowsRead(plan, 'workflow_run')).toBeLessThan(1_000);
    }
    // And the wakes are found: the statement that takes them answers the due runs, as many as a claim takes.
    for (const statement of [free, quick.free]) {
      await client.query('BEGIN');
      try {
        const { rows } = await client.query<{ id: string }>(statement.text, statement.values as unknown[]);
        expect(rows).toHaveLength(16);
        expect(rows.every((r) => Number(r.id.slice(4)) <= DUE)).toBe(true);
      } finally {
        await client.query('ROLLBACK');
      }
    }
  });

  it('routes an event to the runs of its person that hear it by indexes, never scanning person_run', async () => {
    const heard: HeardEvent[] = [7, 12_345, 99_999].map((i, n) => ({
      id: BigInt(1_000 + n),
      txId: 2n,
      appModeId,
      externalId: `person-${i}`,
      data: { name: 'opened_app', event_id: `e-${i}` },
      createdAt: at,
    }));
    const statement = hearingStatement(heard);
    const plan = await planOf(statement, true);
    expect(seqScans(plan, ['person_run', 'contact', 'workflow_listen'])).toEqual([]);
    expect(scansOf(plan, 'person_run').every((n) => /Index/.test(n['Node Type']))).toBe(true);
    expect(rowsRead(plan, 'person_run')).toBeLessThan(100);
    // Each person's two runs, and no one else's.
    const { rows } = await client.query<{ id: string }>(statement.text, statement.values as unknown[]);
    expect(rows.map((r) => r.id).sort()).toEqual([7, 12_345, 99_999].flatMap((i) => [`run-${i}`, `run-${i + PEOPLE}`]).sort());
  });

  it('claims quickly past one tenant’s due backlog while it holds its cap, and still finds another tenant’s runs behind it', async () => {
    const BACKLOG = 20_000;
    const stamp = `'${at.toISOString()}'::timestamptz AT TIME ZONE 'UTC'`;
    const call = `'{"kind": "call", "activity": "checkWorkflowCondition", "input": {}}'::jsonb`;
    const engine = new EmbeddedEngine(svc, processes, {} as never);
    await client.query('BEGIN');
    try {
      // Tenant A: 8 runs holding their activities (its cap) and 20,000 due to start one, older than tenant B's one.
      await client.query(
        `INSERT INTO workflow_run (id, process, process_version, status, state, command, wake_at, lease_until, started_at, fair_key)
         SELECT 'held-' || g, 'workflow-run', 1, 'active'::"WorkflowRunStatus", '{}'::jsonb, ${call}, ${stamp} + interval '1 minute', ${stamp} + interval '1 minute', ${stamp}, 'tenant-a'
         FROM generate_series(1, 8) g
         UNION ALL
         SELECT 'backlog-' || g, 'workflow-run', 1, 'active'::"WorkflowRunStatus", '{}'::jsonb, ${call}, ${stamp} - interval '1 hour' + g * interval '1 millisecond', NULL, ${stamp}, 'tenant-a'
         FROM generate_series(1, ${BACKLOG}) g
         UNION ALL
         SELECT 'behind', 'workflow-run', 1, 'active'::"WorkflowRunStatus", '{}'::jsonb, ${call}, ${stamp} - interval '1 second', NULL, ${stamp}, 'tenant-b'`,
      );
      await client.query('ANALYZE workflow_run');
      const quick = engine.claimStatements(at, 16, false).lease;
      const { rows: plans } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `EXPLAIN (FORMAT JSON, ANALYZE) ${quick.text}`,
        quick.values as unknown[],
      );
      // The window of the oldest due runs and the 8 leases: not the backlog.
      expect(rowsRead(nodesOf(plans[0]!['QUERY PLAN'][0].Plan), 'workflow_run')).toBeLessThan(1_000);
      const full = engine.claimStatements(at, 16, true).lease;
      const { rows: leased } = await client.query<{ id: string | null }>(full.text, full.values as unknown[]);
      expect(leased.map((r) => r.id)).toEqual(['behind']);
      // Tenant B now holds an activity: a quick claim finds B's next due run behind A's backlog by B's key.
      await client.query(
        `INSERT INTO workflow_run (id, process, process_version, status, state, command, wake_at, started_at, fair_key)
         VALUES ('behind-2', 'workflow-run', 1, 'active'::"WorkflowRunStatus", '{}'::jsonb, ${call}, ${stamp} - interval '1 second', ${stamp}, 'tenant-b')`,
      );
      const again = engine.claimStatements(at, 16, false).lease;
      const { rows: next } = await client.query<{ id: string | null }>(again.text, again.values as unknown[]);
      expect(next.map((r) => r.id)).toEqual(['behind-2']);
    } finally {
      await client.query('ROLLBACK');
    }
  });
});
