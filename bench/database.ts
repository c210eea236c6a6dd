import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres.js';
import { applyMigrations, withDatabase } from '../src/db/migrations.js';

// What every benchmark entry point needs first: dist/ built from the current sources (the server
// and `crm` run as users run them), and a migrated database on an embedded PostgreSQL of its own.

export const BENCH_SECRET_KEY = Buffer.alloc(32, 9).toString('base64');

/** Runs `bench` on a fresh database `name`, then removes it all; answers the process's exit code. */
export async function withBenchDatabase(name: string, bench: (db: { url: string; adminUrl: string }) => Promise<void>): Promise<number> {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: new URL('..', import.meta.url), stdio: 'inherit' });
  const dataDir = await mkdtemp(path.join(tmpdir(), 'crm-bench-'));
  const embedded = await startEmbeddedPostgres(dataDir);
  try {
    const admin = new pg.Client({ connectionString: embedded.adminUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = withDatabase(embedded.adminUrl, name);
    await applyMigrations(url);
    await bench({ url, adminUrl: embedded.adminUrl });
    return 0;
  } catch (err) {
    console.error(err);
    return 1;
  } finally {
    await embedded.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}
