import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { withDatabase } from '../src/db/migrations.js';
import { countRoundTrips } from './round-trips.js';
import { exec, one, sql } from '../src/db/sql.js';
import { MAX_SERVER_KEYS } from '../src/domain/apps/server-keys.js';
import { makeBenchApp } from './apps.js';

// POST /server/v1/events with 500-event batches through the real HTTP server (its own process)
// on the embedded PostgreSQL, beside the floor: the same rows written straight into the same
// table with multi-row INSERT … ON CONFLICT DO NOTHING through pg, at the same concurrency.

const BATCH = 500;
const CONNECTIONS = 8;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
/** Batches sent one after the other while round trips are counted. */
const COUNTED_BATCHES = 40;

export interface EventsBenchResult {
  serviceEventsPerSecond: number;
  floorEventsPerSecond: number;
  ratio: number;
  /** The service's mean time for one batch (CONNECTIONS at once). */
  msPerBatch: number;
  /** Database round trips per batch, by statement (see roundTripsPerBatch). */
  roundTrips: Map<string, number>;
}

let counter = 0;
function batch(prefix: string, at: string) {
  const events = [];
  for (let i = 0; i < BATCH; i++) {
    const n = counter++;
    events.push({
      id: `${prefix}-${n}`,
      external_id: `person-${n % 5000}`,
      name: n % 3 ? 'page_seen' : 'order_paid',
      at,
      props: { path: `/p/${n % 100}`, amount: String(n % 10_000) },
    });
  }
  return events;
}

/** An app whose live mode has every server key it may hold (benchEvents takes them in turn). */
export const makeEventsApp = (url: string, secretKey: string) => makeBenchApp(url, secretKey, 'Bench', MAX_SERVER_KEYS);

export function printEvents(r: EventsBenchResult, heading = 'events: POST /server/v1/events, 500 per batch, 8 connections'): void {
  console.log(heading);
  console.log(`  service  ${Math.round(r.serviceEventsPerSecond).toLocaleString('en')} events/s`);
  console.log(
    `  floor    ${Math.round(r.floorEventsPerSecond).toLocaleString('en')} events/s (multi-row INSERT … ON CONFLICT DO NOTHING through pg)`,
  );
  const trips = [...r.roundTrips.values()].reduce((a, b) => a + b, 0);
  console.log(
    `  ratio    ${r.ratio.toFixed(2)} of the floor (aim: at least 0.90), ${trips.toFixed(1)} database round trips per batch (floor: 1)`,
  );
  console.log(`  batch    ${r.msPerBatch.toFixed(1)} ms each (8 at once)`);
  console.log('  round trips per batch once its definitions are known, counted on the wire (bench/round-trips.ts):');
  for (const [statement, n] of r.roundTrips) console.log(`    ${n.toFixed(2).padStart(5)}  ${statement}`);
}

/**
 * `serverKeys`: the mode's keys, taken in turn, so the 1,200-a-minute limit of one key (which
 * the service enforces) does not cap what is measured here.
 */
export async function benchEvents(adminUrl: string, secretKey: string, serverKeys: string[], database: string): Promise<EventsBenchResult> {
  const url = withDatabase(adminUrl, database);
  const port = await freePort();
  const server = await startServerProcess(url, secretKey, port);
  try {
    // Warm up: definitions made, pools filled, code paths compiled.
    const at = new Date().toISOString();
    for (let i = 0; i < 5; i++) await post(port, serverKeys[i % serverKeys.length]!, JSON.stringify({ events: batch('warm', at) }));
    let turn = 0;

    const result = await autocannon({
      url: `http://127.0.0.1:${port}/server/v1/events`,
      connections: CONNECTIONS,
      duration: SECONDS,
      requests: [
        {
          method: 'POST',
          setupRequest: (req) => ({
            ...req,
            headers: { authorization: `Bearer ${serverKeys[turn++ % serverKeys.length]}`, 'content-type': 'application/json' },
            body: JSON.stringify({ events: batch('svc', at) }),
          }),
        },
      ],
    });
    if (result.non2xx > 0) throw new Error(`${result.non2xx} answers were not 2xx: ${JSON.stringify(result.statusCodeStats)}`);
    const serviceEventsPerSecond = (result.requests.total * BATCH) / SECONDS;

    const floorEventsPerSecond = await floor(url, at);
    const roundTrips = await roundTripsPerBatch(url, secretKey, serverKeys, at);
    const msPerBatch = result.latency.mean;
    return { serviceEventsPerSecond, floorEventsPerSecond, ratio: serviceEventsPerSecond / floorEventsPerSecond, msPerBatch, roundTrips };
  } finally {
    await stop(server);
  }
}

