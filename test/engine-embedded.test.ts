import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readConfig } from '../src/config.js';
import { ManualClock } from '../src/lib/clock.js';
import { openServices, type OpenServices } from '../src/services.js';
import type { Activities } from '../workflows/engine/activities.js';
import { EmbeddedEngine } from '../workflows/engine/embedded.js';
import { createDurableEngine } from '../workflows/engine/engine.js';
import { RunNotFoundError } from '../workflows/engine/errors.js';
import { ProcessRegistry } from '../workflows/engine/registry.js';
import { TemporalEngine } from '../workflows/engine/temporal-client.js';
import { pingActivities, type PingActivities } from './fixtures/ping/activities.js';
import { ping } from './fixtures/ping/decide.js';
// The tests' own registry (the ping alone): the service's holds only real processes.
import { pingProcesses as processes } from './fixtures/ping/registry.js';
import { createTestDatabase } from './support/db.js';
import { TEST_SECRET_KEY, testConfig } from './support/server.js';

// The embedded engine for real on PostgreSQL. The clock is a ManualClock the tests move and
// runDue() takes every due step, so nothing here sleeps; each Services object stands for one
// server process on the shared database.

let dbUrl: string;
const clock = new ManualClock(new Date('2026-01-01T00:00:00.000Z'));
const opened: OpenServices[] = [];

beforeAll(async () => {
  dbUrl = await createTestDatabase();
  // Sessions far from UTC: the engine's times must not depend on the server's time zone.
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  await client.query(
    `DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET timezone TO %L', current_database(), 'Pacific/Kiritimati'); END $$`,
  );
  await client.end();
});
afterAll(async () => {
  for (const svc of opened) await svc.close();
});

async function serverProcess(): Promise<OpenServices> {
  const svc = await openServices({ config: testConfig(), url: dbUrl, secretKey: TEST_SECRET_KEY, clock });
  opened.push(svc);
  return svc;
}

/** The ping's activities, counting calls by activity and by run (each run pings a `to` of its own). */
function counted(overrides: Partial<Activities> = {}) {
  const calls: { activity: string; to: string }[] = [];
  const base: Activities = { ...pingActivities({ clock }), ...overrides } as Activities;
  // Typed as the ping's own, as the engine asks: the wrappers pass the input through and answer what the activity answers.
  const activities = Object.fromEntries(
    Object.entries(base).map(([activity, fn]) => [
      activity,
      async (input: { to: string }) => {
        calls.push({ activity, to: input.to });
        return fn(input as never);
      },
    ]),
  ) as unknown as PingActivities;
  const count = (activity: string, to?: string) => calls.filter((c) => c.activity === activity && (to === undefined || c.to === to)).length;
  return { activities, calls, count };
}

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

const later = (ms: number) => new Date(clock.now().getTime() + ms);

