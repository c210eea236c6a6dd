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

/** Statements this process sent to PostgreSQL while `fn` ran (the server runs in this process: every pg client's query is counted), or those `only` keeps. */
/** Not a statement of the request's own: the outbox dispatcher's passes and the durable engine's polls run beside it. */
export const notBackground = (text: string): boolean => !/outbox_|workflow_run|workflow_lease/.test(text);

export async function queriesDuring(fn: () => Promise<void>, only: (text: string) => boolean = () => true): Promise<number> {
  const original = pg.Client.prototype.query;
  let sent = 0;
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const text = typeof args[0] === 'string' ? args[0] : String((args[0] as { text?: string } | undefined)?.text ?? '');
    if (only(text)) sent++;
    return (original as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof original;
  try {
    await fn();
  } finally {
    pg.Client.prototype.query = original;
  }
  return sent;
}
