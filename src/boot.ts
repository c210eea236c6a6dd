import type { Config } from './config.js';
import { locateDatabase, type DatabaseLocation } from './db/connect.js';
import { applyMigrations } from './db/migrations.js';
import type { Clock } from './lib/clock.js';
import { resolveSecretKey } from './lib/secret-key.js';
import { openServices, type OpenServices } from './services.js';

/** What the server and the CLI share: the database found (or started), migrated, and the services on it. */
export async function boot(
  config: Config,
  opts: { listen?: boolean; clock?: Clock } = {},
): Promise<{ location: DatabaseLocation; svc: OpenServices; applied: string[] }> {
  const location = await locateDatabase(config);
  try {
    const applied = await applyMigrations(location.url);
    const svc = await openServices({
      config,
      url: location.url,
      secretKey: await resolveSecretKey(config),
      clock: opts.clock,
      listen: opts.listen,
    });
    return { location, svc, applied };
  } catch (err) {
    await location.embedded?.stop();
    throw err;
  }
}
