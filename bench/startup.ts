import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { makeBenchApp } from './apps.js';
import { BENCH_SECRET_KEY, withBenchDatabase } from './database.js';

// Wall time of what an operator waits for: one `crm` command, and `npm start` until /readyz answers
// 200 on an existing data folder (its PostgreSQL included), beside the floor of starting Node
// itself (`node -e ''`). The runs are interleaved so a busy moment of the machine hits all alike.
// For the server started directly, also what a busy machine blurs less: the CPU it spent until
// /readyz answered (V8's helper threads included), its RSS then, and the first GraphQL request's
// time after it (what a start could have put off until then shows there).
// `LOG_LEVEL=debug node dist/src/main.js` logs each start step's time and CPU.
// In `npm run bench`, or alone: `npx tsx bench/startup.ts`.

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 7);

export interface Timing {
  name: string;
  ms: number[];
  /** The server started directly: CPU ms until ready, RSS MB then, the first GraphQL request's ms. */
  server?: { cpuMs: number[]; rssMb: number[]; firstGraphQLMs: number[] };
}

export async function benchStartup(opts: { databaseUrl: string; secretKey: string; appKey: string }): Promise<Timing[]> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'crm-bench-start-'));
  try {
    const port = await freePort();
    const env = { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
    const crmEnv = { ...process.env, DATABASE_URL: opts.databaseUrl, CRM_SECRET_KEY: opts.secretKey, LOG_LEVEL: 'silent' };
    const cases: [string, () => Promise<number>][] = [
      ["node -e ''", () => untilExit(process.execPath, ['-e', ''], process.env)],
      [
        `crm app set <key> --json (prints the settings)`,
        () => untilExit(process.execPath, ['scripts/crm.mjs', 'app', 'set', opts.appKey, '--json'], crmEnv),
      ],
      ['npm start → 200 from /readyz', () => untilReady('npm', ['start'], env, port)],
      [
        'node dist/src/main.js → 200 (no npm, no build)',
        () =>
          untilReady(process.execPath, ['dist/src/main.js'], env, port, async (pid) => {
            const server = (timings[3]!.server ??= { cpuMs: [], rssMb: [], firstGraphQLMs: [] });
            server.cpuMs.push(cpuMsOf(pid));
            server.rssMb.push(rssMbOf(pid));
            const started = performance.now();
            const answer = await fetch(`http://127.0.0.1:${port}/graphql`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ query: '{ __typename }' }),
            });
            await answer.text();
            if (!answer.ok) throw new Error(`the first GraphQL request answered ${answer.status}`);
            server.firstGraphQLMs.push(performance.now() - started);
          }),
      ],
    ];
    const timings: Timing[] = cases.map(([name]) => ({ name, ms: [] }));
    await untilReady(process.execPath, ['dist/src/main.js'], env, port); // the first start makes the data folder
    for (let i = 0; i < RUNS; i++) for (const [c, [, measure]] of cases.entries()) timings[c]!.ms.push(await measure());
    return timings;
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function untilExit(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const started = performance.now();
  const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const code = await new Promise((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${code}: ${err}`);
  return performance.now() - started;
}

/** CPU ms a process has spent (every thread), from /proc. */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in clock ticks of 1/100 s
}

function rssMbOf(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

/**
 * From spawn to the first 200 from /readyz (then `ready`, with the process id, measured apart);
 * then SIGTERM to its process group (npm and the server) and wait for the exit.
 */
async function untilReady(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  port: number,
  ready?: (pid: number) => Promise<void>,
): Promise<number> {
  const started = performance.now();
  const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  let err = '';
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${cmd} ${args.join(' ')} exited with ${child.exitCode}: ${err}`);
      if (
        await fetch(`http://127.0.0.1:${port}/readyz`).then(
          (r) => r.ok,
          () => false,
        )
      ) {
        const ms = performance.now() - started;
        await ready?.(child.pid!);
        return ms;
      }
      if (performance.now() - started > 60_000) throw new Error(`${cmd} ${args.join(' ')}: no 200 from /readyz within 60 s`);
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
  }
}

export function summary(ms: number[]) {
  const sorted = [...ms].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)]!, min: sorted[0]!, max: sorted.at(-1)! };
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export function printStartup(timings: Timing[]): void {
  const floorMs = summary(timings[0]!.ms).median;
  const ms = (n: number) => `${Math.round(n).toLocaleString('en')} ms`;
  console.log(`startup: wall time from spawn, ${timings[0]!.ms.length} runs each, median (min to max); floor: node -e '' in the same run`);
  for (const t of timings) {
    const s = summary(t.ms);
    const ratio = t === timings[0] ? 'floor' : `${(s.median / floorMs).toFixed(1)}× the floor`;
    console.log(`  ${t.name.padEnd(48)} ${ms(s.median).padStart(9)} (${ms(s.min)} to ${ms(s.max)})  ${ratio}`);
    if (t.server) {
      const cpu = summary(t.server.cpuMs);
      const rss = summary(t.server.rssMb);
      const first = summary(t.server.firstGraphQLMs);
      console.log(`    CPU until ready ${ms(cpu.median)} (${ms(cpu.min)} to ${ms(cpu.max)}), every thread`);
      console.log(`    RSS when ready  ${Math.round(rss.median)} MB (${Math.round(rss.min)} to ${Math.round(rss.max)} MB)`);
      console.log(`    first GraphQL request after ready ${ms(first.median)} (${ms(first.min)} to ${ms(first.max)})`);
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exit(
    await withBenchDatabase('crm_bench', async ({ url }) => {
      const app = await makeBenchApp(url, BENCH_SECRET_KEY, 'Startup bench');
      printStartup(await benchStartup({ databaseUrl: url, secretKey: BENCH_SECRET_KEY, appKey: app.appKey }));
    }),
  );
}
