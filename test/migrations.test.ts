import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { applyMigrations, checkDrift } from '../src/db/migrations.js';
import { adminUrl, createEmptyDatabase } from './support/db.js';

describe('migrations', () => {
  it('apply to an empty database once, then find nothing pending', async () => {
    const url = await createEmptyDatabase();
    const first = await applyMigrations(url);
    expect(first.length).toBeGreaterThan(0);
    expect(await applyMigrations(url)).toEqual([]);
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    const { rows } = await db.query<{ migration_name: string; finished_at: Date | null }>(
      'SELECT migration_name, finished_at FROM _prisma_migrations ORDER BY migration_name',
    );
    await db.end();
    expect(rows.map((r) => r.migration_name)).toEqual(first);
    expect(rows.every((r) => r.finished_at !== null)).toBe(true);
  });

  it('build exactly what prisma/schema says (no drift)', async () => {
    expect(await checkDrift(adminUrl())).toBe('');
  });
});
