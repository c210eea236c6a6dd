import type { Config } from './config.js';
import { openDatabase, type Database } from './db/client.js';
import { Notifier } from './db/notify.js';
import type { Services } from './domain/context.js';
import { systemClock, type Clock } from './lib/clock.js';
import { SecretBox } from './lib/secrets.js';

export interface OpenServices extends Services {
  database: Database;
  close(): Promise<void>;
}

/** The resolvers' dependencies on one database. `listen` starts hearing other processes' notices. */
export async function openServices(opts: { config: Config; url: string; secretKey: string; clock?: Clock; listen?: boolean }): Promise<OpenServices> {
  const database = openDatabase(opts.url, opts.config.databasePoolSize);
  const notifier = new Notifier(opts.url);
  if (opts.listen) await notifier.listen();
  return {
    db: database.prisma,
    pool: database.pool,
    clock: opts.clock ?? systemClock,
    secrets: new SecretBox(opts.secretKey),
    notifier,
    config: opts.config,
    database,
    async close() {
      await notifier.close();
      await database.close();
    },
  };
}
