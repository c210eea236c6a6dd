import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { locateDatabase, type DatabaseLocation } from './db/connect.js';
import { applyMigrations } from './db/migrations.js';
import type { Clock } from './lib/clock.js';
import { resolveSecretKey } from './lib/secret-key.js';
import { openServices, type OpenServices } from './services.js';

/**
 * What the server and the CLI share: the database found (or started), migrated, and the services on it.
 * The server passes the database it already began to locate (`located`) and the pools it opened on
 * its address meanwhile (`database`, from openServiceDatabase).
 */
export async function boot(
  config: Config,
  opts: { listen?: boolean; clock?: Clock; located?: Promise<DatabaseLocation>; database?: Database } = {},
): Promise<{ location: DatabaseLocation; svc: OpenServices; applied: string[] }> {
  const location = await (opts.located ?? locateDatabase(config));
  try {
    const applied = await applyMigrations(location.url);
    const svc = await openServices({
      config,
      url: location.url,
      secretKey: await resolveSecretKey(config),
      clock: opts.clock,
      listen: opts.listen,
      database: opts.database,
    });
    return { location, svc, applied };
  } catch (err) {
    await location.embedded?.stop();
    throw err;
  }
}
