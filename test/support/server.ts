import { systemContext, type Ctx, type SystemCaller } from '../../src/domain/context.js';
import { randomBytes, randomUUID, scryptSync } from 'node:crypto';
import { inject } from 'vitest';
import { readConfig, type Config } from '../../src/config.js';
import { createApp, type CreatedApp } from '../../src/domain/apps/create-app.js';
import { insertWorkspaceWithOwner } from '../../src/domain/staff/workspaces.js';
import { ManualClock } from '../../src/lib/clock.js';
import { createLogger, type Logger } from '../../src/lib/logger.js';
import { startServer } from '../../src/server.js';
import { EmbeddedEngine } from '../../workflows/engine/embedded.js';
import { TemporalEngine } from '../../workflows/engine/temporal-client.js';
import { ACTIVITY_SLOTS } from '../../workflows/temporal/definitions.js';
import { activitySlots } from '../../workflows/temporal/activity-slots.js';
import { heartbeating } from '../../workflows/temporal/heartbeat.js';
import type { ProcessRef, ProcessStarter, RunDescription } from '../../workflows/engine/types.js';
import { buildActivities } from '../../workflows/processes/activities.js';
import { processes, type Processes } from '../../workflows/processes/registry.js';
import { PROCESS_STARTS, startProcesses, type ProcessSteerer } from '../../workflows/processes/starts.js';
import { openServices, type OpenServices } from '../../src/services.js';
import { freePort } from '../../bench/processes.js';
import { createTestDatabase } from './db.js';

/** Which engine runs a test server's durable processes. */
export type EngineName = 'embedded' | 'temporal';

/** The Temporal server the Temporal half of the process tests runs on (CI starts one); unset, that half is skipped. */
export const TEMPORAL_ADDRESS = process.env.TEMPORAL_ADDRESS || undefined;
const TEMPORAL_NAMESPACE = process.env.TEMPORAL_NAMESPACE || 'default';

/**
 * The engines a process's behaviour tests run on, for `describe.each(ENGINES)`: both, the Temporal
 * one skipped (and saying so) where TEMPORAL_ADDRESS names no server.
 */
export const ENGINES = [
  { engine: 'embedded' as EngineName, skip: false },
  { engine: 'temporal' as EngineName, skip: !TEMPORAL_ADDRESS },
] as const;

/** Once per file: a line saying the Temporal half of these tests did not run, and why. */
export function sayIfTemporalSkipped(file: string): void {
  if (TEMPORAL_ADDRESS) return;
  console.warn(
    `\n*** SKIPPED the Temporal half of ${file}: TEMPORAL_ADDRESS is not set, so these processes ran on the embedded engine only. ` +
      'Point TEMPORAL_ADDRESS (and TEMPORAL_NAMESPACE) at a Temporal server to run them on Temporal too. ***\n',
  );
}

/** A test server's engine, as the tests drive it, whichever it is. */
export interface TestEngine {
  readonly name: EngineName;
  /**
   * Lets the processes do what is due by the server's clock, and answers when they have (a number
   * above 0 when something was done). Embedded: the engine's own runDue. Temporal: hands the
   * outbox's starts on, tells each of this server's runs the clock's time (their due timers fire),
   * and waits until every one has ended or waits for a time or a signal.
   */
  runDue(): Promise<number>;
  describe(runId: string): Promise<RunDescription | null>;
  /** How many runs of the process have the id. */
  runs(process: ProcessRef, runId: string): Promise<number>;
  /** Temporal: the task queue its worker serves, and the runs it follows (for a server taking over from it). */
  readonly taskQueue?: string;
  following(): string[];
  close(): Promise<void>;
}

export interface TestServer {
  url: string;
  svc: OpenServices;
  /** The service's own context on this server's database (an operator's): for setting things up. */
  ctx: Ctx<SystemCaller>;
  clock: ManualClock;
  dbUrl: string;
  engine: TestEngine;
  close(): Promise<void>;
  /**
   * Stops as a killed server does, mid-work: its HTTP server and its database connections closed at
   * once, its engine taking nothing more; an activity in hand is left where it is (were it to end,
   * nothing of it could be saved). close() afterwards waits for what was left and closes the rest.
   */
  kill(): Promise<void>;
}

