// Workflow runs at scale: N people (seeded in bulk by SQL, half of them plan=pro) enter a published
// workflow by its trigger event (sent as a backend sends events, 500 a batch), then go through a wait
// of 60 s on a controlled clock, a branch on `plan` (half each way) and a notice to each, and end.
// The embedded engine is driven in this process by runDue, as the tests drive it, on a clock held still
// while people enter and running as the real one does once moved past the wait (MovedClock): every
// run is parked on its timer, the clock moved 61 s, and the
// runs are timed from the wake to the last run ended, each step an activity that records it
// (person_run, person_run_step, the step counters) with its effect. Beside it, in the same round, the
// floor: the same state changes for as many runs (the wait's step closed, the branch's and the
// send's steps written, the notice, the run ended, the counters) as plain SQL statements of 1,000 runs
// each. Each round takes a workflow of its own; the rounds give the spread. Run by bench/run.ts, or
// alone: `npx tsx bench/workflows.ts [people] [rounds]` (BENCH_WORKFLOW_PEOPLE and
// BENCH_WORKFLOW_ROUNDS for npm run bench; 100,000 people and 1 round by default).
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { readConfig } from '../src/config.js';
import { exec, one, sql } from '../src/db/sql.js';
import { createApp } from '../src/domain/apps/create-app.js';
import { outboxBacklog } from '../src/domain/backlog.js';
import { identify } from '../src/domain/contacts/identify.js';
import { contextOf, scopeOf, systemContext, type Ctx, type ServerCaller, type StaffCaller } from '../src/domain/context.js';
import { ingestServerEvents, MAX_SERVER_BATCH } from '../src/domain/events/server-events.js';
import { createWorkflow, publishWorkflow } from '../src/domain/workflows/workflows.js';
import { createServerKey } from '../src/domain/apps/server-keys.js';
import type { StaffUser } from '../src/generated/prisma/client.js';
import type { Clock } from '../src/lib/clock.js';

/**
 * Held still while people enter (however long entering takes, no one's wait ends before everyone
 * waits), then moved past the wait, from where it runs as the real one does (leases and wakes age as
 * they do in use).
 */
class MovedClock implements Clock {
  private held: number | undefined = Date.now();
  private offset = 0;
  now(): Date {
    return new Date(this.held ?? Date.now() + this.offset);
  }
  /** Held still from now (a round's people entering). */
  hold(): void {
    this.held = this.now().getTime();
  }
  advance(ms: number): void {
    this.offset = this.now().getTime() + ms - Date.now();
    this.held = undefined;
  }
}
import { openServices, type OpenServices } from '../src/services.js';
import { EmbeddedEngine } from '../workflows/engine/embedded.js';
import { buildActivities } from '../workflows/processes/activities.js';
import { processes } from '../workflows/processes/registry.js';
import { PROCESS_STARTS, startProcesses } from '../workflows/processes/starts.js';
import { BENCH_SECRET_KEY, withBenchDatabase } from './database.js';

const PEOPLE = Number(process.env.BENCH_WORKFLOW_PEOPLE ?? 100_000);
const ROUNDS = Number(process.env.BENCH_WORKFLOW_ROUNDS ?? 1);

/**
 * The person is told by the send step of a notice (`{ kind: 'send', channel: 'notice', content, next }`).
 * False: a `tag` step stands in its place (an activity that changes the person and records the step,
 * `contact.updated` told), and the floor does the tag's changes instead of the notice's, as the
 * benchmark was measured before the send step was built.
 */
const SEND_STEP_BUILT = true;

/** Runs the floor changes in one statement. */
const FLOOR_BATCH = 1_000;

export interface WorkflowRound {
  /** From the first trigger event sent to every run waiting on its timer. */
  enterMs: number;
  /** From the clock moved past the wait to every run ended. */
  serviceMs: number;
  floorMs: number;
  /** Runs that ended, by the branch's way (both should be half). */
  pro: number;
  free: number;
  /** Notices (or, with the tag in its place, people tagged) the round made. */
  told: number;
}

export interface WorkflowBenchResult {
  people: number;
  seedMs: number;
  sendStep: boolean;
  rounds: WorkflowRound[];
}