describe('the embedded engine on PostgreSQL', () => {
  it('takes a run through activity, timer, reminder, parked signal and end, telling where it stands at each step', async () => {
    const { activities, count } = counted();
    const engine = new EmbeddedEngine(await serverProcess(), processes, activities);
    const started = clock.now();
    await engine.start('ping', 'walk', { to: 'walk', replyWithinMs: 60_000 });
    expect(await engine.describe('walk')).toMatchObject({
      runId: 'walk',
      process: 'ping',
      state: 'active',
      startedAt: started,
      attempts: 0,
      endedAt: null,
    });

    await engine.runDue();
    expect(await engine.describe('walk')).toMatchObject({ state: 'waiting', wakeAt: later(60_000), attempts: 0 });

    clock.advance(59_999);
    expect(await engine.runDue()).toBe(0);
    clock.advance(1);
    await engine.runDue();
    expect(await engine.describe('walk')).toMatchObject({ state: 'parked', wakeAt: null });
    expect(count('sendPing', 'walk')).toBe(2);

    clock.advance(5_000);
    await engine.signal('walk', 'pong', { from: 'ops' });
    await engine.runDue();
    expect(await engine.describe('walk')).toEqual({
      runId: 'walk',
      process: 'ping',
      state: 'ended',
      startedAt: started,
      endedAt: clock.now(),
      outcome: { answered: true, reminded: true, pong: { from: 'ops' } },
      wakeAt: null,
      attempts: 0,
      lastError: null,
    });
    expect(count('recordPong', 'walk')).toBe(1);
    await expect(engine.signal('walk', 'pong', null)).rejects.toBeInstanceOf(RunNotFoundError);
    expect(await engine.describe('nothing-here')).toBeNull();
  });

  it('retries a failing activity with backoff, then hands decide the failure for good', async () => {
    const { activities, count } = counted({
      sendPing: async () => {
        throw new Error('unreachable');
      },
    });
    const engine = new EmbeddedEngine(await serverProcess(), processes, activities);
    await engine.start('ping', 'failing', { to: 'failing', replyWithinMs: 60_000 });

    await engine.runDue();
    expect(await engine.describe('failing')).toMatchObject({
      state: 'active',
      attempts: 1,
      lastError: 'unreachable',
      wakeAt: later(1_000),
    });
    clock.advance(999);
    expect(await engine.runDue()).toBe(0);
    clock.advance(1);
    await engine.runDue();
    expect(await engine.describe('failing')).toMatchObject({ state: 'active', attempts: 2, wakeAt: later(2_000) });
    clock.advance(2_000);
    await engine.runDue();

    expect(count('sendPing')).toBe(3);
    expect(await engine.describe('failing')).toMatchObject({
      state: 'ended',
      lastError: 'unreachable',
      outcome: { answered: false, reminded: false, failed: { activity: 'sendPing', error: 'unreachable', attempts: 3 } },
    });
  });

  it('makes one run of one id, however often and from wherever it is started', async () => {
    const { activities, count } = counted();
    const [a, b] = [
      new EmbeddedEngine(await serverProcess(), processes, activities),
      new EmbeddedEngine(await serverProcess(), processes, activities),
    ];
    const ids = await Promise.all([a, b, a, b].map((engine) => engine.start('ping', 'once', { to: 'once', replyWithinMs: 1_000 })));
    expect(ids).toEqual(['once', 'once', 'once', 'once']);
    await Promise.all([a.runDue(), b.runDue()]);
    expect(await a.start('ping', 'once', { to: 'other', replyWithinMs: 5 })).toBe('once');
    await a.runDue();
    expect(count('sendPing')).toBe(1);
    expect(await a.describe('once')).toMatchObject({ state: 'waiting' });

    await a.cancel('once');
    await a.cancel('once');
    await b.runDue();
    expect(await a.describe('once')).toMatchObject({ state: 'ended', outcome: { answered: false, reminded: false, cancelled: true } });
    await a.cancel('once'); // ended: nothing to do
    await expect(a.cancel('no-such-run')).rejects.toBeInstanceOf(RunNotFoundError);
  });

  it('hands decide a cancel during an activity at once, and drops the activity result that comes after', async () => {
    const slow = gate();
    const { activities } = counted({
      sendPing: async (input: { to: string }) => {
        await slow.opened;
        return { ...input, sentAt: clock.now().toISOString() };
      },
    });
    const [first, second] = [
      new EmbeddedEngine(await serverProcess(), processes, activities),
      new EmbeddedEngine(await serverProcess(), processes, activities),
    ];
    await first.start('ping', 'cancel-mid-call', { to: 'cancel-mid-call', replyWithinMs: 1_000 });
    const running = first.runDue();
    await vi.waitFor(async () => expect(await first.describe('cancel-mid-call')).toMatchObject({ attempts: 1 }));

    await second.cancel('cancel-mid-call');
    await second.runDue();
    const cancelled = await second.describe('cancel-mid-call');
    expect(cancelled).toMatchObject({ state: 'ended', outcome: { cancelled: true } });

    slow.open();
    await running;
    expect(await second.describe('cancel-mid-call')).toEqual(cancelled);
  });

  it('lets two server processes share the runs without ever running one step twice at once', async () => {
    const inFlight = new Set<string>();
    let overlaps = 0;
    const by = new Map<string, number>();
    const tracked = (engine: string) => {
      const { activities, count } = counted();
      const wrapped = Object.fromEntries(
        Object.entries(activities).map(([name, fn]) => [
          name,
          async (input: { to: string }) => {
            if (inFlight.has(input.to)) overlaps++;
            inFlight.add(input.to);
            by.set(engine, (by.get(engine) ?? 0) + 1);
            try {
              await new Promise((resolve) => setTimeout(resolve, 5));
              return await fn(input as never);
            } finally {
              inFlight.delete(input.to);
            }
          },
        ]),
      ) as unknown as PingActivities;
      return { wrapped, count };
    };
    const one = tracked('one');
    const two = tracked('two');
    const engines = [
      new EmbeddedEngine(await serverProcess(), processes, one.wrapped, { batchSize: 2 }),
      new EmbeddedEngine(await serverProcess(), processes, two.wrapped, { batchSize: 2 }),
    ];
    const runs = Array.from({ length: 12 }, (_, i) => `shared-${i}`);
    await Promise.all(runs.map((id) => engines[0]!.start('ping', id, { to: id, replyWithinMs: 1_000 })));
    const bothRun = () => Promise.all(engines.map((e) => e.runDue()));

    await bothRun();
    clock.advance(1_000);
    await bothRun();
    await Promise.all(runs.map((id) => engines[1]!.signal(id, 'pong', id)));
    await bothRun();

    for (const id of runs) {
      expect(await engines[0]!.describe(id)).toMatchObject({ state: 'ended', outcome: { answered: true, reminded: true, pong: id } });
      expect(one.count('sendPing', id) + two.count('sendPing', id)).toBe(2);
      expect(one.count('recordPong', id) + two.count('recordPong', id)).toBe(1);
    }
    expect(overlaps).toBe(0);
    expect(by.get('one')).toBeGreaterThan(0);
    expect(by.get('two')).toBeGreaterThan(0);
  });

  it('survives a restart between steps: another process takes the run where the first left it', async () => {
    const before = counted();
    const firstSvc = await serverProcess();
    const first = new EmbeddedEngine(firstSvc, processes, before.activities);
    await first.start('ping', 'restart', { to: 'restart', replyWithinMs: 30_000 });
    await first.runDue();
    await first.close();
    await firstSvc.close();
    opened.splice(opened.indexOf(firstSvc), 1);

    const after = counted();
    const second = new EmbeddedEngine(await serverProcess(), processes, after.activities);
    expect(await second.describe('restart')).toMatchObject({ state: 'waiting' });
    clock.advance(30_000);
    await second.runDue();
    await second.signal('restart', 'pong', 'back');
    await second.runDue();

    expect(await second.describe('restart')).toMatchObject({ state: 'ended', outcome: { answered: true, reminded: true, pong: 'back' } });
    expect([before.count('sendPing'), after.count('sendPing'), after.count('recordPong')]).toEqual([1, 1, 1]);
  });

  it("survives a crash mid-activity: the lease runs out, the attempt is retried elsewhere, the lost worker's late result is dropped", async () => {
    const stuck = gate();
    const crashed = counted({
      sendPing: async (input: { to: string }) => {
        await stuck.opened;
        return { ...input, sentAt: 'from the crashed process' };
      },
    });
    const first = new EmbeddedEngine(await serverProcess(), processes, crashed.activities);
    await first.start('ping', 'crash', { to: 'crash', replyWithinMs: 30_000 });
    const abandoned = first.runDue(); // the process "dies" inside sendPing: never awaited until the end
    await vi.waitFor(() => expect(crashed.count('sendPing')).toBe(1));

    const healthy = counted();
    const second = new EmbeddedEngine(await serverProcess(), processes, healthy.activities);
    expect(await second.runDue()).toBe(0); // leased for the activity's timeout (10 s for ping)
    clock.advance(10_000);
    await second.runDue();
    expect(await second.describe('crash')).toMatchObject({
      state: 'active',
      attempts: 1,
      lastError: 'sendPing was lost with its worker: no heartbeat within 10000 ms',
      wakeAt: later(1_000),
    });
    clock.advance(1_000);
    await second.runDue();
    const waiting = await second.describe('crash');
    expect(waiting).toMatchObject({ state: 'waiting', wakeAt: later(30_000) });
    expect(healthy.count('sendPing')).toBe(1);

    stuck.open();
    await abandoned;
    expect(await second.describe('crash')).toEqual(waiting);

    await second.signal('crash', 'pong', 'ok');
    await second.runDue();
    expect(await second.describe('crash')).toMatchObject({ state: 'ended', outcome: { answered: true, reminded: false, pong: 'ok' } });
  });

  it('keeps a long activity leased while its process heartbeats, and lets another take it up a lease after the heartbeats stop', async () => {
    const slow = gate();
    const long = counted({
      sendPing: async (input: { to: string }) => {
        await slow.opened;
        return { ...input, sentAt: 'after the lease' };
      },
    });
    const first = new EmbeddedEngine(await serverProcess(), processes, long.activities, { heartbeatMs: 20 });
    await first.start('ping', 'heartbeat', { to: 'heartbeat', replyWithinMs: 30_000 });
    const running = first.runDue();
    await vi.waitFor(() => expect(long.count('sendPing')).toBe(1));

    const healthy = counted();
    const second = new EmbeddedEngine(await serverProcess(), processes, healthy.activities);
    // Past the first lease (ping's timeout is as long as a lease, 10 s: its own timer has not run out, the clock being moved).
    for (let i = 0; i < 3; i++) {
      clock.advance(6_000);
      const beatFrom = clock.now().getTime();
      await vi.waitFor(async () => expect((await second.describe('heartbeat'))!.wakeAt!.getTime()).toBe(beatFrom + 10_000));
      expect(await second.runDue()).toBe(0);
    }
    expect(healthy.count('sendPing')).toBe(0);

    slow.open();
    await running;
    expect(await second.describe('heartbeat')).toMatchObject({ state: 'waiting', attempts: 0 });
  });

  it('takes the lease the deployment sets (EMBEDDED_ENGINE_LEASE_MS), its heartbeats three tenths of it apart', async () => {
    const slow = gate();
    const long = counted({
      sendPing: async (input: { to: string }) => {
        await slow.opened;
        return { ...input, sentAt: 'after the lease' };
      },
    });
    const svc = await openServices({
      config: testConfig({ embeddedEngineLeaseMs: 2_000 }),
      url: dbUrl,
      secretKey: TEST_SECRET_KEY,
      clock,
    });
    opened.push(svc);
    const engine = new EmbeddedEngine(svc, processes, long.activities);
    await engine.start('ping', 'short-lease', { to: 'short-lease', replyWithinMs: 30_000 });
    const leasedAt = clock.now().getTime();
    const running = engine.runDue();
    await vi.waitFor(() => expect(long.count('sendPing')).toBe(1));
    expect((await engine.describe('short-lease'))!.wakeAt!.getTime()).toBe(leasedAt + 2_000);
    // Two heartbeats within 5 s of the activity's start: 600 ms apart they come at once; at the default
    // 3 s (a 10 s lease's) the second would not have come. Each extends the lease by 2 s from its time.
    for (let i = 0; i < 2; i++) {
      clock.advance(1_500);
      const beatFrom = clock.now().getTime();
      await vi.waitFor(async () => expect((await engine.describe('short-lease'))!.wakeAt!.getTime()).toBe(beatFrom + 2_000), {
        timeout: 2_500,
      });
    }
    slow.open();
    await running;
    expect(await engine.describe('short-lease')).toMatchObject({ state: 'waiting', attempts: 0 });
  });

  it('refuses to start on a lease that is not a whole number of milliseconds from 1000 to 600000', () => {
    expect(readConfig({}).embeddedEngineLeaseMs).toBe(10_000);
    expect(readConfig({ EMBEDDED_ENGINE_LEASE_MS: '2500' }).embeddedEngineLeaseMs).toBe(2_500);
    for (const bad of ['999', '600001', '2.5', '2s', '-3000', 'ten'])
      expect(() => readConfig({ EMBEDDED_ENGINE_LEASE_MS: bad }), bad).toThrow(
        `EMBEDDED_ENGINE_LEASE_MS must be a whole number of milliseconds from 1000 to 600000, not "${bad}"`,
      );
  });

  it('makes an attempt lost with its worker again with the same input, even with its retries spent: decide never hears it failed', async () => {
    const stuck = gate();
    const lost = counted({ sendPing: () => stuck.opened.then(() => ({ to: 'never', sentAt: 'never' })) });
    const first = new EmbeddedEngine(await serverProcess(), processes, lost.activities);
    await first.start('ping', 'lost-last', { to: 'lost-last', replyWithinMs: 30_000 });
    const abandoned = first.runDue();
    await vi.waitFor(() => expect(lost.count('sendPing')).toBe(1));
    // As if two attempts had failed before: this one is the last the ping's policy allows (3).
    const svc = await serverProcess();
    await svc.db.workflowRun.update({ where: { id: 'lost-last' }, data: { attempts: 3 } });

    const healthy = counted();
    const second = new EmbeddedEngine(svc, processes, healthy.activities);
    clock.advance(10_000);
    await second.runDue();
    expect(await second.describe('lost-last')).toMatchObject({ state: 'active', attempts: 3, wakeAt: later(1_000) });
    clock.advance(1_000);
    await second.runDue();
    expect(healthy.calls).toEqual([{ activity: 'sendPing', to: 'lost-last' }]);
    expect(await second.describe('lost-last')).toMatchObject({ state: 'waiting', attempts: 0, lastError: null });
    stuck.open();
    await abandoned;
  });

  it('leaves a run begun on a version this process lacks to one that has it', async () => {
    const { activities } = counted();
    const v2 = { ...ping, version: 2 };
    const newer = new EmbeddedEngine(await serverProcess(), new ProcessRegistry([ping, v2]), activities);
    const older = new EmbeddedEngine(await serverProcess(), new ProcessRegistry([ping]), activities);
    await newer.start('ping', 'rolling', { to: 'rolling', replyWithinMs: 1_000 });

    await older.runDue();
    expect(await older.describe('rolling')).toMatchObject({
      state: 'active',
      attempts: 0,
      lastError: 'this code has no ping v2',
      wakeAt: later(60_000),
    });
    clock.advance(60_000);
    await newer.runDue();
    expect(await newer.describe('rolling')).toMatchObject({ state: 'waiting', lastError: null });
    await newer.cancel('rolling');
    await newer.runDue();
  });

  it('claims nothing more once closing: the step in hand ends, the runs due are left to the next engine', async () => {
    const slow = gate();
    const { activities, count } = counted({
      sendPing: async (input: { to: string }) => {
        if (input.to === 'closing-first') await slow.opened;
        return { ...input, sentAt: clock.now().toISOString() };
      },
    });
    const engine = new EmbeddedEngine(await serverProcess(), processes, activities, { pollMs: 60_000 });
    engine.startWorker();
    await engine.start('ping', 'closing-first', { to: 'closing-first', replyWithinMs: 60_000 });
    await vi.waitFor(async () => expect(count('sendPing', 'closing-first')).toBe(1), { timeout: 3_000 });
    const closed = engine.close();
    // Due while the engine closes (started by another server process): not this engine's to take any more.
    const other = new EmbeddedEngine(await serverProcess(), processes, activities);
    await other.start('ping', 'closing-second', { to: 'closing-second', replyWithinMs: 60_000 });
    slow.open();
    await closed;
    expect(count('sendPing', 'closing-second')).toBe(0);
    expect(await other.describe('closing-second')).toMatchObject({ state: 'active', attempts: 0 });
    // The step in hand was finished and recorded: the next engine goes on from it, sending nothing twice.
    await other.runDue();
    expect(await other.describe('closing-first')).toMatchObject({ state: 'waiting' });
    expect(await other.describe('closing-second')).toMatchObject({ state: 'waiting' });
    expect(count('sendPing', 'closing-first')).toBe(1);
    expect(count('sendPing', 'closing-second')).toBe(1);
  });

  it('advances runs in the background, at once when this process starts or signals one', async () => {
    const { activities, count } = counted();
    const engine = new EmbeddedEngine(await serverProcess(), processes, activities, { pollMs: 60_000 });
    engine.startWorker();
    await engine.start('ping', 'background', { to: 'background', replyWithinMs: 1_000 });
    await vi.waitFor(async () => expect(await engine.describe('background')).toMatchObject({ state: 'waiting' }), { timeout: 3_000 });
    await engine.signal('background', 'pong', 'quick');
    await vi.waitFor(async () => expect(await engine.describe('background')).toMatchObject({ state: 'ended' }), { timeout: 3_000 });
    await engine.close();
    expect(count('recordPong', 'background')).toBe(1);
  });
});

describe('createDurableEngine', () => {
  it('runs processes in this process without TEMPORAL_ADDRESS, and hands them to Temporal with it', async () => {
    const svc = await serverProcess();
    const embedded = await createDurableEngine(svc, processes, counted().activities);
    expect(embedded).toBeInstanceOf(EmbeddedEngine);
    await embedded.close();
    const onTemporal = await createDurableEngine(
      { ...svc, config: testConfig({ temporalAddress: '127.0.0.1:7233' }) },
      processes,
      counted().activities,
    );
    expect(onTemporal).toBeInstanceOf(TemporalEngine);
    await onTemporal.close();
  });
});
