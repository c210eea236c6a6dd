// Live fan-out: two server processes on one database, N staff tools subscribed to one app-mode's
// settings (graphql-ws), split between them, a change a second made through one process. Beside
// it the floor: a bare `ws` server (its own process) broadcasting the same payload to as many
// clients. Run by bench/run.ts, or alone: `npx tsx bench/live.ts [subscribers…]`.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import pg from 'pg';
import WebSocket from 'ws';
import { readConfig } from '../src/config.js';
import { createApp } from '../src/domain/apps/create-app.js';
import { createWorkspace } from '../src/domain/staff/workspaces.js';
import { sha256 } from '../src/lib/secrets.js';
import { systemContext } from '../src/domain/context.js';
import { openServices } from '../src/services.js';
import { BENCH_SECRET_KEY, withBenchDatabase } from './database.js';
import { freePort, stop } from './processes.js';

const CHANGES = Number(process.env.BENCH_LIVE_CHANGES ?? 15);
const CONNECT_AT_ONCE = 50;
const SUBSCRIPTION =
  'subscription($m: ID!) { appModeChanged(appModeId: $m) { version reload appMode { id brandName brandColor webOrigins updatedAt } } }';

export interface LiveResult {
  subscribers: number;
  service: {
    p50: number;
    p99: number;
    max: number;
    /** From the change's outbox row (written just before its commit) to each answer. */
    fromCommitP50: number;
    fromCommitP99: number;
    missed: number;
    outOfOrder: number;
    mutationP50: number;
    mutationP99: number;
    /** The same mutation before any subscriber connected. */
    aloneP50: number;
    aloneP99: number;
    /** The same mutation on an app-mode nobody follows, half a second after each change, with every subscriber connected. */
    unfollowedP50: number;
    unfollowedP99: number;
    bytesPerSubscriber: number;
    /** CPU of both server processes over the counted changes, per answer delivered (the changes nobody follows included). */
    serverCpuMsPerMessage: number;
    /** CPU of this process (the subscribers' end) over the same time, per answer received. */
    clientCpuMsPerMessage: number;
  };
  floor: { p50: number; p99: number; max: number; missed: number; serverCpuMsPerMessage: number; clientCpuMsPerMessage: number };
}

/** Runs the benchmark for each subscriber count on the database at `url` (migrated) and prints it. */
export async function benchLive(url: string, secretKey: string, counts = [1000, 5000]): Promise<LiveResult[]> {
  const results: LiveResult[] = [];
  for (const subscribers of counts) {
    const r = await runOnce(url, secretKey, subscribers);
    results.push(r);
    const ms = (n: number) => `${n.toFixed(1)} ms`;
    console.log(
      `live: ${subscribers.toLocaleString('en')} subscribers over two server processes, ${CHANGES} changes, one a second, made through one process`,
    );
    const s = r.service;
    console.log(
      `  service  fan-out p50 ${ms(s.p50)}, p99 ${ms(s.p99)}, max ${ms(s.max)} from the mutation sent to each subscriber's answer`,
    );
    console.log(
      `           p50 ${ms(s.fromCommitP50)}, p99 ${ms(s.fromCommitP99)} from the change's commit; missed ${s.missed}, out of order ${s.outOfOrder}`,
    );
    console.log(
      `           mutation p50 ${ms(s.mutationP50)}, p99 ${ms(s.mutationP99)}; of an app-mode nobody follows, between the changes: p50 ${ms(s.unfollowedP50)}, p99 ${ms(s.unfollowedP99)}; before anyone subscribed: p50 ${ms(s.aloneP50)}, p99 ${ms(s.aloneP99)}`,
    );
    console.log(`           server memory ${(s.bytesPerSubscriber / 1024).toFixed(1)} KiB per subscriber (RSS of both processes)`);
    const perMessage = (x: { serverCpuMsPerMessage: number; clientCpuMsPerMessage: number }) =>
      `CPU per answer: servers ${(x.serverCpuMsPerMessage * 1000).toFixed(1)} µs, subscribers' end ${(x.clientCpuMsPerMessage * 1000).toFixed(1)} µs`;
    console.log(`           ${perMessage(s)}`);
    console.log(
      `  floor    p50 ${ms(r.floor.p50)}, p99 ${ms(r.floor.p99)}, max ${ms(r.floor.max)}; missed ${r.floor.missed} (a bare ws server, one process, broadcasting the same payload)`,
    );
    console.log(`           ${perMessage(r.floor)}`);
    console.log(
      `  ratio    p99 ${(s.p99 / Math.max(r.floor.p99, 0.1)).toFixed(1)}× the floor (aim: service p99 within 100 ms at 1,000 and 500 ms at 10,000)`,
    );
  }
  return results;
}

