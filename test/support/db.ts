import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { withDatabase } from '../../src/db/migrations.js';

async function createDatabase(template?: string): Promise<string> {
  const adminUrl = inject('adminUrl');
  const name = `crm_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  } finally {
    await admin.end();
  }
  return withDatabase(adminUrl, name);
}

/** A fresh, migrated database for one test file (a copy of the run's template). */
export const createTestDatabase = () => createDatabase(inject('templateDb'));

/** An empty database (no migrations), for tests of the migrations themselves. */
export const createEmptyDatabase = () => createDatabase();

export const adminUrl = () => inject('adminUrl');
