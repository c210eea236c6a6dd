// npm run bench: each benchmark beside its floor, measured in the same run on this machine.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { readConfig } from '../src/config.js';
import { createApp } from '../src/domain/apps/create-app.js';
import { createServerKey, MAX_SERVER_KEYS } from '../src/domain/apps/server-keys.js';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres.js';
import { applyMigrations, withDatabase } from '../src/db/migrations.js';
import { openServices } from '../src/services.js';
import { benchEvents } from './events.js';
import { benchStartup, summary } from './startup.js';

// The server and `crm` are run as users run them, from dist/: build it from the current sources.
execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: new URL('..', import.meta.url), stdio: 'inherit' });

const SECRET_KEY = Buffer.alloc(32, 9).toString('base64');
const dataDir = await mkdtemp(path.join(tmpdir(), 'crm-bench-'));
const embedded = await startEmbeddedPostgres(dataDir);
let code = 0;
try {
  const admin = new pg.Client({ connectionString: embedded.adminUrl });
  await admin.connect();
  await admin.query('CREATE DATABASE crm_bench');
  await admin.end();
  const url = withDatabase(embedded.adminUrl, 'crm_bench');
  await applyMigrations(url);
  const svc = await openServices({ config: readConfig({ LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv), url, secretKey: SECRET_KEY });
  const ws = await svc.db.workspace.create({ data: { id: crypto.randomUUID(), name: 'Bench' } });
  const app = await createApp(svc, { workspaceId: ws.id, name: 'Bench app' });
  const mode = await svc.db.appMode.findUniqueOrThrow({ where: { appKey: app.live.app_key } });
  const keys = [app.live.server_key];
  while (keys.length < MAX_SERVER_KEYS) keys.push((await createServerKey(svc, mode.id)).serverKey);
  await svc.close();

  const r = await benchEvents(embedded.adminUrl, SECRET_KEY, keys, 'crm_bench');
  console.log('events: POST /server/v1/events, 500 per batch, 8 connections');
  console.log(`  service  ${Math.round(r.serviceEventsPerSecond).toLocaleString('en')} events/s`);
  console.log(`  floor    ${Math.round(r.floorEventsPerSecond).toLocaleString('en')} events/s (multi-row INSERT … ON CONFLICT DO NOTHING through pg)`);
  const trips = [...r.roundTrips.values()].reduce((a, b) => a + b, 0);
  console.log(`  ratio    ${r.ratio.toFixed(2)} of the floor (aim: at least 0.80), ${trips.toFixed(1)} database round trips per batch (floor: 1)`);
  console.log('  round trips per batch once its definitions are known, counted on the wire (bench/round-trips.ts):');
  for (const [statement, n] of r.roundTrips) console.log(`    ${n.toFixed(2).padStart(5)}  ${statement}`);

  const timings = await benchStartup({ databaseUrl: url, secretKey: SECRET_KEY, appKey: app.live.app_key });
  const floorMs = summary(timings[0]!.ms).median;
  const ms = (n: number) => `${Math.round(n).toLocaleString('en')} ms`;
  console.log(`startup: wall time from spawn, ${timings[0]!.ms.length} runs each, median (min to max); floor: node -e '' in the same run`);
  for (const t of timings) {
    const s = summary(t.ms);
    const ratio = t === timings[0] ? 'floor' : `${(s.median / floorMs).toFixed(1)}× the floor`;
    console.log(`  ${t.name.padEnd(48)} ${ms(s.median).padStart(9)} (${ms(s.min)} to ${ms(s.max)})  ${ratio}`);
  }

  // Live fan-out (bench/live.ts): two server processes, 1,000 and 5,000 subscribers, beside a bare ws broadcast.
  await (await import('./live.js')).benchLive(url, SECRET_KEY);
} catch (err) {
  console.error(err);
  code = 1;
} finally {
  await embedded.stop();
  await rm(dataDir, { recursive: true, force: true });
}
process.exit(code);
