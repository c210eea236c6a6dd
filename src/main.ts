import { createDurableEngine } from '../workflows/engine/engine.js';
import { buildActivities } from '../workflows/processes/activities.js';
import { processes } from '../workflows/processes/registry.js';
import { PROCESS_STARTS, startProcesses } from '../workflows/processes/starts.js';
import { boot } from './boot.js';
import { readConfig } from './config.js';
import { seedDemo } from './demo.js';
import { createLogger } from './lib/logger.js';
import { startServer } from './server.js';

const config = readConfig();
const log = createLogger(config.logLevel);
const { location, svc, applied } = await boot(config, { listen: true });
if (applied.length) log.info({ migrations: applied }, 'applied migrations');
if (location.embedded) {
  const banner = await seedDemo(svc, config.baseUrl);
  if (banner) process.stdout.write(`${banner}\n`);
}
const engine = await createDurableEngine(svc, processes, buildActivities(svc));
svc.outbox.consume(PROCESS_STARTS, startProcesses(engine, svc));
const server = await startServer(svc, log, { port: config.port, host: config.host });
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
