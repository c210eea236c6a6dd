import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { fileURLToPath, pathToFileURL } from 'node:url';
import autocannon from 'autocannon';
import { httpClient, paced } from './paced.js';
import { guestToken, makeBenchApp, type BenchApp } from './apps.js';
import { BENCH_SECRET_KEY, withBenchDatabase } from './database.js';
import { countRoundTrips } from './round-trips.js';
import { freePort, stop } from './processes.js';

// The guest request path as an SDK meets it: `GET /guest/v1/consent` and `POST /guest/v1/events`
// (one event) with a signed user token, through the real server in its own process, at 16
// connections; beside the floor, a bare Node HTTP server in its own process answering one
// single-row PostgreSQL read through pg (the person's consent columns), in the same run. Then
// both again at a steady 1,000 requests a second (open loop, bench/paced.ts), for the latency a
// normal load sees.

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CONNECTIONS = 16;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const STEADY_RATE = 1000;
const COUNTED_REQUESTS = 200;

export interface Run {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  /** CPU time of the server process per request (user + system, from /proc), in ms. */
  cpuMsPerRequest: number;
  /** CPU time of the database's processes per request (its backends and helpers, from /proc), in ms. */
  dbCpuMsPerRequest: number;
}

export interface GuestBenchResult {
  floor: Run;
  /** The entry alone: credential and limits taken, then a 400 for an unreadable body, before the domain. */
  entry: Run;
  consent: Run;
  events: Run;
  steadyFloor: Run;
  steadyConsent: Run;
  steadyEvents: Run;
  /** Database round trips per request, by statement, counted on the wire. */
  roundTrips: { consent: Map<string, number>; events: Map<string, number>; eventsAtOnce: Map<string, number> };
}

export type GuestBenchApp = BenchApp;

/** A bench app: one live mode, its key and identity secret. */
export const makeGuestApp = (url: string, secretKey: string): Promise<GuestBenchApp> => makeBenchApp(url, secretKey, 'Guest bench');

export async function benchGuest(url: string, secretKey: string, app: GuestBenchApp): Promise<GuestBenchResult> {
  const token = await guestToken(app.identitySecret, 'bench-user');
  const headers: Record<string, string> = {
    'x-crm-app-key': app.appKey,
    authorization: `Bearer ${token}`,
    ...(process.env.BENCH_GUEST_SDK === '0' ? {} : { 'x-crm-sdk': 'bench/1.0' }),
  };
  const eventBody = () =>
    JSON.stringify({
      app_version: '1.0.0',
      platform: 'web',
      events: [{ id: randomUUID(), name: 'screen_viewed', occurred_at: new Date().toISOString(), props: { screen: 'home' } }],
    });

  postmaster = await postmasterOf(url);
  const port = await freePort();
  const server = await startServerProcess(url, secretKey, port);
  const floorServer = await startFloor(url, app.appModeId);
  try {
    const base = `http://127.0.0.1:${port}`;
    // Warm up: the person made, pools filled, code paths compiled.
    for (let i = 0; i < 200; i++) {
      await expectStatus(fetch(`${base}/guest/v1/consent`, { headers }), 200);
      await expectStatus(
        fetch(`${base}/guest/v1/events`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: eventBody(),
        }),
        202,
      );
      await expectStatus(fetch(`http://127.0.0.1:${floorServer.port}/`), 200);
    }
    const get = (target: string, name: string, rate?: number) =>
      load(name, { url: target, headers }, target.startsWith(base) ? server : floorServer.child, rate);
    const post = (name: string, rate?: number) =>
      load(
        name,
        {
          url: `${base}/guest/v1/events`,
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          makeBody: eventBody,
        },
        server,
        rate,
      );

    const floor = await get(`http://127.0.0.1:${floorServer.port}/`, 'floor');
    const entry = await load(
      'entry',
      {
        url: `${base}/guest/v1/events`,
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: '{}',
        expect: 400,
      },
      server,
    );
    const consent = await get(`${base}/guest/v1/consent`, 'consent');
    const events = await post('events');
    const steadyFloor = await get(`http://127.0.0.1:${floorServer.port}/`, 'floor', STEADY_RATE);
    const steadyConsent = await get(`${base}/guest/v1/consent`, 'consent', STEADY_RATE);
    const steadyEvents = await post('events', STEADY_RATE);
    const roundTrips = await roundTripsPerRequest(url, secretKey, headers, eventBody);
    return { floor, entry, consent, events, steadyFloor, steadyConsent, steadyEvents, roundTrips };
  } finally {
    await stopProfiled(server);
    await stop(floorServer.child);
  }
}

