import { spawn } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { makeBenchApp } from './apps.js';
import { BENCH_SECRET_KEY, withBenchDatabase } from './database.js';
import { summary, type Timing } from './startup.js';

// Wall time of every `crm` command, from spawn to exit, as an operator runs it (scripts/crm.mjs on
// dist/, DATABASE_URL given), beside the floor of starting Node itself (`node -e ''`). The runs are
// interleaved (one of each command, then the next round) so a busy moment of the machine hits all
// alike. Commands that make something make a new one each run (a new email, a new key, which the
// same round's `key revoke` revokes). In `npm run bench`, or alone: `npx tsx bench/crm.ts`.

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(process.env.BENCH_CRM_RUNS ?? 7);

export async function benchCrm(opts: { databaseUrl: string; secretKey: string; appKey: string }): Promise<Timing[]> {
  const env = { ...process.env, DATABASE_URL: opts.databaseUrl, CRM_SECRET_KEY: opts.secretKey, LOG_LEVEL: 'silent' };
  const crm = (...args: string[]) => untilExit(process.execPath, ['scripts/crm.mjs', ...args], env);
  const key = opts.appKey;
  const workspaceId = (JSON.parse((await crm('app', 'show', key, '--json')).stdout) as { workspace: { id: string } }).workspace.id;
  let made = '';
  const password = 'a long enough password';
  const cases: [string, (round: number) => Promise<{ ms: number; stdout: string }>][] = [
    ["node -e ''", () => untilExit(process.execPath, ['-e', ''], process.env)],
    ['crm --help', () => crm('--help')],
    ['crm app list', () => crm('app', 'list', '--json')],
    ['crm app show KEY', () => crm('app', 'show', key, '--json')],
    ['crm app set KEY (prints)', () => crm('app', 'set', key, '--json')],
    ['crm app set KEY --strict-data on|off', (i) => crm('app', 'set', key, '--strict-data', i % 2 ? 'on' : 'off', '--json')],
    ['crm app create --workspace ID', (i) => crm('app', 'create', '--name', `Bench app ${i}`, '--workspace', workspaceId, '--json')],
    [
      'crm key create KEY',
      async () => {
        const run = await crm('key', 'create', key, '--json');
        made = (JSON.parse(run.stdout) as { server_key: string }).server_key;
        return run;
      },
    ],
    ['crm key revoke SERVER_KEY', () => crm('key', 'revoke', made, '--json')],
    ['crm key list KEY', () => crm('key', 'list', key, '--json')],
    ['crm token KEY --sub ID', () => crm('token', key, '--sub', 'bench-user', '--json')],
    [
      'crm workspace create',
      (i) =>
        crm('workspace', 'create', '--name', `Bench ${i}`, '--owner-email', `owner${i}@bench.test`, '--owner-password', password, '--json'),
    ],
    ['crm staff create', (i) => crm('staff', 'create', '--email', `staff${i}@bench.test`, '--password', password, '--json')],
    ['crm staff list', () => crm('staff', 'list', '--json')],
  ];
  const timings: Timing[] = cases.map(([name]) => ({ name, ms: [] }));
  for (let i = 0; i < RUNS; i++) for (const [c, [, measure]] of cases.entries()) timings[c]!.ms.push((await measure(i)).ms);
  return timings;
}

async function untilExit(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ ms: number; stdout: string }> {
  const started = performance.now();
  const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const code = await new Promise((resolve) => child.once('exit', resolve));
  const ms = performance.now() - started;
  if (code !== 0) throw new Error(`${cmd} ${args.join(' ')} exited with ${code}: ${out}${err}`);
  return { ms, stdout: out };
}

export function printCrm(timings: Timing[]): void {
  const floorMs = summary(timings[0]!.ms).median;
  const ms = (n: number) => `${Math.round(n).toLocaleString('en')} ms`;
  console.log(`crm: every command's wall time from spawn to exit (--json, DATABASE_URL given), ${timings[0]!.ms.length} runs each,`);
  console.log(`  median (min to max); floor: node -e '' in the same run; aim: at most 5× the floor`);
  for (const t of timings) {
    const s = summary(t.ms);
    const ratio = t === timings[0] ? 'floor' : `${(s.median / floorMs).toFixed(1)}× the floor`;
    console.log(`  ${t.name.padEnd(40)} ${ms(s.median).padStart(9)} (${ms(s.min)} to ${ms(s.max)})  ${ratio}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.exit(
    await withBenchDatabase('crm_bench', async ({ url }) => {
      const app = await makeBenchApp(url, BENCH_SECRET_KEY, 'Crm bench');
      printCrm(await benchCrm({ databaseUrl: url, secretKey: BENCH_SECRET_KEY, appKey: app.appKey }));
    }),
  );
}
