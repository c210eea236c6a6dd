import pg from 'pg';
import type { Config } from '../config.js';
import { CredentialCache } from '../domain/access/credential-cache.js';
import type { Services } from '../domain/services.js';
import { systemClock } from '../lib/clock.js';
import { SecretBox } from '../lib/secrets.js';

// What a `crm` command runs on: the database through pg alone, and none of what a server process
// keeps (Prisma's client, the outbox dispatcher, mail, blobs, caches). Each command needs one to a
// few statements, and the domain functions it calls are raw SQL (src/db/sql.ts): loading Prisma's
// client and its query compiler cost most of a command's time. A member it lacks says so when used.

export interface CliServices extends Services {
  close(): Promise<void>;
}

/** A stand-in for a member a command must not use: naming it is a mistake, said at once. */
function absent<T extends object>(member: string): T {
  return new Proxy({} as T, {
    get(_, name) {
      if (typeof name === 'symbol' || name === 'then') return undefined;
      throw new Error(
        `a crm command has no ${member}: ${member}.${name} was used (make the domain function raw SQL, or open the full services)`,
      );
    },
  });
}

export function openCliServices(opts: { config: Config; url: string; secretKey: string }): CliServices {
  const pool = new pg.Pool({ connectionString: opts.url, max: 2 });
  pool.on('error', () => {}); // an idle client lost: the pool replaces it
  return {
    db: absent('Prisma client'),
    pool,
    clock: systemClock,
    secrets: new SecretBox(opts.secretKey),
    outbox: absent('outbox'),
    config: opts.config,
    // Not attached to change notices: it keeps nothing, every read goes to the database.
    credentials: new CredentialCache(),
    mail: absent('mail'),
    blobs: absent('blob store'),
    caches: absent('caches'),
    async close() {
      await pool.end().catch(() => {});
    },
  };
}