export const TEST_SECRET_KEY = Buffer.alloc(32, 7).toString('base64');

export function testConfig(overrides: Partial<Config> = {}, limits: Partial<Config['limits']> = {}): Config {
  const base = readConfig({ LOG_LEVEL: 'silent' } as NodeJS.ProcessEnv);
  return { ...base, secretKey: TEST_SECRET_KEY, ...overrides, limits: { ...base.limits, ...limits } };
}

/**
 * A test server whose BASE_URL is its own address, for the browser tests: the addresses the service
 * writes into its answers (uploads, pictures, downloads) reach it from the page.
 */
export async function startAddressedServer(): Promise<TestServer> {
  const port = await freePort();
  return startTestServer({ port, config: testConfig({ baseUrl: `http://127.0.0.1:${port}` }) });
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
    /** The engine that runs the processes (embedded unless told): temporal needs TEMPORAL_ADDRESS. */
    engine?: EngineName;
    /** Temporal: the worker's activity slots (the service's worker has ACTIVITY_SLOTS). */
    activitySlots?: number;
    /**
     * Temporal: the worker's task queue (a new one unless told) and the runs to follow from the start
     * (a server taking over from another on the same database: `takeOver(server)` gives both).
     */
    taskQueue?: string;
    following?: string[];
    /** Temporal: false, its activities do not beat while they run, as a killed worker's look to the Temporal server. */
    heartbeats?: boolean;
    /** The address to listen on (127.0.0.1 unless told). */
    host?: string;
    /** The demo site at /demo/ (npm start's, on the embedded PostgreSQL). */
    demoSite?: boolean;
  } = {},
): Promise<TestServer> {
  const dbUrl = opts.dbUrl ?? (await createTestDatabase());
  const config = opts.config ?? testConfig();
  const clock = opts.clock ?? new ManualClock();
  const svc = await openServices({ config, url: dbUrl, secretKey: TEST_SECRET_KEY, clock, listen: true });
  const activities = (opts.activities ?? buildActivities)(svc);
  const engine =
    opts.engine === 'temporal'
      ? await temporalTestEngine(svc, clock, activities, opts.startProcesses !== false, {
          slots: opts.activitySlots ?? ACTIVITY_SLOTS,
          taskQueue: opts.taskQueue ?? `crm-test-${randomUUID()}`,
          following: opts.following ?? [],
          heartbeats: opts.heartbeats !== false,
        })
      : embeddedTestEngine(svc, activities, opts.startProcesses !== false);
  // Closed at once, without the linger a kept-alive connection gets for a request on its way
  // (test/shutdown.test.ts shows it on a real process): every test file closes its server.
  let killed: Promise<void> | undefined;
  const server = await startServer(svc, opts.log ?? createLogger('silent'), {
    port: opts.port ?? 0,
    host: opts.host ?? '127.0.0.1',
    drain: { lingerMs: 0 },
    demoSite: opts.demoSite,
  });
  return {
    url: server.url,
    svc,
    ctx: systemContext(svc, 'test'),
    clock,
    dbUrl,
    engine,
    async close() {
      if (killed) return killed;
      await server.close();
      await engine.close();
      await svc.close();
    },
    async kill() {
      // The database first: nothing this server has in hand is saved after the kill.
      await svc.close();
      await server.close();
      killed = engine.close().catch(() => {});
    },
  };
}

/**
 * The options for a server that takes over from `from` (stopped or killed) on its database: the same
 * database, clock and engine, and on Temporal the same task queue and the runs it followed.
 */
export function takeOver(
  from: TestServer,
): Pick<Parameters<typeof startTestServer>[0] & {}, 'dbUrl' | 'clock' | 'engine' | 'taskQueue' | 'following'> {
  return {
    dbUrl: from.dbUrl,
    clock: from.clock,
    engine: from.engine.name,
    ...(from.engine.taskQueue && { taskQueue: from.engine.taskQueue }),
    following: from.engine.following(),
  };
}

