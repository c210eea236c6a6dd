import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode, NativeConnection, Worker } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { systemClock } from '../src/lib/clock.js';
import { RunNotFoundError } from '../workflows/engine/errors.js';
import { TemporalEngine } from '../workflows/engine/temporal-client.js';
import { pingActivities } from './fixtures/ping/activities.js';
import { pingProcesses, type PingProcesses } from './fixtures/ping/registry.js';

// The durable processes on a real Temporal server: a worker in this process on a task queue of
// its own, running the tests' workflows module (the service's workflow loop over the ping), and
// the service's Temporal engine asking. CI starts a Temporal dev server (`.ci/run`); elsewhere
// this suite runs only where TEMPORAL_ADDRESS names one, and says so when it cannot.

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
