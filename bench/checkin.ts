// Check-in: `POST /guest/v1/checkin`, the hottest route of the service, through the real server in
// a process of its own, over 100,000 contacts (typed attributes, 500,000 events) and 200 live
// messages whose audiences read an attribute and an event count; at a steady 1,000 requests a
// second (open loop: each request leaves at its own time and is timed from it, bench/paced.ts),
// each from another person with their own signed token. Beside it, in the same run, its
// floor: the same credential check (the same entry middleware, access chain and body validation,
// from dist/) answering a fixed list, in a process of its own. Measured twice for the service:
// each person's first check-in (a new session: what the messages answer is written) and their next
// one past the 20-second spacing (what steady state mostly is: nothing new to answer).
// Alone: `npx tsx bench/checkin.ts`; with the others: `npm run bench`.
//
// Beside each run: PostgreSQL's CPU a request (all its processes, from /proc), its transactions,
// rows written and WAL a request. BENCH_CHECKIN_PROFILE=<dir>: each server process also gets a
// probe (checkin-probe.ts) that, for each timed run only, writes a CPU profile there and counts its
// event-loop delay, garbage-collection pauses and requests in flight; and pg_stat_activity and
// pg_locks are sampled every 20 ms through the run (what the server's connections were doing, lock waits).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { readConfig } from '../src/config.js';
import { createApp } from '../src/domain/apps/create-app.js';
import { systemContext } from '../src/domain/context.js';
import { openServices } from '../src/services.js';
import { BENCH_SECRET_KEY, withBenchDatabase } from './database.js';
import { httpClient, paced } from './paced.js';
import { cpuMsOf, freePort, serverProcess, stop } from './processes.js';
import { guestToken } from './apps.js';
import { DbProbe, probeArgs, ProbeToggle, summarizeProfile, type ProbeSummary } from './checkin-probe.js';

const CONTACTS = Number(process.env.BENCH_CHECKIN_CONTACTS ?? 100_000);
const EVENTS_PER_CONTACT = 5;
const MESSAGES = 200;
const RATE = Number(process.env.BENCH_CHECKIN_RATE ?? 1000);
const SECONDS = Number(process.env.BENCH_CHECKIN_SECONDS ?? 10);
const CONNECTIONS = 32;
const PLANS = ['free', 'pro', 'team'];
const PROFILE = process.env.BENCH_CHECKIN_PROFILE;
const EVENT_NAMES = Array.from({ length: 20 }, (_, i) => `feature_${i}_used`);

export interface Run {
  name: string;
  requests: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  cpuMsPerRequest: number;
  /** PostgreSQL's CPU (every process of the cluster) a request over the run. */
  dbCpuMsPerRequest: number;
  /** Transactions committed, rows inserted and updated, and WAL bytes, a request. */
  commitsPerRequest: number;
  rowsWrittenPerRequest: number;
  walBytesPerRequest: number;
  /** With BENCH_CHECKIN_PROFILE: the server's probe and the database's samples over the run. */
  probe?: ProbeSummary;
}

export interface CheckinBenchResult {
  contacts: number;
  events: number;
  messages: number;
  seedMs: number;
  /** Share of first check-ins that answered at least one message. */
  answeredShare: number;
  floor: Run;
  first: Run;
  again: Run;
}

interface BenchApp {
  appKey: string;
  identitySecret: string;
  appModeId: string;
}

