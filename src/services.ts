import pg from 'pg';
import type { Config } from './config.js';
import { openDatabase, type Database } from './db/client.js';
import { OutboxDispatcher } from './db/outbox-dispatcher.js';
import { rows } from './db/sql.js';
import { CredentialCache } from './domain/access/credential-cache.js';
import { Presence } from './domain/inbox/presence.js';
import { GuestEventGroups } from './domain/events/guest-events.js';
import { ConversationWaits } from './domain/conversations/waits.js';
import { HelpSearchShares, SEARCH_TIMEOUT_MS } from './domain/help/share.js';
import { ViewCounts } from './domain/help/views.js';
import { LiveMessages } from './domain/inapp/live-messages.js';
import type { Caches, Services } from './domain/services.js';
import { openMailTransport } from './domain/mail/open.js';
import type { MailTransport } from './domain/mail/transport.js';
import { openBlobStore } from './lib/blobs/open.js';
import { systemClock, type Clock } from './lib/clock.js';
import { createLogger, type Logger } from './lib/logger.js';
import { SecretBox } from './lib/secrets.js';

/** The services as the process holds them: the concrete outbox dispatcher, credential cache and mail transport behind the domain's interfaces. */
export interface OpenServices extends Services {
  outbox: OutboxDispatcher;
  credentials: CredentialCache;
  mail: MailTransport;
  database: Database;
  close(): Promise<void>;
}

/**
 * The services' pools and Prisma client on `url`, connecting to nothing yet: the server opens it
 * while the embedded PostgreSQL starts, and warms Prisma's query compiler meanwhile.
 */
export function openServiceDatabase(config: Config, url: string): Database {
  const searchPoolSize = HelpSearchShares.poolSize(config.databasePoolSize);
  return openDatabase(url, config.databasePoolSize, { max: searchPoolSize, statementTimeoutMs: SEARCH_TIMEOUT_MS });
}

/**
 * The resolvers' dependencies on one database. `listen` starts reading the outbox (other processes'
 * changes too). `database`: one openServiceDatabase made on the same url, used instead of a new one.
 */
export async function openServices(opts: {
  config: Config;
  url: string;
  secretKey: string;
  clock?: Clock;
  listen?: boolean;
  log?: Logger;
  mail?: MailTransport;
  database?: Database;
}): Promise<OpenServices> {
  // First: a bad SMTP_URL or MAIL_FROM stops the start before anything connects.
  const mail = opts.mail ?? openMailTransport(opts.config);
  const searchPoolSize = HelpSearchShares.poolSize(opts.config.databasePoolSize);
  const database = opts.database ?? openServiceDatabase(opts.config, opts.url);
  const log = opts.log ?? createLogger(opts.config.logLevel);
  const outbox = new OutboxDispatcher(database.pool, opts.url, (err) => log.error({ err }, 'outbox pass failed'));
  // A connection cut while in use can report its error again after its user let go of it (seen when
  // every backend is terminated under load): that late report must not end the process. Whoever
  // uses the connection still hears of it, and the pool drops it.
  const onConnect = database.pool.options.onConnect;
  database.pool.options.onConnect = async (client) => {
    client.on('error', () => {});
    await onConnect?.(client);
  };
  // Connections kept for the long polls' reads: a change wakes its waits through one statement here,
  // never queued behind the writes that hold the main pool.
  const waitReads = new pg.Pool({ connectionString: opts.url, max: 2, idleTimeoutMillis: 30_000 });
  waitReads.on('error', () => {});
  const secrets = new SecretBox(opts.secretKey);
  const clock = opts.clock ?? systemClock;
  const blobs = await openBlobStore(opts.config.blobs, {
    query: (text, values) => rows({ pool: database.pool }, { text, values }),
    sign: (text) => secrets.keyedHash('blob-address', text),
    now: () => clock.now(),
    baseUrl: opts.config.baseUrl,
  });
  const credentials = new CredentialCache();
  // Before anything connects: credentials are kept only while their change notices are heard.
  if (opts.listen) credentials.attach(outbox, database.pool);
  // What this process keeps in memory, one member per area that keeps something (Caches in
  // src/domain/services.ts): built here, once, and reached by the domain through ctx.svc.caches.
  const caches: Caches = {
    // Conversation long polls are woken on the same LISTEN connection.
    conversationWaits: new ConversationWaits(outbox, waitReads),
    // So are the compiled live in-app messages, dropped when staff change one.
    liveMessages: new LiveMessages(outbox),
    // And who views a conversation in the staff console.
    presence: new Presence(outbox, clock),
    eventDefinitions: new Map(),
    subjectHashes: new Map(),
    rateChunks: new Map(),
    helpViews: new ViewCounts({ pool: database.pool }),
    helpSearches: HelpSearchShares.over(database.searchPool, searchPoolSize),
    checkinsInFlight: new Map(),
    guestEventGroups: new GuestEventGroups(database.pool),
  };
  if (opts.listen) await outbox.start();
  return {
    db: database.prisma,
    pool: database.pool,
    clock,
    secrets,
    outbox,
    config: opts.config,
    credentials,
    mail,
    blobs,
    caches,
    database,
    async close() {
      await outbox.close();
      await mail.close();
      blobs.close();
      await database.close();
      await waitReads.end().catch(() => {});
    },
  };
}
