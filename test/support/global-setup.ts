import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/db/embedded-postgres.js';
import { applyMigrations, withDatabase } from '../../src/db/migrations.js';

// One PostgreSQL for the run: DATABASE_URL's server when given, else an embedded one in a temp
// folder. Migrations are applied once to a template database; each test file copies it.
// Before that: the browser the run needs is there, and dist/ is rebuilt, so that the processes
// tests spawn (crm, npm start) never run stale code, also under a bare `npx vitest`.

export const TEMPLATE = `crm_test_template_${process.pid}`;

let embedded: EmbeddedPostgres | undefined;
let dataDir: string | undefined;
let adminUrl: string;
let bundleDir: string | undefined;

const BROWSER_TESTS = ['test/cors-browser.test.ts'];

export async function setup(project: TestProject) {
  // Without it Playwright fails only minutes into the run; say at once what to do.
  const filters = (project.vitest as { filenamePattern?: string[] }).filenamePattern;
  if (
    !filters?.length ||
    BROWSER_TESTS.some((file) => filters.some((f) => file.includes(f.replace(/^\.\//, '')) || path.resolve(f) === path.resolve(file)))
  ) {
    const found = findChromium();
    if (!found)
      fail(
        `chromium not found (${process.env.CHROMIUM_PATH ?? '/usr/bin/chromium, or on PATH'}); the browser tests need it: apt-get install -y chromium`,
      );
    process.env.CHROMIUM_PATH ??= found;
  }
  try {
    execFileSync(process.execPath, ['scripts/build.mjs', '--quiet'], { cwd: project.config.root, stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (err) {
    fail(`npm run build failed: ${(err as { stderr?: Buffer }).stderr?.toString().trim() || err}`);
  }

  if (process.env.DATABASE_URL) {
    adminUrl = withDatabase(process.env.DATABASE_URL, 'postgres');
  } else {
    dataDir = await mkdtemp(path.join(tmpdir(), 'crm-test-pg-'));
    embedded = await startEmbeddedPostgres(dataDir);
    adminUrl = embedded.adminUrl;
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  // The run's own throwaway cluster waits for no disk: a commit is not flushed (each was a flush of
  // the WAL, most of a small write's time on a busy disk). A server given by DATABASE_URL is left as it is.
  if (embedded) {
    for (const setting of ['fsync = off', 'synchronous_commit = off', 'full_page_writes = off'])
      await admin.query(`ALTER SYSTEM SET ${setting}`);
    await admin.query('SELECT pg_reload_conf()');
  }
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE}`);
  await admin.query(`CREATE DATABASE ${TEMPLATE}`);
  await admin.end();
  await applyMigrations(withDatabase(adminUrl, TEMPLATE));
  project.provide('adminUrl', adminUrl);
  project.provide('templateDb', TEMPLATE);
  project.provide('temporalBundle', process.env.TEMPORAL_ADDRESS ? await temporalBundle() : '');
}

/**
 * The service's workflows bundle, built once for the run (it takes seconds) into a file every test
 * server's Temporal worker loads (test/support/server.ts). Only when the run has a Temporal server.
 */
async function temporalBundle(): Promise<string> {
  const { bundleWorkflowCode } = await import('@temporalio/worker');
  const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };
  const { code } = await bundleWorkflowCode({
    workflowsPath: fileURLToPath(new URL('../../workflows/temporal/workflows.ts', import.meta.url)),
    logger: quiet,
  });
  bundleDir = await mkdtemp(path.join(tmpdir(), 'crm-test-bundle-'));
  const file = path.join(bundleDir, 'workflows.js');
  await writeFile(file, code);
  return file;
}

export async function teardown() {
  if (bundleDir) await rm(bundleDir, { recursive: true, force: true }).catch(() => {});
  if (!adminUrl) return; // setup stopped before any database
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const { rows } = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE 'crm_test_%'`);
  for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`).catch(() => {});
  await admin.end();
  await embedded?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true }).catch(() => {});
}

function findChromium(): string | undefined {
  const candidates = process.env.CHROMIUM_PATH
    ? [process.env.CHROMIUM_PATH]
    : [
        '/usr/bin/chromium',
        ...(process.env.PATH ?? '')
          .split(':')
          .filter(Boolean)
          .map((dir) => path.join(dir, 'chromium')),
      ];
  return candidates.find((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** Nothing runs yet: stop the run with just this (a thrown error is buried under vitest's "No test files found"). */
function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

declare module 'vitest' {
  export interface ProvidedContext {
    adminUrl: string;
    templateDb: string;
    /** The workflows bundle's file ('' when the run has no Temporal server). */
    temporalBundle: string;
  }
}
