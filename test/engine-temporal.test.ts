import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { exec, sql } from '../src/db/sql.js';
import { systemClock } from '../src/lib/clock.js';
import { RunNotFoundError } from '../workflows/engine/errors.js';
import { TemporalEngine } from '../workflows/engine/temporal-client.js';
import { buildActivities } from '../workflows/processes/activities.js';
import { processes } from '../workflows/processes/registry.js';
import { HEARTBEAT_TIMEOUT_MS } from '../workflows/temporal/definitions.js';
import { heartbeating } from '../workflows/temporal/heartbeat.js';
import { call } from './support/http.js';
import { stopProcess, type Proc } from './support/processes.js';
import { seedApp, startTestServer, TEST_SECRET_KEY, testConfig } from './support/server.js';
import { serverApi, staffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { makeTestCertificate, startReceiver } from './support/https-receiver.js';
import type { ServerResponse } from 'node:http';
import { pingActivities } from './fixtures/ping/activities.js';
import { pingProcesses, type PingProcesses } from './fixtures/ping/registry.js';

// The durable processes on a real Temporal server: a worker in this process on a task queue of
// its own, running the tests' workflows module (the service's workflow loop over the ping), and
// the service's Temporal engine asking. CI starts a Temporal dev server (`.ci/run`); elsewhere
// this suite runs only where TEMPORAL_ADDRESS names one, and says so when it cannot.

Runtime.install({ logger: new DefaultLogger('WARN') }); // the workers' INFO lines say nothing a test needs

const address = process.env.TEMPORAL_ADDRESS;
const namespace = process.env.TEMPORAL_NAMESPACE || 'default';
if (!address) {
  console.warn(
    '\n*** SKIPPED test/engine-temporal.test.ts: TEMPORAL_ADDRESS is not set, so NO durable process was run on Temporal. ' +
      'Point TEMPORAL_ADDRESS (and TEMPORAL_NAMESPACE) at a Temporal server to run this suite. ***\n',
  );
}

describe.skipIf(!address)('durable processes on a Temporal server', () => {
  const taskQueue = `crm-test-${randomUUID()}`;
  let connection: NativeConnection;
  let worker: Worker;
  let running: Promise<void>;
  let engine: TemporalEngine<PingProcesses>;

  beforeAll(async () => {
    connection = await NativeConnection.connect({ address });
    worker = await Worker.create({
      connection,
      namespace,
      taskQueue,
      workflowBundle: await bundleWorkflowCode({ workflowsPath: fileURLToPath(new URL('./fixtures/ping/workflows.ts', import.meta.url)) }),
      activities: pingActivities({ clock: systemClock }),
    });
    running = worker.run();
    engine = new TemporalEngine({ temporalAddress: address, temporalNamespace: namespace, temporalTaskQueue: taskQueue }, pingProcesses);
  });

  afterAll(async () => {
    worker?.shutdown();
    await running;
    await engine?.close();
    await connection?.close();
  });

  const settled = (runId: string, state: string) =>
    vi.waitFor(
      async () => {
        const run = await engine.describe(runId);
        expect(run?.state).toBe(state);
        return run!;
      },
      { timeout: 15_000, interval: 200 },
    );

  it('runs a ping to its end on a signal, as one run however often it is started', async () => {
    const runId = `ping-${randomUUID()}`;
    await engine.start('ping', runId, { to: 'temporal', replyWithinMs: 60_000 });
    expect(await engine.start('ping', runId, { to: 'again', replyWithinMs: 1 })).toBe(runId);
    expect(await settled(runId, 'waiting')).toMatchObject({ process: 'ping', wakeAt: expect.any(Date) });
    await engine.signal(runId, 'pong', 'hi');
    expect(await settled(runId, 'ended')).toMatchObject({
      outcome: { answered: true, reminded: false, pong: 'hi' },
      endedAt: expect.any(Date),
    });
    await expect(engine.signal(runId, 'pong', 'late')).rejects.toBeInstanceOf(RunNotFoundError);
  });

  it('fires the durable timer, reminds, parks, and ends on the signal', async () => {
    const runId = `ping-${randomUUID()}`;
    await engine.start('ping', runId, { to: 'temporal', replyWithinMs: 1_000 });
    expect(await settled(runId, 'parked')).toMatchObject({ wakeAt: null });
    await engine.signal(runId, 'pong', 'late');
    expect(await settled(runId, 'ended')).toMatchObject({ outcome: { answered: true, reminded: true, pong: 'late' } });
  });

  it('hands decide a cancel, and knows nothing of runs it never had', async () => {
    const runId = `ping-${randomUUID()}`;
    await engine.start('ping', runId, { to: 'temporal', replyWithinMs: 60_000 });
    await settled(runId, 'waiting');
    await engine.cancel(runId);
    expect(await settled(runId, 'ended')).toMatchObject({ outcome: { answered: false, cancelled: true } });
    await engine.cancel(runId);
    expect(await engine.describe(`never-${randomUUID()}`)).toBeNull();
    await expect(engine.cancel(`never-${randomUUID()}`)).rejects.toBeInstanceOf(RunNotFoundError);
  });
});

describe.skipIf(!address)('a worker killed in the middle of an activity', () => {
  it('leaves the activity to another worker, which takes it up once the heartbeat stops and finishes the run', async () => {
    // The service's erase on its own task queue: the first worker is `npm run worker`'s process.
    const taskQueue = `crm-crash-${randomUUID()}`;
    const t = await startTestServer({ startProcesses: false });
    const engine = new TemporalEngine({ temporalAddress: address, temporalNamespace: namespace, temporalTaskQueue: taskQueue }, processes);
    const connection = await Connection.connect({ address });
    const client = new Client({ connection, namespace });
    let first: Proc | undefined;
    let second: Worker | undefined;
    let secondRunning: Promise<void> | undefined;
    let release = () => {};
    try {
      const app = await seedApp(t.svc);
      const as = { headers: { Authorization: `Bearer ${app.live.server_key}` } };
      expect((await call(t.url, 'PUT', '/server/v1/contacts/kim', { ...as, json: { display_name: 'Kim' } })).status).toBe(200);
      expect((await call(t.url, 'DELETE', '/server/v1/contacts/kim', as)).status).toBe(202);
      const request = await t.svc.db.eraseRequest.findFirstOrThrow({ where: { externalId: 'kim' } });

      // The erase step's last write waits while this transaction holds the request's row: the
      // first worker is caught in the middle of its step.
      const held = new Promise<void>((resolve) => (release = resolve));
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => (locked = resolve));
      const holding = t.svc.db.$transaction(
        async (db) => {
          await exec({ ...t.ctx, db }, sql`SELECT id FROM erase_request WHERE id = ${request.id} FOR UPDATE`);
          locked();
          await held;
        },
        { timeout: 120_000 },
      );
      await isLocked;

      const child = spawn(process.execPath, ['dist/workflows/temporal/worker.js'], {
        cwd: fileURLToPath(new URL('..', import.meta.url)),
        env: {
          ...process.env,
          DATABASE_URL: t.dbUrl,
          CRM_SECRET_KEY: TEST_SECRET_KEY,
          TEMPORAL_ADDRESS: address,
          TEMPORAL_NAMESPACE: namespace,
          TEMPORAL_TASK_QUEUE: taskQueue,
          LOG_LEVEL: 'silent',
          BASE_URL: 'http://127.0.0.1', // vitest sets its own ('/') in the environment children inherit
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      first = { url: '', child, output: [] };
      child.stdout!.on('data', (chunk) => first!.output.push(String(chunk)));
      child.stderr!.on('data', (chunk) => first!.output.push(String(chunk)));

      await engine.start('erase', request.id, { requestId: request.id });
      const handle = client.workflow.getHandle(request.id);
      const firstIdentity = await vi.waitFor(
        async () => {
          expect(child.exitCode, first!.output.join('')).toBeNull();
          const [pending] = (await handle.describe()).raw.pendingActivities ?? [];
          expect(pending).toMatchObject({ activityType: { name: 'eraseContactData' }, state: 2 /* STARTED */, attempt: 1 });
          return pending!.lastWorkerIdentity!;
        },
        { timeout: 90_000, interval: 200 },
      );

      await stopProcess(first, 'SIGKILL');
      const killedAt = Date.now();
      release();
      await holding;

      second = await Worker.create({
        connection: await NativeConnection.connect({ address }),
        namespace,
        taskQueue,
        workflowBundle: { codePath: inject('temporalBundle') },
        activities: buildActivities(t.svc),
        interceptors: { activity: [heartbeating] },
        identity: 'second-worker',
      });
      secondRunning = second.run();

      expect(await handle.result()).toMatchObject({ erased: true });
      const tookMs = Date.now() - killedAt;
      // The step was taken up after the heartbeat timeout, not its 5-minute start-to-close timeout.
      expect(tookMs).toBeGreaterThan(HEARTBEAT_TIMEOUT_MS - 2_000);
      expect(tookMs).toBeLessThan(30_000);
      const { events } = await handle.fetchHistory();
      const started = events!.filter((e) => e.activityTaskStartedEventAttributes).map((e) => e.activityTaskStartedEventAttributes!);
      expect(started.map((a) => [a.identity, a.attempt])).toEqual([
        ['second-worker', 2], // eraseContactData, its first attempt lost with the killed worker
        ['second-worker', 1], // finishErase
      ]);
      expect(firstIdentity).not.toBe('second-worker');
      expect(await t.svc.db.eraseRequest.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({ state: 'done' });
      expect(await t.svc.db.contact.count({ where: { externalId: 'kim' } })).toBe(0);
      console.log(`a killed worker's erase step was taken up and the run finished ${(tookMs / 1000).toFixed(1)} s after the kill`);
    } finally {
      release();
      await stopProcess(first, 'SIGKILL');
      second?.shutdown();
      await secondRunning;
      await connection.close();
      await engine.close();
      await t.close();
    }
  }, 150_000);
});

describe.skipIf(!address)("a tenant's slow receivers on Temporal", () => {
  it("hold at most half of a worker's activity slots, so another tenant's delivery goes out within 2 s", async () => {
    // Tenant A: 4 endpoints at a receiver that never answers, 10 contacts (40 posts of 10 s each)
    // against a worker of 16 slots. A may hold 8 (half) and 4 per endpoint; the rest wait their turn.
    const cert = await makeTestCertificate();
    const hanging: ServerResponse[] = [];
    let inFlight = 0;
    let mostInFlight = 0;
    const receiver = await startReceiver(cert, {
      handler: (got, res) => {
        if (!got.path.startsWith('/slow')) return void res.end('{}');
        hanging.push(res);
        mostInFlight = Math.max(mostInFlight, ++inFlight);
        res.on('close', () => inFlight--);
      },
    });
    const t = await startTestServer({
      engine: 'temporal',
      activitySlots: 16,
      config: testConfig({ outboundTestTrust: { allow: [receiver.hostPort], ca: cert.cert } }),
    });
    try {
      const [a, b] = [await staffApp(t), await staffApp(t)];
      const add = (app: typeof a, path: string) =>
        staffApi(
          () => t.url,
          () => app.owner,
        ).ok('mutation($m: ID!, $u: String!) { addWebhookEndpoint(appModeId: $m, url: $u, topics: ["contact.created"]) { secret } }', {
          m: app.modes.live,
          u: `${receiver.origin}/${path}`,
        });
      for (let i = 0; i < 4; i++) await add(a, `slow-${i}`);
      await add(b, 'quick');
      const api = serverApi(t, a.live.server_key);
      for (let i = 0; i < 10; i++) await api.identify(`flood-${i}`, {});
      await expect.poll(() => inFlight, { timeout: 30_000 }).toBeGreaterThanOrEqual(8);
      await new Promise((resolve) => setTimeout(resolve, 1_500)); // the flood takes what it may of the slots

      const asked = Date.now();
      await serverApi(t, b.live.server_key).identify('b-person', {});
      await expect.poll(() => receiver.received.some((r) => r.path === '/quick'), { timeout: 15_000, interval: 20 }).toBe(true);
      const tookMs = Date.now() - asked;
      console.log(`tenant B's delivery went out ${tookMs} ms after its Identify, with tenant A's 8 posts hanging`);
      expect(tookMs).toBeLessThan(2_000);
      expect(mostInFlight).toBe(8);
    } finally {
      for (const res of hanging) res.destroy();
      await t.close();
      await receiver.close();
    }
  }, 90_000);
});
