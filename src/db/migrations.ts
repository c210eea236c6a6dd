import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { PROJECT_ROOT as projectRoot } from '../config.js';
import type { SchemaEngine } from './schema-engine.js';

// Create, apply and check migrations with Prisma's wasm schema engine. Migration folders are
// Prisma's own (`prisma/migrations/<timestamp>_<name>/migration.sql` and `_prisma_migrations`).

/** The data model: one `.prisma` file per area in this folder. */
export const schemaDir = path.join(projectRoot, 'prisma/schema');

/** Every file of the data model, by path, in name order. */
export async function readSchemaFiles(): Promise<{ path: string; content: string }[]> {
  const names = (await readdir(schemaDir)).filter((n) => n.endsWith('.prisma')).sort();
  return Promise.all(names.map(async (n) => ({ path: path.join(schemaDir, n), content: await readFile(path.join(schemaDir, n), 'utf8') })));
}
const migrationsDir = path.join(projectRoot, 'prisma/migrations');
const noFilters = { externalTables: [], externalEnums: [] };

async function readMigrations(through?: string) {
  await mkdir(migrationsDir, { recursive: true });
  const names = (await readdir(migrationsDir, { withFileTypes: true }))
    .filter((d) => d.isDirectory() && (through === undefined || d.name <= through))
    .map((d) => d.name)
    .sort();
  const lockPath = path.join(migrationsDir, 'migration_lock.toml');
  const lock = await readFile(lockPath, 'utf8').catch(() => 'provider = "postgresql"\n');
  return {
    baseDir: migrationsDir,
    lockfile: { path: lockPath, content: lock },
    shadowDbInitScript: '',
    migrationDirectories: await Promise.all(
      names.map(async (name) => ({
        path: name,
        migrationFile: {
          path: 'migration.sql',
          content: { tag: 'ok' as const, value: await readFile(path.join(migrationsDir, name, 'migration.sql'), 'utf8') },
        },
      })),
    ),
  };
}

async function withEngine<T>(url: string, fn: (engine: SchemaEngine) => Promise<T>): Promise<T> {
  // Loaded only here: a start or `crm` run on a migrated database (allApplied) needs none of the engine's code.
  const { openSchemaEngine } = await import('./schema-engine.js');
  const { engine, close } = await openSchemaEngine(await readSchemaFiles(), url);
  try {
    return await fn(engine);
  } finally {
    await close();
  }
}

/** Applies pending migrations; safe to call on every start. Returns the names applied. */
export async function applyMigrations(url: string, opts: { through?: string } = {}): Promise<string[]> {
  const migrationsList = await readMigrations(opts.through);
  if (
    await allApplied(
      url,
      migrationsList.migrationDirectories.map((d) => d.path),
    )
  )
    return [];
  return withEngine(url, async (engine) => {
    const out = await engine.applyMigrations({ migrationsList, filters: noFilters });
    return out.appliedMigrationNames;
  });
}

/**
 * Every migration recorded as finished, none failed: the usual case on every start and `crm` run,
 * answered by one query instead of loading the 5 MB wasm engine (a third of a `crm` run's CPU).
 * Anything else (no table yet, a failed migration) goes to the engine, which applies or reports it.
 */
async function allApplied(url: string, names: string[]): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query<{ name: string; done: boolean }>(
      'SELECT migration_name AS name, finished_at IS NOT NULL AS done FROM _prisma_migrations WHERE rolled_back_at IS NULL',
    );
    const done = new Set(rows.filter((r) => r.done).map((r) => r.name));
    return rows.every((r) => r.done) && names.every((n) => done.has(n));
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** SQL that takes a database holding every migration to what prisma/schema says ('' when none). */
async function pendingSchemaChange(adminUrl: string): Promise<string> {
  const scratch = `crm_migrate_scratch_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${scratch}`);
  try {
    const url = withDatabase(adminUrl, scratch);
    await applyMigrations(url);
    const files = await readSchemaFiles();
    return await withEngine(url, async (engine) => {
      const diff = await engine.diff({
        from: { tag: 'schemaDatasource', files, configDir: projectRoot },
        to: { tag: 'schemaDatamodel', files },
        script: true,
        exitCode: null,
        filters: noFilters,
      });
      const sql = diff.stdout ?? '';
      return /^\s*(--.*\n\s*)*$/.test(sql) || sql.includes('This is an empty migration') ? '' : sql;
    });
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
    await admin.end();
  }
}

/** Writes a new migration folder with what prisma/schema adds; returns its name, or null when nothing changed. */
export async function createMigration(adminUrl: string, name: string, now = new Date()): Promise<string | null> {
  const sql = await pendingSchemaChange(adminUrl);
  if (!sql) return null;
  const stamp = now.toISOString().replace(/\D/g, '').slice(0, 14);
  const folder = `${stamp}_${name.replace(/[^a-z0-9]+/gi, '_').toLowerCase()}`;
  await mkdir(path.join(migrationsDir, folder), { recursive: true });
  await writeFile(path.join(migrationsDir, folder, 'migration.sql'), sql);
  await writeFile(path.join(migrationsDir, 'migration_lock.toml'), 'provider = "postgresql"\n');
  return folder;
}

/** Drift: prisma/schema says something the migrations do not. Returns the missing SQL, '' when none. */
export function checkDrift(adminUrl: string): Promise<string> {
  return pendingSchemaChange(adminUrl);
}

export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
