import type { Config } from './config.js';
import type { DatabaseLocation } from './db/connect.js';
import { createDurableEngine } from '../workflows/engine/engine.js';
import { buildActivities } from '../workflows/processes/activities.js';
import { processes } from '../workflows/processes/registry.js';
import { PROCESS_STARTS, startProcesses } from '../workflows/processes/starts.js';
import { boot } from './boot.js';
import { seedDemo } from './demo.js';
import { buildStaffSchema } from './graphql/schema.js';
import type { Logger } from './lib/logger.js';
import { startServer } from './server.js';
import { openServiceDatabase } from './services.js';

const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return Math.round((user + system) / 1000);
};

/**
 * The server of `npm start` (src/main.ts), on the database `located` is finding or starting, whose
 * address (`url`) is already known: what can be made before it accepts connections is made first.
 */
export async function serve(config: Config, log: Logger, url: string, located: Promise<DatabaseLocation>): Promise<void> {
  // Each step's end, in ms since the process began and CPU ms spent (LOG_LEVEL=debug): where a start's time goes.
  const step = (name: string) => log.debug({ step: name, ms: Math.round(performance.now()), cpu_ms: cpuMs() }, 'starting');
  step('modules loaded');
  const database = openServiceDatabase(config, url);
  // Prisma's query compiler (wasm: a few hundred ms of CPU, once a process) and the staff GraphQL
  // schema are made while the database starts. A failure here is heard again at the first query.
  const warm = database.prisma.$connect().catch(() => {});
  buildStaffSchema();
  step('graphql schema built');
  await warm;
  step('prisma client ready');
  const { location, svc, applied } = await boot(config, { listen: true, located, database });
  step('database ready, migrated, services open');
  if (applied.length) log.info({ migrations: applied }, 'applied migrations');
  if (location.embedded) {
    const banner = await seedDemo(svc, config.baseUrl);
    if (banner) process.stdout.write(`${banner}\n`);
    step('demo checked');
  }
  const engine = await createDurableEngine(svc, processes, buildActivities(svc));
  svc.outbox.consume(PROCESS_STARTS, startProcesses(engine, svc));
  step('engine started');
  const server = await startServer(svc, log, { port: config.port, host: config.host, demoSite: Boolean(location.embedded) });
  step('listening');
  log.info(
    {
      port: server.port,
      base_url: config.baseUrl,
      console: `${config.baseUrl}/console/`,
      database: location.embedded ? location.embedded.files : 'DATABASE_URL',
    },
    'serving',
  );
  log.info(
    { mail: svc.mail.via, to: svc.mail.describe },
    svc.mail.via === 'kept' ? 'no SMTP_URL: outgoing mail is kept in the database, not sent' : 'outgoing mail goes out by SMTP',
  );
  if (config.outboundTestTrust)
    log.warn(
      { allow: config.outboundTestTrust.allow },
      'OUTBOUND_TEST_TRUST is set: outbound posts may reach these private targets (tests only, never in production)',
    );

  // In this order: the HTTP server drains (src/http/drain.ts) and returns once no request is left
  // running, then the durable processes stop, and only then the database pool closes: nothing in
  // flight meets a closed pool.
  let stopping = false;
  async function shutdown(signal: string) {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    try {
      await server.close();
      await engine.close();
      await svc.close();
      await location.embedded?.stop();
    } catch (err) {
      // One line, no stack: the process is going anyway.
      log.error({ reason: err instanceof Error ? err.message : String(err) }, 'shutting down: a step failed');
      process.exit(1);
    }
    log.info({ signal }, 'stopped');
    process.exit(0);
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}