/** The workflow of a round: its trigger event, a wait of 60 s, the branch, a notice each way, the end. */
function definitionOf(round: number) {
  const tell = (key: string, title: string) =>
    SEND_STEP_BUILT
      ? { key, kind: 'send', channel: 'notice', content: { title, body: 'Thanks for joining.', link: '/welcome' }, next: 'done' }
      : { key, kind: 'tag', action: 'add', tag: `told-${round}`, next: 'done' };
  return {
    trigger: { kind: 'event', event: `signed_up_${round}` },
    steps: [
      { key: 'pause', kind: 'wait', seconds: 60, next: 'is_pro' },
      { key: 'is_pro', kind: 'branch', condition: { attribute: 'plan', op: 'is', value: 'pro' }, yes: 'tell_pro', no: 'tell_free' },
      tell('tell_pro', 'Welcome to Pro'),
      tell('tell_free', 'Welcome'),
      { key: 'done', kind: 'end' },
    ],
  };
}

/** Runs the engine until nothing is due now (the outbox's starts handed on first), as the tests drive it. */
async function settle(
  svc: OpenServices,
  engine: Pick<EmbeddedEngine, 'runDue'>,
  workflowId: string,
  state: 'waiting' | 'ended',
  people: number,
) {
  for (;;) {
    await svc.outbox.drain();
    const stepped = await engine.runDue();
    const { n } = (await one<{ n: number }>(
      svc,
      sql`SELECT count(*)::int AS n FROM person_run WHERE workflow_id = ${workflowId} AND state = ${state}::"PersonRunState"`,
    ))!;
    if (n >= people) return;
    // Nothing stepped: the outbox's consumers may still be behind (a drain hands each a batch a pass, and a
    // run is started by a consumer of rows another consumer writes); short only when none is.
    if (stepped === 0 && (await outboxBacklog(systemContext(svc, 'bench'))).every((c) => c.rows === 0))
      throw new Error(`the runs stopped short: ${n} of ${people} ${state}`);
  }
}

async function round(
  o: { svc: OpenServices; clock: MovedClock; engine: Pick<EmbeddedEngine, 'runDue'>; staff: Ctx<StaffCaller>; server: Ctx<ServerCaller> },
  appModeId: string,
  people: number,
  r: number,
): Promise<WorkflowRound> {
  const { svc, clock, engine, staff, server } = o;
  const made = await createWorkflow(staff, appModeId, { name: `Welcome ${r}`, definition: definitionOf(r) });
  await publishWorkflow(staff, made.id);

  // Everyone enters: the trigger events as a backend sends them, each person's run started from the outbox and parked on its timer.
  clock.hold();
  const enterStart = performance.now();
  for (let from = 1; from <= people; from += MAX_SERVER_BATCH) {
    const events = Array.from({ length: Math.min(MAX_SERVER_BATCH, people - from + 1) }, (_, i) => ({
      index: i,
      id: `signup-${r}-${from + i}`,
      externalId: `person-${from + i}`,
      name: `signed_up_${r}`,
      occurredAt: clock.now(),
      props: {},
    }));
    await ingestServerEvents(server, { size: events.length, read: () => ({ events, rejected: [] }) });
  }
  await settle(svc, engine, made.id, 'waiting', people);
  const enterMs = performance.now() - enterStart;

  const toldBefore = SEND_STEP_BUILT
    ? (await one<{ n: number }>(
        svc,
        sql`SELECT count(*)::int AS n FROM notice WHERE app_mode_id = ${appModeId} AND source = 'workflow' AND send_key LIKE 'wfr\_%'`,
      ))!.n
    : 0;
  // The wait's end: each run wakes, branches, is told and ends.
  clock.advance(61_000);
  const serviceStart = performance.now();
  await settle(svc, engine, made.id, 'ended', people);
  const serviceMs = performance.now() - serviceStart;
  const ways = await one<{ pro: number; free: number }>(
    svc,
    sql`SELECT count(*) FILTER (WHERE step_key = 'tell_pro')::int AS pro, count(*) FILTER (WHERE step_key = 'tell_free')::int AS free
        FROM person_run_step s JOIN person_run r ON r.id = s.run_id WHERE r.workflow_id = ${made.id}`,
  );
  const told =
    (await one<{ n: number }>(
      svc,
      SEND_STEP_BUILT
        ? sql`SELECT count(*)::int AS n FROM notice WHERE app_mode_id = ${appModeId} AND source = 'workflow' AND send_key LIKE 'wfr\_%'`
        : sql`SELECT count(*)::int AS n FROM contact WHERE app_mode_id = ${appModeId} AND ${`told-${r}`} = ANY(tags)`,
    ))!.n - toldBefore;
  return { enterMs, serviceMs, floorMs: await floor(svc, clock, staff, appModeId, people, r), pro: ways!.pro, free: ways!.free, told };
}

