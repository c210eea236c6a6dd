import path from 'node:path';
import type { Config } from '../config.js';
import type { EmbeddedPostgres } from './embedded-postgres.js';

export interface DatabaseLocation {
  url: string;
  /** A connection to the server's maintenance database (to create scratch databases). */
  adminUrl: string;
  embedded?: EmbeddedPostgres;
}

const EMBEDDED_DB = 'crm';

/**
 * DATABASE_URL when given; else the embedded PostgreSQL in the data folder, started or reused.
 * `starting` hears the database's address as soon as it is known, before the embedded server
 * accepts connections (nothing may connect to it until this resolves).
 */
export async function locateDatabase(
  config: Pick<Config, 'databaseUrl' | 'dataDir'>,
  opts: { starting?: (url: string) => void } = {},
): Promise<DatabaseLocation> {
  if (config.databaseUrl) {
    const admin = new URL(config.databaseUrl);
    admin.pathname = '/postgres';
    opts.starting?.(config.databaseUrl);
    return { url: config.databaseUrl, adminUrl: admin.toString() };
  }
  // Loaded only here: with DATABASE_URL (a `crm` command's usual case) the embedded server's code is not.
  const { startEmbeddedPostgres } = await import('./embedded-postgres.js');
  const embedded = await startEmbeddedPostgres(path.join(config.dataDir), {
    starting: (server) => opts.starting?.(server.urlFor(EMBEDDED_DB)),
  });
  const pg = await import('pg');
  const client = new pg.default.Client({ connectionString: embedded.adminUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [EMBEDDED_DB]);
    if (!found.rowCount) await client.query(`CREATE DATABASE ${EMBEDDED_DB}`);
  } finally {
    await client.end();
  }
  return { url: embedded.urlFor(EMBEDDED_DB), adminUrl: embedded.adminUrl, embedded };
}