/** The embedded engine, driven by the test (runDue) rather than a background loop. */
function embeddedTestEngine(svc: OpenServices, activities: ReturnType<typeof buildActivities>, starts: boolean): TestEngine {
  const engine = new EmbeddedEngine(svc, processes, activities);
  // Its runs are started from the outbox: runDue first hands on every row already committed.
  if (starts) svc.outbox.consume(PROCESS_STARTS, startProcesses(engine, svc));
  return {
    name: 'embedded',
    async runDue() {
      if (starts) await svc.outbox.drain();
      return engine.runDue();
    },
    describe: (runId) => engine.describe(runId),
    runs: (process, runId) =>
      svc.db.workflowRun.count({ where: { process: typeof process === 'string' ? process : process.name, id: runId } }),
    following: () => [], // every server on the database runs every run due
    close: () => engine.close(),
  };
}

let runtimeInstalled = false;

/** The service's worker's way of running activities; without heartbeats, as a killed worker's look to the Temporal server. */
function workerSlots(slots: number, heartbeats: boolean): ReturnType<typeof activitySlots> {
  const run = activitySlots(slots);
  if (heartbeats) return run;
  return { ...run, interceptors: { activity: run.interceptors!.activity!.filter((i) => i !== heartbeating) } };
}

/**
 * The service's Temporal engine on the Temporal server at TEMPORAL_ADDRESS, and a worker in this
 * process on a task queue of its own running the service's workflows bundle (built once for the
 * run, by the global setup) and this server's activities. The runs keep the test's clock
 * (TemporalEngine's clock): their timers fire when runDue tells them the clock has come to them.
 */