export async function makeApp(url: string): Promise<BenchApp> {
  const svc = await openServices({ config: readConfig({ LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv), url, secretKey: BENCH_SECRET_KEY });
  try {
    const ws = await svc.db.workspace.create({ data: { id: randomUUID(), name: 'Check-in bench' } });
    const app = await createApp(systemContext(svc, 'bench'), { workspaceId: ws.id, name: 'Check-in bench app' });
    const mode = await svc.db.appMode.findUniqueOrThrow({ where: { appKey: app.live.app_key } });
    return { appKey: app.live.app_key, identitySecret: app.live.identity_secret, appModeId: mode.id };
  } finally {
    await svc.close();
  }
}

/**
 * By bulk SQL: contacts `u<i>` with a plan, seats and a language; five events each over the last
 * 60 days among 20 names; and 200 live banners, each for one plan, one seat count and people who
 * used one feature in the last 30 days (with the attributes defined as Identify would). About one
 * person in ten qualifies for a message.
 */
export async function seed(url: string, appModeId: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('SELECT setseed(0.17)');
    await client.query(
      `INSERT INTO attribute_definition (id, app_mode_id, name, type) VALUES
         (gen_random_uuid()::text, $1, 'plan', 'string'), (gen_random_uuid()::text, $1, 'seats', 'number')`,
      [appModeId],
    );
    await client.query(
      `INSERT INTO contact (id, app_mode_id, external_id, language, time_zone, attributes, created_at, updated_at)
       SELECT gen_random_uuid()::text, $1, 'u' || i, CASE WHEN i % 4 = 0 THEN 'fr' ELSE 'en' END, 'Europe/Paris',
              jsonb_build_object('plan', ($2::text[])[1 + i % 3], 'seats', i % 50), now(), now()
       FROM generate_series(1, $3::int) i`,
      [appModeId, PLANS, CONTACTS],
    );
    await client.query(
      `INSERT INTO event (app_mode_id, id, external_id, name, occurred_at, source, props)
       SELECT $1::uuid, 'e' || i || '-' || j, 'u' || i, ($2::text[])[1 + floor(random() * 20)::int], now() - random() * interval '60 days', 'server', '{}'
       FROM generate_series(1, $3::int) i, generate_series(1, $4::int) j`,
      [appModeId, EVENT_NAMES, CONTACTS, EVENTS_PER_CONTACT],
    );
    await client.query(
      `INSERT INTO inapp_message (id, app_mode_id, name, kind, state, priority, variants, audience, created_at, updated_at, live_at)
       SELECT gen_random_uuid()::text, $1, 'Message ' || k, 'banner', 'live', k % 5,
              jsonb_build_array(jsonb_build_object('key', 'a', 'weight', 100, 'content',
                jsonb_build_object('blocks', jsonb_build_array(jsonb_build_object('type', 'paragraph', 'spans', jsonb_build_array(jsonb_build_object('text', 'Tip ' || k))))))),
              jsonb_build_object('all', jsonb_build_array(
                jsonb_build_object('attribute', 'plan', 'op', 'is', 'value', ($2::text[])[1 + k % 3], 'type', 'string'),
                jsonb_build_object('attribute', 'seats', 'op', 'eq', 'value', k % 50, 'type', 'number'),
                jsonb_build_object('event', ($3::text[])[1 + k % 20], 'did', true, 'withinDays', 30))),
              now(), now(), now() + k * interval '1 millisecond'
       FROM generate_series(1, $4::int) k`,
      [appModeId, PLANS, EVENT_NAMES, MESSAGES],
    );
    await client.query('ANALYZE');
  } finally {
    await client.end();
  }
}

/** The floor: the service's own entry and access chain from dist/, answering a fixed check-in. */
const FLOOR = (dist: string) => `
import Koa from 'koa';
import Router from '@koa/router';
import { boot } from '${dist}/src/boot.js';
import { readConfig } from '${dist}/src/config.js';
import { createLogger } from '${dist}/src/lib/logger.js';
import { createMetrics, observe } from '${dist}/src/http/observability.js';
import { createHttpServer } from '${dist}/src/http/connections.js';
import { contextOf } from '${dist}/src/domain/context.js';
import { guestAccess, guestCors } from '${dist}/rest-facade/http/access.js';
import { readBody } from '${dist}/rest-facade/http/body.js';
import { under } from '${dist}/rest-facade/http/cors.js';
import { problems } from '${dist}/rest-facade/http/problem.js';
import { defineRoute, mount } from '${dist}/rest-facade/http/route.js';
import { CheckinBody, Checkin } from '${dist}/rest-facade/guest/inapp.schemas.js';
const config = readConfig();
const { svc } = await boot(config, { listen: true });
const log = createLogger(config.logLevel);
const fixed = { messages: [{ id: 'm1', kind: 'banner', variant: 'a', test: false, screens: [], banner: { blocks: [{ type: 'paragraph', spans: [{ text: 'Tip 1' }] }] } }],
  unread: 0, nextCheckinSeconds: 20, throttled: false, testPhone: false, unreadNotices: 0, sendLinks: false };
const route = defineRoute({ method: 'post', path: '/guest/v1/checkin', surface: 'guest', tag: 'x', summary: 'x', body: CheckinBody,
  responses: { 200: { description: 'x', schema: Checkin } }, errors: [], handle: async () => ({ status: 200, body: fixed }) });
const router = new Router();
mount(router, route, [guestAccess(svc), (ctx, next) => { ctx.state.context = contextOf(svc, ctx.state.caller); return next(); }]);
const app = new Koa();
app.silent = true;
app.use(observe(log, createMetrics()));
app.use(problems());
app.use(under('/guest/v1', guestCors(svc)));
app.use(problems());
app.use(readBody(config.maxBodyBytes));
app.use(router.routes());
const server = createHttpServer(config.timeouts);
server.on('request', app.callback());
server.listen(config.port, '127.0.0.1', () => console.log('ready'));
process.on('SIGTERM', () => server.close(() => svc.close().then(() => process.exit(0))));
`;