async function runOnce(url: string, secretKey: string, subscribers: number): Promise<LiveResult> {
  const svc = await openServices({ config: readConfig({ LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv), url, secretKey });
  const ownerEmail = `live-${randomUUID()}@example.com`;
  const { workspaceId } = await createWorkspace(systemContext(svc, 'bench'), {
    name: 'Live bench',
    ownerEmail,
    ownerPassword: 'bench password, long enough',
  });
  const app = await createApp(systemContext(svc, 'bench'), { workspaceId, name: 'Live bench app' });
  const appModeId = (await svc.db.appMode.findUniqueOrThrow({ where: { appKey: app.live.app_key } })).id;
  // The same mutation on an app-mode nobody follows, made between the changes: its latency with 0 subscribers, at the same moments.
  const quiet = await createApp(systemContext(svc, 'bench'), { workspaceId, name: 'Live bench app nobody follows' });
  const quietModeId = (await svc.db.appMode.findUniqueOrThrow({ where: { appKey: quiet.live.app_key } })).id;
  const owner = await svc.db.staffUser.findUniqueOrThrow({ where: { email: ownerEmail } });
  // One session per staff tool, as tools signed in one by one would have.
  const tokens = Array.from({ length: subscribers + 1 }, () =>
    `crm_st_${randomUUID().replaceAll('-', '')}${randomUUID().replaceAll('-', '')}`.slice(0, 47),
  );
  const expiresAt = new Date(Date.now() + 86_400_000);
  await svc.db.staffSession.createMany({
    data: tokens.map((t) => ({ id: randomUUID(), staffUserId: owner.id, tokenHash: sha256(t), expiresAt, createdAt: new Date() })),
  });
  await svc.close();

  const ports = await Promise.all([freePort(), freePort()]);
  const servers = ports.map((port) => startServerProcess(url, secretKey, port));
  const mutator = startMutator(`http://127.0.0.1:${ports[0]}/graphql`, tokens[subscribers]!);
  try {
    await Promise.all(ports.map(ready));
    const before = servers.map(rss);
    const sentAt: number[] = [];
    const change = async (i: number, of = appModeId) => {
      const { startedAt, ms } = await mutator.change(i, of);
      sentAt[i] = startedAt;
      return ms;
    };
    // The mutation alone first, as the floor of its own latency: warmed up, then counted.
    const alone: number[] = [];
    for (let i = 0; i < 2 + CHANGES; i++) {
      const ms = await change(-100 - i);
      if (i >= 2) alone.push(ms);
      await sleep(200);
    }
    const sockets: Subscriber[] = [];
    for (let i = 0; i < subscribers; i += CONNECT_AT_ONCE) {
      const batch = tokens.slice(i, Math.min(i + CONNECT_AT_ONCE, subscribers));
      sockets.push(...(await Promise.all(batch.map((token, j) => subscribe(ports[(i + j) % 2]!, token, appModeId)))));
    }
    await sleep(500);
    const bytesPerSubscriber = servers.reduce((sum, s, i) => sum + rss(s) - before[i]!, 0) / subscribers;
    // BENCH_LIVE_HEAP=<dir>: the first server writes a heap snapshot there with every subscriber connected (it stalls while it writes).
    if (process.env.BENCH_LIVE_HEAP) {
      const snapshots = () => readdirSync(process.env.BENCH_LIVE_HEAP!).filter((f) => f.endsWith('.heapsnapshot')).length;
      const had = snapshots();
      process.kill(servers[0]!.pid!, 'SIGUSR2');
      while (snapshots() === had) await sleep(500);
      await sleep(5000);
    }

    const mutationMs: number[] = [];
    const unfollowedMs: number[] = [];
    // Warm-up: code paths compiled, pools filled; not counted.
    for (let i = 0; i < 2; i++) {
      await change(-1 - i);
      await sleep(500);
    }
    for (const s of sockets) s.received.clear();
    const cpuFrom = { servers: servers.map(cpuMs), client: process.cpuUsage(), at: monotonicMicros() };
    for (let i = 0; i < CHANGES; i++) {
      const tick = sleep(1000);
      mutationMs.push(await change(i));
      await sleep(500);
      unfollowedMs.push(await change(1000 + i, quietModeId));
      await tick;
    }
    await sleep(2000);
    const serverCpu = servers.reduce((sum, s, i) => sum + cpuMs(s) - cpuFrom.servers[i]!, 0);
    const clientCpu = cpuUsedMs(cpuFrom.client);
    // The window the counted changes took, on the clock CPU profiles are stamped with (see BENCH_LIVE_PROFILE).
    if (process.env.BENCH_LIVE_PROFILE)
      console.log(
        `  profile window ${subscribers}: ${cpuFrom.at} ${monotonicMicros()} (µs); servers ${servers.map((s) => s.pid).join(' ')}`,
      );
    const service = tally(sockets, sentAt);
    const delivered = subscribers * CHANGES - service.missed;
    const committedAt = await commitTimes(url, appModeId);
    const payload = sockets[0]!.sample;
    for (const s of sockets) s.socket.terminate();

    const floor = await broadcastFloor(subscribers, payload);
    return {
      subscribers,
      service: {
        ...service,
        ...fromCommit(sockets, committedAt),
        mutationP50: quantile(mutationMs, 0.5),
        mutationP99: quantile(mutationMs, 0.99),
        aloneP50: quantile(alone, 0.5),
        aloneP99: quantile(alone, 0.99),
        unfollowedP50: quantile(unfollowedMs, 0.5),
        unfollowedP99: quantile(unfollowedMs, 0.99),
        bytesPerSubscriber,
        serverCpuMsPerMessage: serverCpu / delivered,
        clientCpuMsPerMessage: clientCpu / delivered,
      },
      floor,
    };
  } finally {
    await mutator.close();
    await Promise.all(servers.map(stop));
  }
}

/**
 * The staff tool that makes the changes, on a thread of its own: its answer is read on an event
 * loop that is not also taking in every subscriber's message, so its latency is the server's.
 */
const MUTATOR = `
const { parentPort, workerData: { url, token } } = require('node:worker_threads');
const query = 'mutation($m: ID!, $i: AppSettingsInput!) { updateAppSettings(appModeId: $m, input: $i) { id } }';
parentPort.on('message', async ({ i, appModeId }) => {
  const startedAt = performance.timeOrigin + performance.now();
  const started = performance.now();
  try {
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer ' + token }, body: JSON.stringify({ query, variables: { m: appModeId, i: { brandName: 'change ' + i } } }) });
    const body = await res.json();
    parentPort.postMessage(body.errors ? { i, error: JSON.stringify(body.errors) } : { i, startedAt, ms: performance.now() - started });
  } catch (err) { parentPort.postMessage({ i, error: String(err) }); }
});
`;

function startMutator(url: string, token: string) {
  const worker = new Worker(MUTATOR, { eval: true, workerData: { url, token } });
  const waiting = new Map<number, { resolve: (r: { startedAt: number; ms: number }) => void; reject: (e: Error) => void }>();
  worker.on('message', (m: { i: number; startedAt: number; ms: number; error?: string }) => {
    const w = waiting.get(m.i)!;
    waiting.delete(m.i);
    if (m.error) w.reject(new Error(`the change was refused: ${m.error}`));
    // On this thread's clock, as the subscribers' arrival times are.
    else w.resolve({ startedAt: m.startedAt - performance.timeOrigin, ms: m.ms });
  });
  return {
    change: (i: number, appModeId: string) =>
      new Promise<{ startedAt: number; ms: number }>(
        (resolve, reject) => (waiting.set(i, { resolve, reject }), worker.postMessage({ i, appModeId })),
      ),
    close: () => worker.terminate(),
  };
}

interface Subscriber {
  socket: WebSocket;
  /** Change number → when it arrived (performance.now()). */
  received: Map<number, number>;
  order: number[];
  sample: string;
}

/** A staff tool over graphql-transport-ws, spoken by hand so the client costs the same as the floor's. */
function subscribe(port: number, token: string, appModeId: string): Promise<Subscriber> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/graphql`, 'graphql-transport-ws');
    const sub: Subscriber = { socket, received: new Map(), order: [], sample: '' };
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } })));
    socket.on('error', reject);
    socket.on('message', (raw) => {
      const at = performance.now();
      const text = String(raw);
      const message = JSON.parse(text);
      if (message.type === 'connection_ack')
        socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: SUBSCRIPTION, variables: { m: appModeId } } }));
      else if (message.type === 'next') {
        const change = message.payload.data?.appModeChanged;
        if (!change) return reject(new Error(JSON.stringify(message.payload)));
        if (change.reload) return resolve(sub);
        const n = Number(/^change (-?\d+)$/.exec(change.appMode.brandName)?.[1]);
        sub.received.set(n, at);
        sub.order.push(n);
        sub.sample = text;
      } else if (message.type === 'error') reject(new Error(JSON.stringify(message.payload)));
    });
  });
}

/** When each counted change's row was written (the server's clock, in its commit's transaction), by change number. */
async function commitTimes(url: string, appModeId: string): Promise<Map<number, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ name: string; at: Date }>(
    `SELECT data->>'brandName' AS name, created_at AS at FROM outbox_event WHERE app_mode_id = $1 AND topic = 'app_mode.changed'`,
    [appModeId],
  );
  await client.end();
  return new Map(rows.map((r) => [Number(/^change (-?\d+)$/.exec(r.name)?.[1]), r.at.getTime()]));
}

function fromCommit(sockets: Subscriber[], committedAt: Map<number, number>) {
  const latencies: number[] = [];
  for (const s of sockets)
    for (const [n, at] of s.received) if (n >= 0 && committedAt.has(n)) latencies.push(performance.timeOrigin + at - committedAt.get(n)!);
  return { fromCommitP50: quantile(latencies, 0.5), fromCommitP99: quantile(latencies, 0.99) };
}

function tally(sockets: Subscriber[], sentAt: number[]) {
  const latencies: number[] = [];
  let missed = 0;
  let outOfOrder = 0;
  for (const s of sockets) {
    for (let i = 0; i < CHANGES; i++) {
      const at = s.received.get(i);
      if (at === undefined) missed++;
      else latencies.push(at - sentAt[i]!);
    }
    const counted = s.order.filter((n) => n >= 0);
    outOfOrder += counted.filter((n, i) => i > 0 && n <= counted[i - 1]!).length;
  }
  return {
    p50: quantile(latencies, 0.5),
    p99: quantile(latencies, 0.99),
    max: latencies.reduce((a, b) => Math.max(a, b), 0),
    missed,
    outOfOrder,
  };
}

const FLOOR_SERVER = `
import { WebSocketServer } from 'ws';
const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
wss.on('listening', () => console.log(wss.address().port));
wss.on('connection', (socket) => socket.on('message', (data) => { for (const c of wss.clients) if (c !== socket) c.send(String(data)); }));
`;

/** The floor: a bare ws server in its own process relaying one sender's message to every other client. */
async function broadcastFloor(subscribers: number, payload: string) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', FLOOR_SERVER], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const port = await new Promise<number>((resolve) => child.stdout!.once('data', (d) => resolve(Number(String(d).trim()))));
    const open = (onMessage?: (at: number, text: string) => void) =>
      new Promise<WebSocket>((resolve, reject) => {
        const socket = new WebSocket(`ws://127.0.0.1:${port}`);
        socket.on('open', () => resolve(socket));
        socket.on('error', reject);
        if (onMessage) socket.on('message', (raw) => onMessage(performance.now(), String(raw)));
      });
    const received: Map<number, number>[] = [];
    const clients: WebSocket[] = [];
    for (let i = 0; i < subscribers; i += CONNECT_AT_ONCE) {
      const batch = Array.from({ length: Math.min(CONNECT_AT_ONCE, subscribers - i) }, () => {
        const got = new Map<number, number>();
        received.push(got);
        // Parsed as the service's clients parse theirs.
        return open((at, text) => got.set(JSON.parse(text).n, at));
      });
      clients.push(...(await Promise.all(batch)));
    }
    const sender = await open();
    const sentAt: number[] = [];
    const template = JSON.parse(payload || '{}');
    const cpuFrom = { server: cpuMs(child), client: process.cpuUsage() };
    for (let i = 0; i < CHANGES; i++) {
      sentAt[i] = performance.now();
      sender.send(JSON.stringify({ ...template, n: i }));
      await sleep(1000);
    }
    await sleep(1000);
    const serverCpu = cpuMs(child) - cpuFrom.server;
    const clientCpu = cpuUsedMs(cpuFrom.client);
    const latencies: number[] = [];
    let missed = 0;
    for (const got of received)
      for (let i = 0; i < CHANGES; i++) {
        const at = got.get(i);
        if (at === undefined) missed++;
        else latencies.push(at - sentAt[i]!);
      }
    for (const c of [...clients, sender]) c.terminate();
    const delivered = latencies.length;
    return {
      p50: quantile(latencies, 0.5),
      p99: quantile(latencies, 0.99),
      max: latencies.reduce((a, b) => Math.max(a, b), 0),
      missed,
      serverCpuMsPerMessage: serverCpu / delivered,
      clientCpuMsPerMessage: clientCpu / delivered,
    };
  } finally {
    child.kill('SIGTERM');
  }
}