/** Stops the server; when it writes a CPU profile (BENCH_GUEST_PROFILE), it is given a minute to drain and write it at its clean exit. */
async function stopProfiled(child: ChildProcess): Promise<void> {
  if (process.env.BENCH_GUEST_PROFILE && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 60_000))]);
  }
  await stop(child);
}

interface Target {
  url: string;
  method?: 'GET' | 'POST';
  headers: Record<string, string>;
  /** A body made afresh for each request. */
  makeBody?: () => string;
  body?: string;
  /** The status every answer must have (2xx when not given). */
  expect?: number;
}

/** autocannon at CONNECTIONS connections for SECONDS flat out, or at a steady `rate` requests a second (open loop, bench/paced.ts). */
async function load(name: string, target: Target, server: ChildProcess, rate?: number): Promise<Run> {
  if (rate) return steady(name, target, server, rate);
  const cpuBefore = cpuMs(server);
  const dbBefore = dbCpuMs();
  const result = await autocannon({
    url: target.url,
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [
      {
        method: target.method ?? 'GET',
        headers: target.headers,
        ...(target.body ? { body: target.body } : {}),
        ...(target.makeBody ? { setupRequest: (req: autocannon.Request) => ({ ...req, body: target.makeBody!() }) } : {}),
      },
    ],
  });
  const unexpected = target.expect ? result.requests.total - (result.statusCodeStats?.[`${target.expect}`]?.count ?? 0) : result.non2xx;
  const errors = unexpected + result.errors + result.timeouts;
  if (errors > 0) throw new Error(`${name}: ${errors} answers were not 2xx: ${JSON.stringify(result.statusCodeStats)}`);
  const cpuMsPerRequest = (cpuMs(server) - cpuBefore) / result.requests.total;
  const dbCpuMsPerRequest = (dbCpuMs() - dbBefore) / result.requests.total;
  return {
    name,
    requestsPerSecond: result.requests.total / SECONDS,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors,
    cpuMsPerRequest,
    dbCpuMsPerRequest,
  };
}

/** At `rate` requests a second, each leaving at its time and timed from it, through CONNECTIONS kept-alive connections. */
async function steady(name: string, target: Target, server: ChildProcess, rate: number): Promise<Run> {
  const url = new URL(target.url);
  const client = httpClient(Number(url.port), CONNECTIONS);
  const cpuBefore = cpuMs(server);
  const dbBefore = dbCpuMs();
  let errors = 0;
  try {
    const run = await paced(rate, SECONDS, async () => {
      const body = target.makeBody ? target.makeBody() : target.body;
      const status = await client.request(target.method ?? 'GET', url.pathname, target.headers, body);
      if (target.expect ? status !== target.expect : status < 200 || status > 299) errors++;
    });
    if (errors > 0) throw new Error(`${name}: ${errors} answers were not as expected`);
    return {
      name,
      requestsPerSecond: run.perSecond,
      p50: run.p50,
      p99: run.p99,
      errors,
      cpuMsPerRequest: (cpuMs(server) - cpuBefore) / run.requests,
      dbCpuMsPerRequest: (dbCpuMs() - dbBefore) / run.requests,
    };
  } finally {
    client.close();
  }
}

/** User and system CPU time a process has used, in ms (Linux /proc; NaN elsewhere). */
function cpuMs(child: ChildProcess | number): number {
  const fields = statOf(typeof child === 'number' ? child : child.pid!);
  return fields ? ((Number(fields[11]) + Number(fields[12])) * 1000) / 100 : NaN;
}