/**
 * The floor: as many runs, seeded as the engine leaves them at the wait (person_run waiting, the
 * wait's step open), taken to their end by the same changes as plain SQL, 1,000 runs a statement.
 */
async function floor(svc: OpenServices, clock: MovedClock, staff: Ctx<StaffCaller>, appModeId: string, people: number, r: number) {
  const w = await createWorkflow(staff, appModeId, { name: `Floor ${r}`, definition: definitionOf(r) });
  const at = clock.now();
  const since = new Date(at.getTime() - 61_000);
  await exec(
    svc,
    sql`INSERT INTO person_run (id, app_mode_id, workflow_id, version_id, version_number, contact_id, state, at_step, since, until, started_at)
        SELECT 'floor-' || ${r} || '-' || lpad(i::text, 7, '0'), ${appModeId}, ${w.id}, 'floor', 1, ${appModeId} || '-' || lpad(i::text, 7, '0'),
               'waiting', 'pause', ${since}, ${at}, ${since}
        FROM generate_series(1, ${people}) i`,
  );
  await exec(
    svc,
    sql`INSERT INTO person_run_step (run_id, step_key, kind, visit, entered_at)
        SELECT 'floor-' || ${r} || '-' || lpad(i::text, 7, '0'), 'pause', 'wait', 1, ${since} FROM generate_series(1, ${people}) i`,
  );
  await exec(svc, sql`ANALYZE person_run`);
  await exec(svc, sql`ANALYZE person_run_step`);
  const atT = sql`${at}::timestamp(3)`;
  const tell = SEND_STEP_BUILT
    ? sql`noticed AS (
        INSERT INTO notice (id, app_mode_id, contact_id, title, body, link, source, send_key, created_at)
        SELECT gen_random_uuid()::text, ${appModeId}, b.contact_id, CASE WHEN b.pro THEN 'Welcome to Pro' ELSE 'Welcome' END,
               'Thanks for joining.', '/welcome', 'workflow', b.id || CASE WHEN b.pro THEN ':tell_pro:1' ELSE ':tell_free:1' END, ${atT}
        FROM branched b RETURNING contact_id),
      told AS (
        INSERT INTO outbox_event (app_mode_id, topic, external_id, data, created_at)
        SELECT ${appModeId}, 'message.sent', k.external_id,
               jsonb_build_object('message_id', ${w.id}::text, 'channel', 'notice', 'workflow_id', ${w.id}::text, 'run_id', b.id, 'step', 'tell'), ${atT}
        FROM branched b JOIN contact k ON k.id = b.contact_id
        RETURNING 1)`
    : sql`tagged AS (
        UPDATE contact k SET tags = k.tags || ${`told-${r}`}::text, updated_at = ${atT}
        FROM branched b WHERE k.id = b.contact_id RETURNING k.external_id),
      told AS (
        INSERT INTO outbox_event (app_mode_id, topic, external_id, data, created_at)
        SELECT ${appModeId}, 'contact.updated', t.external_id, jsonb_build_object('external_id', t.external_id), ${atT} FROM tagged t
        RETURNING 1)`;
  const start = performance.now();
  for (let from = 1; from <= people; from += FLOOR_BATCH) {
    const ids = sql`SELECT 'floor-' || ${r} || '-' || lpad(i::text, 7, '0') FROM generate_series(${from}::int, ${Math.min(from + FLOOR_BATCH - 1, people)}::int) i`;
    await exec(
      svc,
      sql`
      WITH closed AS (
        UPDATE person_run_step SET left_at = ${atT}, outcome = 'waited'
        WHERE run_id IN (${ids}) AND step_key = 'pause' AND visit = 1 AND left_at IS NULL RETURNING run_id),
      branched AS (
        SELECT r.id, r.contact_id, k.attributes->>'plan' = 'pro' AS pro
        FROM person_run r JOIN contact k ON k.id = r.contact_id JOIN closed c ON c.run_id = r.id),
      ${tell},
      steps AS (
        INSERT INTO person_run_step (run_id, step_key, kind, visit, entered_at, left_at, outcome)
        SELECT b.id, 'is_pro', 'branch', 1, ${atT}, ${atT}, CASE WHEN b.pro THEN 'yes' ELSE 'no' END FROM branched b
        UNION ALL
        SELECT b.id, CASE WHEN b.pro THEN 'tell_pro' ELSE 'tell_free' END, ${SEND_STEP_BUILT ? 'send' : 'tag'}, 1, ${atT}, ${atT},
               ${SEND_STEP_BUILT ? 'sent' : 'passed'}
        FROM branched b
        RETURNING 1),
      ended AS (
        UPDATE person_run r SET state = 'ended', outcome = 'done', at_step = 'done', since = ${atT}, ended_at = ${atT}, until = NULL
        FROM branched b WHERE r.id = b.id RETURNING b.pro),
      counted AS (
        INSERT INTO workflow_step_count (workflow_id, step_key, measure, slot, n)
        SELECT ${w.id}, c.step_key, c.measure, (pg_backend_pid() % 8)::smallint, sum(c.n) FROM (
          SELECT 'pause' AS step_key, 'waiting' AS measure, -count(*) AS n FROM ended
          UNION ALL SELECT 'pause', 'waited', count(*) FROM ended
          UNION ALL SELECT 'is_pro', 'entered', count(*) FROM ended
          UNION ALL SELECT 'is_pro', CASE WHEN pro THEN 'yes' ELSE 'no' END, count(*) FROM ended GROUP BY pro
          UNION ALL SELECT CASE WHEN pro THEN 'tell_pro' ELSE 'tell_free' END, m, count(*) FROM ended, (VALUES ('entered'), (${SEND_STEP_BUILT ? 'sent' : 'passed'}::text)) v(m)
            GROUP BY pro, m
          UNION ALL SELECT 'done', 'end:done', count(*) FROM ended) c
        GROUP BY 1, 2, 3, 4 ORDER BY 2, 3
        ON CONFLICT (workflow_id, step_key, measure, slot) DO UPDATE SET n = workflow_step_count.n + excluded.n)
      SELECT (SELECT count(*) FROM told), (SELECT count(*) FROM steps)`,
    );
  }
  const floorMs = performance.now() - start;
  const { n } = (await one<{ n: number }>(
    svc,
    sql`SELECT count(*)::int AS n FROM person_run WHERE workflow_id = ${w.id} AND state = 'ended'`,
  ))!;
  if (n !== people) throw new Error(`the floor ended ${n} of ${people} runs`);
  return floorMs;
}

