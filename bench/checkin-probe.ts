import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';

// What bench/checkin.ts measures beside its runs: in a server process (a probe loaded with
// --import, toggled by SIGUSR2 around each timed run) its CPU profile, event-loop delay, garbage-
// collection pauses and requests in flight; in PostgreSQL its CPU, commits, rows written and WAL,
// and (sampled every 20 ms) what its sessions are doing and whether any waits on a lock.

/** The probe, as plain JavaScript: the server runs from dist/ under node, not tsx. */
const PROBE = `
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { Session } from 'node:inspector';
import http from 'node:http';
import { writeFileSync } from 'node:fs';
const dir = process.env.CHECKIN_PROBE_DIR;
const label = process.env.CHECKIN_PROBE_LABEL ?? String(process.pid);
let on = false, run = 0, inFlight = 0, maxInFlight = 0, sum = 0, samples = 0, gc = [];
const delay = monitorEventLoopDelay({ resolution: 1 });
const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (event, req, res) {
  if (event === 'request') {
    inFlight++;
    if (on && inFlight > maxInFlight) maxInFlight = inFlight;
    res.once('close', () => inFlight--);
  }
  return emit.apply(this, arguments);
};
setInterval(() => { if (on) { sum += inFlight; samples++; } }, 10).unref();
new PerformanceObserver((list) => {
  if (on) for (const e of list.getEntries()) gc.push([e.duration, e.detail?.kind ?? e.kind]);
}).observe({ entryTypes: ['gc'] });
const session = new Session();
session.connect();
const post = (method, params) => new Promise((ok, fail) => session.post(method, params, (err, res) => (err ? fail(err) : ok(res))));
await post('Profiler.enable');
await post('Profiler.setSamplingInterval', { interval: 500 });
process.on('SIGUSR2', async () => {
  if (!on) {
    run++; gc = []; maxInFlight = inFlight; sum = 0; samples = 0;
    delay.reset(); delay.enable();
    await post('Profiler.start');
    on = true;
    writeFileSync(dir + '/' + label + '-' + run + '.started', '');
    return;
  }
  on = false;
  delay.disable();
  const { profile } = await post('Profiler.stop');
  const file = dir + '/' + label + '-' + run + '.cpuprofile';
  writeFileSync(file, JSON.stringify(profile));
  const ms = (n) => n / 1e6;
  writeFileSync(dir + '/' + label + '-' + run + '.json', JSON.stringify({
    profile: file,
    loopDelay: { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) },
    gc: { count: gc.length, totalMs: gc.reduce((a, g) => a + g[0], 0), maxMs: Math.max(0, ...gc.map((g) => g[0])),
          majorCount: gc.filter((g) => g[1] === 4 /* NODE_PERFORMANCE_GC_MAJOR */).length },
    inFlight: { mean: samples ? sum / samples : 0, max: maxInFlight },
  }));
});
`;

export interface DbSamples {
  /** Mean a sample, over the application's sessions. */
  active: number;
  idleInTransaction: number;
  lockWaiting: number;
  lockWaitingMax: number;
  /** Wait events seen in active sessions: how many samples saw each. */
  waits: Record<string, number>;
}

export interface ProbeSummary {
  profile: string;
  loopDelay: { p50: number; p99: number; max: number };
  gc: { count: number; totalMs: number; maxMs: number; majorCount: number };
  inFlight: { mean: number; max: number };
  db?: DbSamples;
}