/** The fields of /proc/<pid>/stat after the command's name (the state first), or undefined. */
function statOf(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  } catch {
    return undefined;
  }
}

/** The database's postmaster process, found as the parent of a backend of `url` (on this machine). */
let postmaster: number | undefined;
async function postmasterOf(url: string): Promise<number | undefined> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    const parent = Number(statOf(rows[0]!.pid)?.[1]);
    return Number.isFinite(parent) ? parent : undefined;
  } finally {
    await client.end();
  }
}

/** CPU time (ms) the postmaster's children have used so far: the backends, the WAL writer, the checkpointer (NaN when unknown). */
function dbCpuMs(): number {
  if (postmaster === undefined) return NaN;
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statOf(Number(entry));
    if (fields && Number(fields[1]) === postmaster) total += ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  }
  return total;
}

/** Round trips per request, counted on the wire by a second server process reaching the database through a counting proxy. */
async function roundTripsPerRequest(url: string, secretKey: string, headers: Record<string, string>, eventBody: () => string) {
  const db = new URL(url);
  const counter = await countRoundTrips({ host: db.hostname, port: Number(db.port) });
  db.host = `127.0.0.1:${counter.port}`;
  const port = await freePort();
  const server = await startServerProcess(db.toString(), secretKey, port);
  const base = `http://127.0.0.1:${port}`;
  // `atOnce` requests in flight at a time (CONNECTIONS: as under load, where group commit writes several events in one statement).
  const count = async (send: () => Promise<Response>, status: number, atOnce = 1) => {
    for (let i = 0; i < 20; i++) await expectStatus(send(), status);
    counter.take();
    const started = Date.now();
    for (let i = 0; i < COUNTED_REQUESTS; i += atOnce)
      await Promise.all(Array.from({ length: Math.min(atOnce, COUNTED_REQUESTS - i) }, () => expectStatus(send(), status)));
    const busy = counter.take();
    const busyMs = Date.now() - started;
    await new Promise((r) => setTimeout(r, 2 * busyMs));
    const idle = counter.take();
    const perRequest = new Map<string, number>();
    for (const [statement, n] of busy) {
      const own = (n - (idle.get(statement) ?? 0) / 2) / COUNTED_REQUESTS;
      if (own >= 0.05) perRequest.set(statement, own);
    }
    return perRequest;
  };
  try {
    const consent = await count(() => fetch(`${base}/guest/v1/consent`, { headers }), 200);
    const sendEvent = () =>
      fetch(`${base}/guest/v1/events`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: eventBody(),
      });
    const events = await count(sendEvent, 202);
    const eventsAtOnce = await count(sendEvent, 202, CONNECTIONS);
    return { consent, events, eventsAtOnce };
  } finally {
    await stopProfiled(server);
    await counter.close();
  }
}

async function expectStatus(answer: Promise<Response>, status: number) {
  const res = await answer;
  const text = await res.text();
  if (res.status !== status) throw new Error(`warm-up answered ${res.status}: ${text}`);
}