async function temporalTestEngine(
  svc: OpenServices,
  clock: ManualClock,
  activities: ReturnType<typeof buildActivities>,
  starts: boolean,
  { slots, taskQueue, following, heartbeats }: { slots: number; taskQueue: string; following: string[]; heartbeats: boolean },
): Promise<TestEngine> {
  const address = TEMPORAL_ADDRESS;
  if (!address) throw new Error('the temporal engine needs TEMPORAL_ADDRESS');
  const codePath = inject('temporalBundle');
  if (!codePath) throw new Error('no workflows bundle: the global setup builds it when TEMPORAL_ADDRESS is set');
  const { DefaultLogger, NativeConnection, Runtime, Worker } = await import('@temporalio/worker');
  if (!runtimeInstalled) {
    runtimeInstalled = true;
    // The worker's INFO lines say nothing a test needs. Another file in this process may have installed one.
    try {
      Runtime.install({ logger: new DefaultLogger('WARN') });
    } catch {
      /* installed already */
    }
  }
  const engine = new TemporalEngine(
    { temporalAddress: address, temporalNamespace: TEMPORAL_NAMESPACE, temporalTaskQueue: taskQueue },
    processes,
    clock,
  );
  const connection = await NativeConnection.connect({ address });
  const worker = await Worker.create({
    connection,
    namespace: TEMPORAL_NAMESPACE,
    taskQueue,
    workflowBundle: { codePath },
    activities,
    ...workerSlots(slots, heartbeats),
    shutdownGraceTime: '1s',
  });
  const running = worker.run();

  // This server's runs: the ones its outbox started (or another server's it took over), until they are seen ended.
  const open = new Set<string>(following);
  /** The clock's time each of them was last told: a run is told again only once the clock has moved. */
  const told = new Map<string, number>();
  const tracked: ProcessSteerer<Processes> = {
    start: async (process, runId, input) => {
      open.add(runId);
      told.set(runId, clock.now().getTime()); // a run starts on the clock's time (DurableArgs.clock)
      return engine.start(process, runId, input);
    },
    signal: (runId, name, payload) => engine.signal(runId, name, payload),
    cancel: (runId) => engine.cancel(runId),
  };
  if (starts) svc.outbox.consume(PROCESS_STARTS, startProcesses(tracked, svc));

  /** Until none of the runs is busy; answers how many made a step beyond hearing the time, or ended. */
  async function idle(before: Map<string, number>): Promise<number> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const ids = [...open];
      const seen = await Promise.all(ids.map(async (id) => [id, await engine.busy(id)] as const));
      if (seen.every(([, s]) => !s?.busy)) {
        let stepped = 0;
        for (const [id, s] of seen) {
          if (!s || s.ended || s.historyLength > (before.get(id) ?? 0)) stepped++;
          if (!s || s.ended) {
            open.delete(id);
            told.delete(id);
          }
        }
        return stepped;
      }
      if (Date.now() > deadline) throw new Error(`runs still busy after 60 s: ${seen.filter(([, s]) => s?.busy).map(([id]) => id)}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  return {
    name: 'temporal',
    taskQueue,
    following: () => [...open],
    async runDue() {
      let stepped = 0;
      for (;;) {
        const known = new Set(open);
        if (starts) await svc.outbox.drain();
        const before = new Map<string, number>();
        await Promise.all(
          [...open].map(async (id) => {
            const s = await engine.busy(id);
            const at = clock.now().getTime();
            const tell = s !== null && !s.ended && at > (told.get(id) ?? 0);
            // A run started now has stepped; hearing the time is 4 events (the signal, its workflow task scheduled, started, completed).
            before.set(id, known.has(id) ? (s?.historyLength ?? 0) + (tell ? 4 : 0) : -Infinity);
            if (tell && (await engine.tell(id))) told.set(id, at);
          }),
        );
        const now = await idle(before);
        stepped += now;
        // Its activities may have written rows that start more runs: once more, until a pass does nothing.
        if (now === 0 && [...open].every((id) => known.has(id))) return stepped;
      }
    },
    describe: (runId) => engine.describe(runId),
    // The count is read from Temporal's visibility store, which a new run reaches a moment after its start.
    async runs(process, runId) {
      for (let i = 0; ; i++) {
        const n = await engine.count(process, runId);
        if (n > 0 || i === 100) return n;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async close() {
      worker.shutdown();
      await running;
      await connection.close();
      await engine.close();
    },
  };
}

export type SeededApp = CreatedApp & { ownerEmail: string; ownerPassword: string };

/**
 * A password stored as a cheap scrypt (N=2^10 where the service hashes at 2^15): a stored hash names
 * its own parameters and a sign-in checks the password by them, so signing in with it is the real
 * check at a hundredth of the CPU (a 2^15 hash took half a second on the busy 2-core machine, and most
 * files seed an owner and sign in as it, some a dozen times). The service's own hashing is what the
 * sign-up tests, the crm tests and the members tests' invited people go through.
 */
export function cheapPasswordHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password.normalize('NFKC'), salt, 32, { N: 1024, r: 8, p: 1 });
  return `scrypt$1024$8$1$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

const SEEDED_PASSWORD = 'correct horse battery staple';
/** The seeded owners' password, hashed once per process. */
let seededHash: string | undefined;

/** A workspace with an owner and one app; the app's credentials as shown once. */
export async function seedApp(svc: OpenServices, name = 'Test app'): Promise<SeededApp> {
  const ownerEmail = `owner-${randomBytes(4).toString('hex')}@example.com`;
  const ctx = systemContext(svc, 'test');
  // As createWorkspace makes it (one statement: the workspace, its owner and the membership), the password hashed cheaply.
  const made = await insertWorkspaceWithOwner(ctx, {
    name: `${name} workspace`,
    email: ownerEmail,
    passwordHash: (seededHash ??= cheapPasswordHash(SEEDED_PASSWORD)),
  });
  if (!made) throw new Error(`seedApp: ${ownerEmail} is taken`);
  return { ...(await createApp(ctx, { workspaceId: made.workspaceId, name })), ownerEmail, ownerPassword: SEEDED_PASSWORD };
}

/** A test server on a fresh database with one seeded app: `({ t, app } = await startWithApp())`. */
export async function startWithApp(name?: string): Promise<{ t: TestServer; app: SeededApp }> {
  const t = await startTestServer();
  return { t, app: await seedApp(t.svc, name) };
}