export async function benchWorkflows(url: string, secretKey: string, people = PEOPLE, rounds = ROUNDS): Promise<WorkflowBenchResult> {
  const clock = new MovedClock();
  const config = readConfig({ LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv);
  const svc = await openServices({ config, url, secretKey, clock, listen: true });
  // Driven by runDue, as the tests drive it: no background loop.
  const engine = new EmbeddedEngine(svc, processes, buildActivities(svc));
  svc.outbox.consume(PROCESS_STARTS, startProcesses(engine, svc));
  try {
    const system = systemContext(svc, 'bench');
    const ws = await svc.db.workspace.create({ data: { id: randomUUID(), name: 'Workflow bench' } });
    const app = await createApp(system, { workspaceId: ws.id, name: 'Workflow bench app' });
    const mode = await svc.db.appMode.findUniqueOrThrow({ where: { appKey: app.live.app_key } });
    const appModeId = mode.id;
    const staff = contextOf(svc, { kind: 'staff', staffUser: { id: randomUUID(), name: 'Bench' } as StaffUser, sessionId: 'bench' });
    const { id: serverKeyId } = await createServerKey(system, appModeId);
    const server: Ctx<ServerCaller> = contextOf(svc, { ...scopeOf(mode), kind: 'server', serverKeyId });

    const seedStart = performance.now();
    await exec(
      svc,
      sql`INSERT INTO contact (id, app_mode_id, external_id, attributes)
          SELECT ${appModeId} || '-' || lpad(i::text, 7, '0'), ${appModeId}, 'person-' || i,
                 jsonb_build_object('plan', CASE WHEN i % 2 = 0 THEN 'pro' ELSE 'free' END)
          FROM generate_series(1, ${people}) i`,
    );
    // The attribute defined, as a backend's first identify defines it (the branch's condition is checked against it on publishing).
    await identify(server, 'person-2', { attributes: { plan: 'pro' } });
    await exec(svc, sql`ANALYZE contact`);
    const seedMs = performance.now() - seedStart;

    const out: WorkflowRound[] = [];
    for (let r = 1; r <= rounds; r++) out.push(await round({ svc, clock, engine, staff, server }, appModeId, people, r));
    return { people, seedMs, sendStep: SEND_STEP_BUILT, rounds: out };
  } finally {
    await engine.close();
    await svc.close();
  }
}

export function printWorkflows(r: WorkflowBenchResult): void {
  const rate = (ms: number) => (r.people / ms) * 1000;
  const spread = (xs: number[], digits = 0) => {
    const sorted = [...xs].sort((x, y) => x - y);
    const f = (n: number) => n.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });
    return sorted.length === 1
      ? f(sorted[0]!)
      : `${f(sorted[Math.floor(sorted.length / 2)]!)} (${f(sorted[0]!)} to ${f(sorted[sorted.length - 1]!)})`;
  };
  const tell = r.sendStep ? 'a notice (the send step)' : 'a tag (standing in for the notice send step)';
  console.log(
    `workflows: ${r.people.toLocaleString('en')} people (seeded in ${(r.seedMs / 1000).toFixed(1)} s) through wait 60 s, branch, ${tell}, end, on the embedded engine driven by runDue on a controlled clock; ${r.rounds.length} round${r.rounds.length === 1 ? '' : 's'}, median (min to max)`,
  );
  console.log(
    `  entered ${spread(r.rounds.map((x) => rate(x.enterMs))).padStart(8)} runs/s (trigger event sent to the run waiting on its timer)`,
  );
  console.log(
    `  service ${spread(r.rounds.map((x) => rate(x.serviceMs))).padStart(8)} runs/s (the clock past the wait to every run ended: wake, branch, ${r.sendStep ? 'notice' : 'tag'}, end, each step recorded)`,
  );
  console.log(
    `  floor   ${spread(r.rounds.map((x) => rate(x.floorMs))).padStart(8)} runs/s (the same person_run, person_run_step, ${r.sendStep ? 'notice, message.sent' : 'tag, contact.updated'} and counter changes as plain SQL, ${FLOOR_BATCH.toLocaleString('en')} runs a statement)`,
  );
  console.log(
    `  ratio   ${spread(
      r.rounds.map((x) => x.floorMs / x.serviceMs),
      3,
    )} of the floor`,
  );
  for (const [i, x] of r.rounds.entries())
    console.log(
      `  round ${i + 1}: ${(x.serviceMs / 1000).toFixed(1)} s against ${(x.floorMs / 1000).toFixed(1)} s; yes ${x.pro.toLocaleString('en')}, no ${x.free.toLocaleString('en')}, ${r.sendStep ? 'notices' : 'tagged'} ${x.told.toLocaleString('en')}`,
    );
  if (!r.sendStep) console.warn('  *** a tag step stood in for the send step (SEND_STEP_BUILT in bench/workflows.ts) ***');
}

// Alone: a database of its own.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const people = Number(process.argv[2] ?? PEOPLE);
  const rounds = Number(process.argv[3] ?? ROUNDS);
  process.exit(
    await withBenchDatabase('crm_bench_workflows', async ({ url }) =>
      printWorkflows(await benchWorkflows(url, BENCH_SECRET_KEY, people, rounds)),
    ),
  );
}