const FLOOR_SERVER = `
import http from 'node:http';
import pg from 'pg';
const [url, appModeId] = process.argv.slice(1);
const pool = new pg.Pool({ connectionString: url, max: 10 });
const server = http.createServer(async (req, res) => {
  try {
    const { rows } = await pool.query('SELECT offers_by_email, offers_by_push, offers_by_email_changed_at, offers_by_push_changed_at FROM contact WHERE app_mode_id = $1 AND external_id = $2', [appModeId, 'bench-user']);
    const c = rows[0] ?? {};
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ offers_by_email: c.offers_by_email === true, offers_by_push: c.offers_by_push === true, changed_at: null }));
  } catch (err) {
    res.writeHead(500);
    res.end(String(err));
  }
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

/** The floor: a bare node:http server in its own process, one single-row read through pg per request (pool of 10, as the service's). */
async function startFloor(url: string, appModeId: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', FLOOR_SERVER, url, appModeId], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once('data', (d) => resolve(Number(String(d).trim())));
    child.once('exit', (code) => reject(new Error(`the floor server exited with ${code}`)));
  });
  return { child, port };
}

function startServerProcess(url: string, secretKey: string, port: number): Promise<ChildProcess> {
  // BENCH_GUEST_PROFILE=<dir>: the server writes a CPU profile there when it stops.
  const profile = process.env.BENCH_GUEST_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_GUEST_PROFILE}`] : [];
  const child = spawn(process.execPath, [...profile, fileURLToPath(new URL('../dist/src/main.js', import.meta.url))], {
    env: {
      ...process.env,
      DATABASE_URL: url,
      CRM_SECRET_KEY: secretKey,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      BASE_URL: `http://127.0.0.1:${port}`,
      // One load generator on one address, well past the limits a person's device meets: the limits
      // are still taken on every request, never reached.
      RATE_GUEST_ADDRESS_PER_MINUTE: '100000000',
      RATE_GUEST_APP_PER_MINUTE: '100000000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return ready(child, port);
}

async function ready(child: ChildProcess, port: number): Promise<ChildProcess> {
  for (let i = 0; i < 200; i++) {
    if (
      await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error('the server did not become ready');
}

const ms = (n: number) => `${n.toFixed(1)} ms`;
const line = (r: Run) =>
  `${Math.round(r.requestsPerSecond).toLocaleString('en').padStart(7)} requests/s, p50 ${ms(r.p50).padStart(8)}, p99 ${ms(r.p99).padStart(8)}, server CPU ${r.cpuMsPerRequest.toFixed(2)} ms/request, database CPU ${r.dbCpuMsPerRequest.toFixed(2)} ms/request`;

/** Prints the result as `npm run bench` shows it. */
export function printGuest(r: GuestBenchResult): void {
  console.log(
    `guest path: ${CONNECTIONS} connections, a signed user token; floor: bare node:http + one single-row read through pg, own process`,
  );
  console.log(`  floor                     ${line(r.floor)}`);
  console.log(
    `  entry alone (credential and limits, then 400 before the domain) ${line(r.entry)}  ratio ${(r.entry.requestsPerSecond / r.floor.requestsPerSecond).toFixed(2)}`,
  );
  console.log(
    `  GET /guest/v1/consent     ${line(r.consent)}  ratio ${(r.consent.requestsPerSecond / r.floor.requestsPerSecond).toFixed(2)} of the floor (aim: at least 0.6)`,
  );
  console.log(
    `  POST /guest/v1/events (1) ${line(r.events)}  ratio ${(r.events.requestsPerSecond / r.floor.requestsPerSecond).toFixed(2)} of the floor (aim: at least 0.5)`,
  );
  console.log(`  at a steady ${STEADY_RATE.toLocaleString('en')} requests/s (aim: p99 within 5 ms):`);
  console.log(`    floor                   ${line(r.steadyFloor)}`);
  console.log(`    GET /guest/v1/consent   ${line(r.steadyConsent)}`);
  console.log(
    `    POST /guest/v1/events   ${line(r.steadyEvents)}  p99 ${(r.steadyEvents.p99 / r.steadyFloor.p99).toFixed(1)}× the floor's (aim: keeps up, within 3×)`,
  );
  for (const [name, trips] of [
    ['GET /guest/v1/consent', r.roundTrips.consent],
    ['POST /guest/v1/events', r.roundTrips.events],
    [`POST /guest/v1/events, ${CONNECTIONS} at once (group commit)`, r.roundTrips.eventsAtOnce],
  ] as const) {
    const total = [...trips.values()].reduce((a, b) => a + b, 0);
    console.log(`  ${name}: ${total.toFixed(1)} database round trips per request (floor: 1), counted on the wire:`);
    for (const [statement, n] of trips) console.log(`    ${n.toFixed(2).padStart(5)}  ${statement}`);
  }
}

// Alone: a database of its own.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exit(
    await withBenchDatabase('crm_bench_guest', async ({ url }) => {
      const app = await makeGuestApp(url, BENCH_SECRET_KEY);
      printGuest(await benchGuest(url, BENCH_SECRET_KEY, app));
    }),
  );
}