/** Node options loading the probe (written into `dir`), which writes its files there. */
export function probeArgs(dir: string): string[] {
  const root = resolve(dir);
  mkdirSync(root, { recursive: true });
  const file = join(root, 'checkin-probe.mjs');
  writeFileSync(file, PROBE);
  process.env.CHECKIN_PROBE_DIR = root;
  return ['--import', pathToFileURL(file).href];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(file: string): Promise<void> {
  for (let i = 0; i < 600 && !existsSync(file); i++) await sleep(50);
  if (!existsSync(file)) throw new Error(`the probe wrote no ${file}`);
}

/** Starts and stops a server's probe around a run (SIGUSR2), and reads what it wrote. */
export class ProbeToggle {
  private label?: string;
  constructor(
    private readonly server: ChildProcess,
    private readonly dir: string,
  ) {}

  private files(): string[] {
    return readdirSync(resolve(this.dir)).filter((f) => f.endsWith('.started'));
  }

  async start(): Promise<void> {
    const before = new Set(this.files());
    this.server.kill('SIGUSR2');
    for (let i = 0; i < 600 && !this.label; i++) {
      const added = this.files().find((f) => !before.has(f));
      if (added) this.label = added.slice(0, -'.started'.length);
      else await sleep(20);
    }
    if (!this.label) throw new Error('the probe did not start');
  }

  async stop(): Promise<ProbeSummary> {
    this.server.kill('SIGUSR2');
    const file = join(resolve(this.dir), `${this.label}.json`);
    await waitFor(file);
    await sleep(50);
    return JSON.parse(readFileSync(file, 'utf8')) as ProbeSummary;
  }
}

/** Functions by self time (share of all samples), with the idle ones apart. */
export function summarizeProfile(file: string, top: number): { name: string; share: number }[] {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as {
    nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
    samples: number[];
  };
  const byId = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const counts = new Map<string, number>();
  for (const id of profile.samples) {
    const f = byId.get(id)!;
    const where = f.url ? `${f.url.replace(/^.*\/(node_modules\/)?/, '')}:${f.lineNumber + 1}` : '';
    const name = `${f.functionName || '(anonymous)'}${where ? ` ${where}` : ''}`;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  const total = profile.samples.length;
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, n]) => ({ name, share: n / total }));
}

/** PostgreSQL's side of a run: counters read before and after, and (when asked) sessions sampled every 20 ms. */
export class DbProbe {
  private timer?: NodeJS.Timeout;
  private busy = false;
  private n = 0;
  private totals = { active: 0, idleInTransaction: 0, lockWaiting: 0, lockWaitingMax: 0 };
  private waits: Record<string, number> = {};

  private constructor(private readonly client: pg.Client) {}

  static async open(url: string, sample: boolean): Promise<DbProbe> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const probe = new DbProbe(client);
    if (sample) probe.timer = setInterval(() => void probe.sample(), 20);
    return probe;
  }

  /** CPU of every process of the cluster (ms), commits, rows written, WAL bytes. */
  async counters(): Promise<{ cpuMs: number; commits: number; rows: number; wal: number }> {
    const { rows } = await this.client.query<{ pids: number[]; commits: string; rows: string; wal: string }>(
      `SELECT (SELECT array_agg(pid) FROM pg_stat_activity) AS pids,
              (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()) AS commits,
              (SELECT tup_inserted + tup_updated + tup_deleted FROM pg_stat_database WHERE datname = current_database()) AS rows,
              pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0') AS wal`,
    );
    const r = rows[0]!;
    let cpuMs = 0;
    const pids = new Set(r.pids);
    // The postmaster too (the parent of the sessions).
    for (const pid of r.pids) {
      try {
        const ppid = Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
        pids.add(ppid);
        break;
      } catch {
        // gone
      }
    }
    for (const pid of pids) {
      try {
        const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
        cpuMs += ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
      } catch {
        // gone meanwhile
      }
    }
    return { cpuMs, commits: Number(r.commits), rows: Number(r.rows), wal: Number(r.wal) };
  }

  private async sample(): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const { rows } = await this.client.query<{ state: string | null; wait: string | null; locked: boolean }>(
        `SELECT a.state, a.wait_event_type || ':' || a.wait_event AS wait,
                EXISTS (SELECT 1 FROM pg_locks l WHERE l.pid = a.pid AND NOT l.granted) AS locked
         FROM pg_stat_activity a WHERE a.datname = current_database() AND a.pid <> pg_backend_pid() AND a.backend_type = 'client backend'`,
      );
      this.n++;
      let waiting = 0;
      for (const r of rows) {
        if (r.state === 'active') this.totals.active++;
        if (r.state === 'idle in transaction') this.totals.idleInTransaction++;
        if (r.locked) waiting++;
        if (r.state === 'active' && r.wait) this.waits[r.wait] = (this.waits[r.wait] ?? 0) + 1;
      }
      this.totals.lockWaiting += waiting;
      this.totals.lockWaitingMax = Math.max(this.totals.lockWaitingMax, waiting);
    } finally {
      this.busy = false;
    }
  }

  async close(): Promise<DbSamples | undefined> {
    if (this.timer) clearInterval(this.timer);
    while (this.busy) await sleep(5);
    await this.client.end();
    if (!this.timer) return undefined;
    const n = Math.max(1, this.n);
    return {
      active: this.totals.active / n,
      idleInTransaction: this.totals.idleInTransaction / n,
      lockWaiting: this.totals.lockWaiting / n,
      lockWaitingMax: this.totals.lockWaitingMax,
      waits: this.waits,
    };
  }
}
