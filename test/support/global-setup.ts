import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/db/embedded-postgres.js';
import { applyMigrations, withDatabase } from '../../src/db/migrations.js';

// One PostgreSQL for the run: DATABASE_URL's server when given, else an embedded one in a temp
// folder. Migrations are applied once to a template database; each test file copies it.

export const TEMPLATE = `crm_test_template_${process.pid}`;

let embedded: EmbeddedPostgres | undefined;
let dataDir: string | undefined;
let adminUrl: string;

export async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) {
    adminUrl = withDatabase(process.env.DATABASE_URL, 'postgres');
  } else {
    dataDir = await mkdtemp(path.join(tmpdir(), 'crm-test-pg-'));
    embedded = await startEmbeddedPostgres(dataDir);
    adminUrl = embedded.adminUrl;
  }
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${TEMPLATE}`);
  await admin.query(`CREATE DATABASE ${TEMPLATE}`);
  await admin.end();
  await applyMigrations(withDatabase(adminUrl, TEMPLATE));
  project.provide('adminUrl', adminUrl);
  project.provide('templateDb', TEMPLATE);
}

export async function teardown() {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const { rows } = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE 'crm_test_%'`);
  for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`).catch(() => {});
  await admin.end();
  await embedded?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true }).catch(() => {});
}

declare module 'vitest' {
  export interface ProvidedContext {
    adminUrl: string;
    templateDb: string;
  }
}
