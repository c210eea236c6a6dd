import { systemContext, type Ctx, type SystemCaller } from '../../src/domain/context.js';
import { randomBytes } from 'node:crypto';
import { readConfig, type Config } from '../../src/config.js';
import { createApp, type CreatedApp } from '../../src/domain/apps/create-app.js';
import { createWorkspace } from '../../src/domain/staff/workspaces.js';
import { ManualClock } from '../../src/lib/clock.js';
import { createLogger, type Logger } from '../../src/lib/logger.js';
import { startServer } from '../../src/server.js';
import { EmbeddedEngine } from '../../workflows/engine/embedded.js';
import { buildActivities } from '../../workflows/processes/activities.js';
import { processes, type Processes } from '../../workflows/processes/registry.js';
import { PROCESS_STARTS, startProcesses } from '../../workflows/processes/starts.js';
import { openServices, type OpenServices } from '../../src/services.js';
import { createTestDatabase } from './db.js';

export interface TestServer {
  url: string;
  svc: OpenServices;
  /** The service's own context on this server's database (an operator's): for setting things up. */
  ctx: Ctx<SystemCaller>;
  clock: ManualClock;
  dbUrl: string;
  engine: EmbeddedEngine<Processes>;
  close(): Promise<void>;
}

export const TEST_SECRET_KEY = Buffer.alloc(32, 7).toString('base64');

export function testConfig(overrides: Partial<Config> = {}, limits: Partial<Config['limits']> = {}): Config {
  const base = readConfig({ LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv);
  return { ...base, secretKey: TEST_SECRET_KEY, ...overrides, limits: { ...base.limits, ...limits } };
}

/** The real server on a real database (a fresh one unless given), on a free port, with a clock the test moves. */
export async function startTestServer(
  opts: {
    dbUrl?: string;
    config?: Config;
    clock?: ManualClock;
    activities?: (svc: OpenServices) => ReturnType<typeof buildActivities>;
    log?: Logger;
    /** false: nothing here starts the processes the outbox asks for (a server that dies right after a commit). */
    startProcesses?: boolean;
    /** The port to listen on (any free one when left out): a test whose BASE_URL must be the server's own address. */
    port?: number;
  } = {},
): Promise<TestServer> {
  const dbUrl = opts.dbUrl ?? (await createTestDatabase());
  const config = opts.config ?? testConfig();
  const clock = opts.clock ?? new ManualClock();
  const svc = await openServices({ config, url: dbUrl, secretKey: TEST_SECRET_KEY, clock, listen: true });
  // The embedded engine, driven by the test (engine.runDue()) rather than a background loop. Its
  // runs are started from the outbox: runDue first hands on every row already committed.
  const engine = new EmbeddedEngine(svc, processes, (opts.activities ?? buildActivities)(svc));
  if (opts.startProcesses !== false) {
    svc.outbox.consume(PROCESS_STARTS, startProcesses(engine, svc));
    const runDue = engine.runDue.bind(engine);
    engine.runDue = async () => {
      await svc.outbox.drain();
      return runDue();
    };
  }
  // Closed at once, without the linger a kept-alive connection gets for a request on its way
  // (test/shutdown.test.ts shows it on a real process): every test file closes its server.
  const server = await startServer(svc, opts.log ?? createLogger('silent'), {
    port: opts.port ?? 0,
    host: '127.0.0.1',
    drain: { lingerMs: 0 },
  });
  return {
    url: server.url,
    svc,
    ctx: systemContext(svc, 'test'),
    clock,
    dbUrl,
    engine,
    async close() {
      await server.close();
      await engine.close();
      await svc.close();
    },
  };
}

export type SeededApp = CreatedApp & { ownerEmail: string; ownerPassword: string };

/** A workspace with an owner and one app; the app's credentials as shown once. */
export async function seedApp(svc: OpenServices, name = 'Test app'): Promise<SeededApp> {
  const ownerEmail = `owner-${randomBytes(4).toString('hex')}@example.com`;
  const ownerPassword = 'correct horse battery staple';
  const ctx = systemContext(svc, 'test');
  const { workspaceId } = await createWorkspace(ctx, { name: `${name} workspace`, ownerEmail, ownerPassword });
  return { ...(await createApp(ctx, { workspaceId, name })), ownerEmail, ownerPassword };
}

/** A test server on a fresh database with one seeded app: `({ t, app } = await startWithApp())`. */
export async function startWithApp(name?: string): Promise<{ t: TestServer; app: SeededApp }> {
  const t = await startTestServer();
  return { t, app: await seedApp(t.svc, name) };
}