async function startFloor(url: string, port: number): Promise<ChildProcess> {
  const dist = pathToFileURL(fileURLToPath(new URL('../dist', import.meta.url))).href;
  const child = spawn(process.execPath, [...(PROFILE ? probeArgs(PROFILE) : []), '--input-type=module', '-e', FLOOR(dist)], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    env: {
      ...process.env,
      ...limits,
      DATABASE_URL: url,
      CRM_SECRET_KEY: BENCH_SECRET_KEY,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      CHECKIN_PROBE_LABEL: 'floor',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once('data', () => resolve());
    child.once('exit', (code) => reject(new Error(`the floor server exited with ${code}`)));
  });
  return child;
}

/** One load generator on one address, far past a person's limits: the limits are still taken, never reached. */
const limits = { RATE_GUEST_ADDRESS_PER_MINUTE: '100000000', RATE_GUEST_APP_PER_MINUTE: '100000000' };

/** Requests at a steady rate (open loop, bench/paced.ts), each from the next person (a token of their own), in a new session or not. */
async function load(
  url: string,
  name: string,
  port: number,
  server: ChildProcess,
  people: { headers: Record<string, string> }[],
  session: string,
  warm: { headers: Record<string, string> }[],
): Promise<Run> {
  const client = httpClient(port, CONNECTIONS);
  const body = JSON.stringify({ app_version: '3.2.0', platform: 'ios', session_id: session, time_zone: 'Europe/Paris' });
  const refused = new Map<number, number>();
  try {
    // Every connection opened first, by people of the warm-up: the run meets no handshake.
    await Promise.all(warm.slice(0, CONNECTIONS).map((p) => client.request('POST', '/guest/v1/checkin', p.headers, body)));
    const db = await DbProbe.open(url, !!PROFILE);
    const toggle = PROFILE ? new ProbeToggle(server, PROFILE) : undefined;
    await toggle?.start();
    const dbBefore = await db.counters();
    const cpuBefore = cpuMsOf(server);
    const run = await paced(RATE, SECONDS, async (i) => {
      const status = await client.request('POST', '/guest/v1/checkin', people[i % people.length]!.headers, body);
      if (status !== 200) refused.set(status, (refused.get(status) ?? 0) + 1);
    });
    const cpuMs = cpuMsOf(server) - cpuBefore;
    const dbAfter = await db.counters();
    const samples = await db.close();
    const probe = toggle ? { ...(await toggle.stop()), db: samples } : undefined;
    if (refused.size) throw new Error(`${name}: answers that were not 200: ${JSON.stringify(Object.fromEntries(refused))}`);
    const per = (k: keyof typeof dbBefore) => (dbAfter[k] - dbBefore[k]) / run.requests;
    return {
      name,
      requests: run.requests,
      requestsPerSecond: run.perSecond,
      p50: run.p50,
      p99: run.p99,
      cpuMsPerRequest: cpuMs / run.requests,
      dbCpuMsPerRequest: per('cpuMs'),
      commitsPerRequest: per('commits'),
      rowsWrittenPerRequest: per('rows'),
      walBytesPerRequest: per('wal'),
      probe,
    };
  } finally {
    client.close();
  }
}

export async function benchCheckin(url: string): Promise<CheckinBenchResult> {
  const app = await makeApp(url);
  const seedStarted = Date.now();
  await seed(url, app.appModeId);
  const seedMs = Date.now() - seedStarted;
  // The people of the run, each once per pass, with their own signed token.
  const count = RATE * SECONDS + RATE;
  const people = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const sub = `u${1 + ((i * 7919) % CONTACTS)}`;
      const token = await guestToken(app.identitySecret, sub);
      return {
        headers: {
          'x-crm-app-key': app.appKey,
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'x-crm-sdk': 'bench/1.0',
        },
      };
    }),
  );
  const warm = people.slice(0, 300).map((p, i) => ({ headers: people[(count - 1 - i) % count]!.headers }));

  const [port, floorPort] = [await freePort(), await freePort()];
  const server = await serverProcess(
    url,
    BENCH_SECRET_KEY,
    port,
    { ...limits, CHECKIN_PROBE_LABEL: 'service' },
    PROFILE ? probeArgs(PROFILE) : [],
  );
  const floorServer = await startFloor(url, floorPort);
  try {
    // Warm up both (code compiled, pools filled, the live messages compiled) on people of their own.
    for (const p of warm) {
      for (const target of [port, floorPort]) {
        const r = await fetch(`http://127.0.0.1:${target}/guest/v1/checkin`, {
          method: 'POST',
          headers: p.headers,
          body: JSON.stringify({ app_version: '3.2.0', platform: 'ios', session_id: 'warm' }),
        });
        if (r.status !== 200) throw new Error(`warm-up answered ${r.status}: ${await r.text()}`);
      }
    }
    const measured = people.slice(0, RATE * SECONDS);
    const floor = await load(url, 'floor', floorPort, floorServer, measured, 'one', warm);
    const first = await load(url, 'first', port, server, measured, 'one', warm);
    const answered = await answeredShare(url, app.appModeId);
    // Past the 20-second spacing since each person's first check-in.
    await new Promise((r) => setTimeout(r, 21_000 - SECONDS * 1000 > 0 ? 21_000 - SECONDS * 1000 : 0));
    const again = await load(url, 'again', port, server, measured, 'one', warm);
    return {
      contacts: CONTACTS,
      events: CONTACTS * EVENTS_PER_CONTACT,
      messages: MESSAGES,
      seedMs,
      answeredShare: answered,
      floor,
      first,
      again,
    };
  } finally {
    await stop(server);
    await stop(floorServer);
  }
}