function quantile(values: number[], q: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** Resident memory of a process, from /proc (Linux). */
function rss(child: ChildProcess): number {
  const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

/** CPU time (user and system) a process has used, in ms, from /proc (Linux; clock ticks of 10 ms). */
function cpuMs(child: ChildProcess): number {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** CPU this process has used since `from`, in ms. */
function cpuUsedMs(from: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(from);
  return (user + system) / 1000;
}

/** The monotonic clock in µs, as V8 stamps CPU profiles (Linux). */
const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

function startServerProcess(url: string, secretKey: string, port: number): ChildProcess {
  // BENCH_LIVE_PROFILE=<dir>: each server writes a CPU profile there when it stops.
  const profile = process.env.BENCH_LIVE_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_LIVE_PROFILE}`] : [];
  if (process.env.BENCH_LIVE_HEAP) profile.push('--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${process.env.BENCH_LIVE_HEAP}`);
  return spawn(process.execPath, [...profile, fileURLToPath(new URL('../dist/src/main.js', import.meta.url))], {
    env: {
      ...process.env,
      DATABASE_URL: url,
      CRM_SECRET_KEY: secretKey,
      PORT: String(port),
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      BASE_URL: `http://127.0.0.1:${port}`,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function ready(port: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (
      await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    await sleep(100);
  }
  throw new Error('a server did not become ready');
}

// Alone: a database of its own, then the counts given (1,000 and 5,000 by default).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const counts = process.argv.slice(2).map(Number);
  process.exit(
    await withBenchDatabase(
      'crm_bench_live',
      async ({ url }) => void (await benchLive(url, BENCH_SECRET_KEY, counts.length ? counts : undefined)),
    ),
  );
}
