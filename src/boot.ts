import type { Config } from './config.js';
import type { Database } from './db/client.js';
import { locateDatabase, type DatabaseLocation } from './db/connect.js';
import { applyMigrations } from './db/migrations.js';
import type { Clock } from './lib/clock.js';
import { resolveSecretKey } from './lib/secret-key.js';
import type { OpenServices } from './services.js';

/**
 * What the server and the CLI share: the database found (or started), migrated, and the services on it.
 * The server passes the database it already began to locate (`located`) and the pools it opened on
 * its address meanwhile (`database`, from openServiceDatabase).
 */
export async function boot(
  config: Config,
  opts: { listen?: boolean; clock?: Clock; located?: Promise<DatabaseLocation>; database?: Database } = {},
): Promise<{ location: DatabaseLocation; svc: OpenServices; applied: string[] }> {
  // Loaded here, not above: `crm` boots through bootWith on services of its own, without this graph.
  const { openServices } = await import('./services.js');
  return bootWith(
    config,
    (url, secretKey) => openServices({ config, url, secretKey, clock: opts.clock, listen: opts.listen, database: opts.database }),
    opts.located,
  );
}

/** The database found (or started) and migrated, then `open` on it (the server's services, or a `crm` command's). */
export async function bootWith<S>(
  config: Config,
  open: (url: string, secretKey: string) => Promise<S> | S,
  located?: Promise<DatabaseLocation>,
): Promise<{ location: DatabaseLocation; svc: S; applied: string[] }> {
  const location = await (located ?? locateDatabase(config));
  try {
    const applied = await applyMigrations(location.url);
    const svc = await open(location.url, await resolveSecretKey(config));
    return { location, svc, applied };
  } catch (err) {
    await location.embedded?.stop();
    throw err;
  }
}