async function answeredShare(url: string, appModeId: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ share: number }>(
      `SELECT (SELECT count(DISTINCT contact_id) FROM inapp_receipt WHERE app_mode_id = $1)::float / greatest(1, (SELECT count(*) FROM inapp_checkin WHERE app_mode_id = $1)) AS share`,
      [appModeId],
    );
    return rows[0]!.share;
  } finally {
    await client.end();
  }
}

const ms = (n: number) => `${n.toFixed(1)} ms`;
const line = (r: Run) =>
  `${Math.round(r.requestsPerSecond).toLocaleString('en').padStart(6)} requests/s, p50 ${ms(r.p50).padStart(7)}, p99 ${ms(r.p99).padStart(8)}, server CPU ${r.cpuMsPerRequest.toFixed(2)} ms/request` +
  `, database CPU ${r.dbCpuMsPerRequest.toFixed(2)} ms, ${r.commitsPerRequest.toFixed(2)} commits, ${r.rowsWrittenPerRequest.toFixed(2)} rows written, ${Math.round(r.walBytesPerRequest)} B of WAL a request`;

function printProbe(r: Run): void {
  const p = r.probe;
  if (!p) return;
  const pct = (n: number) => `${(n * 100).toFixed(1)}%`;
  console.log(
    `    ${r.name}: event-loop delay p50 ${p.loopDelay.p50.toFixed(1)} ms, p99 ${p.loopDelay.p99.toFixed(1)} ms, max ${p.loopDelay.max.toFixed(1)} ms; ` +
      `GC ${p.gc.count} pauses, ${p.gc.totalMs.toFixed(0)} ms in all (${p.gc.majorCount} major, longest ${p.gc.maxMs.toFixed(1)} ms); ` +
      `requests in flight mean ${p.inFlight.mean.toFixed(1)}, max ${p.inFlight.max}`,
  );
  if (p.db)
    console.log(
      `    ${r.name}: database, mean a sample: ${p.db.active.toFixed(2)} statements running, ${p.db.idleInTransaction.toFixed(2)} idle in transaction, ` +
        `${p.db.lockWaiting.toFixed(2)} waiting on a lock (max ${p.db.lockWaitingMax}), waits ${JSON.stringify(p.db.waits)}`,
    );
  console.log(`    ${r.name}: CPU profile ${p.profile} (self time, share of samples):`);
  for (const f of summarizeProfile(p.profile, 14)) console.log(`      ${pct(f.share).padStart(6)}  ${f.name}`);
}

export function printCheckin(r: CheckinBenchResult): void {
  console.log(
    `check-in: POST /guest/v1/checkin at a steady ${RATE.toLocaleString('en')} requests/s, ${CONNECTIONS} connections, each request another person; ${r.contacts.toLocaleString('en')} contacts, ${r.events.toLocaleString('en')} events, ${r.messages} live messages (attribute and event audiences), seeded in ${(r.seedMs / 1000).toFixed(1)} s`,
  );
  console.log(`  floor (the same credential check answering a fixed list) ${line(r.floor)}`);
  console.log(
    `  first check-in of a session  ${line(r.first)}  (${Math.round(r.answeredShare * 100)}% answered a message: receipts and message.sent written)`,
  );
  console.log(`  the next, 20 s on            ${line(r.again)}`);
  for (const run of [r.floor, r.first, r.again]) printProbe(run);
  console.log(`  aim: p99 within 5 ms (${r.again.p99 <= 5 ? 'met' : 'not met'} in steady state)`);
}

// Alone: a database of its own.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exit(await withBenchDatabase('crm_bench_checkin', async ({ url }) => printCheckin(await benchCheckin(url))));
}