async function stop(server: ChildProcess) {
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await exited;
}

/**
 * Round trips per batch, counted on the wire (round-trips.ts) apart from the timed run, so the
 * proxy costs it nothing: a second server process reaches the database through the proxy and is
 * sent batches one at a time after a warm-up. What the process does on its own meanwhile (the
 * outbox poll, once a second) is counted over an idle spell twice as long right after and taken
 * off at its rate; what is left under 0.1 a batch is that poll's jitter, not the batch's.
 */
async function roundTripsPerBatch(url: string, secretKey: string, serverKeys: string[], at: string): Promise<Map<string, number>> {
  const db = new URL(url);
  const counter = await countRoundTrips({ host: db.hostname, port: Number(db.port) });
  db.host = `127.0.0.1:${counter.port}`;
  const port = await freePort();
  const server = await startServerProcess(db.toString(), secretKey, port);
  try {
    for (let i = 0; i < 5; i++) await post(port, serverKeys[i % serverKeys.length]!, JSON.stringify({ events: batch('rt-warm', at) }));
    counter.take();
    const started = Date.now();
    for (let i = 0; i < COUNTED_BATCHES; i++)
      await post(port, serverKeys[i % serverKeys.length]!, JSON.stringify({ events: batch('rt', at) }));
    const busy = counter.take();
    const busyMs = Date.now() - started;
    await new Promise((r) => setTimeout(r, 2 * busyMs));
    const idle = counter.take();
    const perBatch = new Map<string, number>();
    for (const [statement, n] of busy) {
      const own = (n - (idle.get(statement) ?? 0) / 2) / COUNTED_BATCHES;
      if (own >= 0.1) perBatch.set(statement, own);
    }
    return perBatch;
  } finally {
    await stop(server);
    await counter.close();
  }
}

async function floor(url: string, at: string): Promise<number> {
  const pool = new pg.Pool({ connectionString: url, max: CONNECTIONS });
  pool.on('error', () => {});
  const appModeId = (await one<{ id: string }>({ pool }, sql`SELECT id FROM app_mode LIMIT 1`))!.id;
  const deadline = Date.now() + SECONDS * 1000;
  let written = 0;
  const worker = async () => {
    while (Date.now() < deadline) {
      const events = batch('floor', at);
      const values: unknown[] = [];
      const tuples = events.map((e, i) => {
        values.push(appModeId, e.id, e.external_id, e.name, e.at, JSON.stringify(e.props));
        const b = i * 6;
        return `($${b + 1}::uuid, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}::timestamptz, now(), 'server', NULL, $${b + 6}::jsonb)`;
      });
      await exec(
        { pool },
        {
          text: `INSERT INTO event (app_mode_id, id, external_id, name, occurred_at, received_at, source, platform, props) VALUES ${tuples.join(',')} ON CONFLICT (app_mode_id, id) DO NOTHING`,
          values,
        },
      );
      written += events.length;
    }
  };
  const started = Date.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  const seconds = (Date.now() - started) / 1000;
  await pool.end();
  return written / seconds;
}

async function post(port: number, key: string, body: string) {
  const res = await fetch(`http://127.0.0.1:${port}/server/v1/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body,
  });
  if (res.status !== 202) throw new Error(`warm-up answered ${res.status}: ${await res.text()}`);
}

async function startServerProcess(url: string, secretKey: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [fileURLToPath(new URL('../dist/src/main.js', import.meta.url))], {
    env: { ...process.env, DATABASE_URL: url, CRM_SECRET_KEY: secretKey, PORT: String(port), LOG_LEVEL: 'warn', HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 200; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return child;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error('the server did not become ready');
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}
