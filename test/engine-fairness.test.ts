import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rows, sql } from '../src/db/sql.js';
import { openServices, type OpenServices } from '../src/services.js';
import { defineProcess } from '../workflows/engine/define.js';
import { EmbeddedEngine } from '../workflows/engine/embedded.js';
import { ProcessRegistry } from '../workflows/engine/registry.js';
import type { DurableEngine } from '../workflows/engine/types.js';
import { createTestDatabase } from './support/db.js';
import { TEST_SECRET_KEY, testConfig } from './support/server.js';

// The embedded engine shares its activity slots between tenants, on the real clock: one tenant's
// slow activities hold at most their share, and a step that needs no slot (a timer's wake) is
// taken while every slot is busy.

interface JobInput {
  tenant: string;
  /** How long its one activity takes; none: it waits for `until` instead. */
  workMs?: number;
  until?: string;
  /** What its activity holds (a receiving endpoint, say). */
  lane?: string;
}

/** How many `work` activities run at once, most of all, by tenant and by lane. */
const running = new Map<string, number>();
const most = new Map<string, number>();
const bump = (key: string, by: number) => {
  const n = (running.get(key) ?? 0) + by;
  running.set(key, n);
  most.set(key, Math.max(most.get(key) ?? 0, n));
};

const jobActivities = () => ({
  async work(input: { tenant: string; ms: number; lane?: string }): Promise<null> {
    const keys = [`tenant:${input.tenant}`, ...(input.lane ? [`lane:${input.lane}`] : [])];
    keys.forEach((k) => bump(k, 1));
    await new Promise((resolve) => setTimeout(resolve, input.ms));
    keys.forEach((k) => bump(k, -1));
    return null;
  },
});

const { call, define } = defineProcess<JobInput, JobInput, ReturnType<typeof jobActivities>>();
const job = define({
  name: 'job',
  version: 1,
  signals: [],
  initialState: (input) => input,
  fairness: ({ tenant, lane }) => ({ key: tenant, lane }),
  decide: (state, event) => {
    if (event.kind !== 'started') return { state, command: { kind: 'end', outcome: null } };
    if (state.until) return { state, command: { kind: 'wait', until: state.until } };
    const input = { tenant: state.tenant, ms: state.workMs ?? 0, ...(state.lane ? { lane: state.lane } : {}) };
    return { state, command: call('work', input, { timeoutMs: 60_000 }) };
  },
});
const processes = new ProcessRegistry([job]);

/** A run of `hops` activities one after another, then its end. */
interface RelayState {
  tenant: string;
  run: string;
  hops: number;
  done: number;
}
/** Each hop says which it is, and how many leases its run holds in workflow_lease meanwhile. */
const relayActivities = (seen: { hop: string; leases: number }[]) => ({
  async hop(input: { run: string; hop: number }): Promise<null> {
    const [row] = await rows<{ n: number }>(svc, sql`SELECT count(*)::int AS n FROM workflow_lease WHERE run_id = ${input.run}`);
    seen.push({ hop: `${input.run}:${input.hop}`, leases: row!.n });
    return null;
  },
});
const relayKit = defineProcess<RelayState, RelayState, ReturnType<typeof relayActivities>>();
const relay = relayKit.define({
  name: 'relay',
  version: 1,
  signals: [],
  initialState: (input) => input,
  fairness: ({ tenant }) => ({ key: tenant }),
  decide: (state, event) => {
    const done = event.kind === 'activity_completed' ? state.done + 1 : state.done;
    if (event.kind !== 'started' && event.kind !== 'activity_completed') return { state, command: { kind: 'end', outcome: null } };
    if (done >= state.hops) return { state: { ...state, done }, command: { kind: 'end', outcome: null } };
    return { state: { ...state, done }, command: relayKit.call('hop', { run: state.run, hop: done + 1 }, { timeoutMs: 60_000 }) };
  },
});

let svc: OpenServices;
beforeAll(async () => {
  svc = await openServices({ config: testConfig(), url: await createTestDatabase(), secretKey: TEST_SECRET_KEY });
});
afterAll(async () => {
  await svc?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** When the run ended, waiting for it up to `withinMs`. */
async function endOf(engine: Pick<DurableEngine, 'describe'>, runId: string, withinMs: number): Promise<Date | null> {
  const until = Date.now() + withinMs;
  for (;;) {
    const run = await engine.describe(runId);
    if (run?.state === 'ended') return run.endedAt;
    if (Date.now() > until) return null;
    await sleep(20);
  }
}

/**
 * Ends a test's engine: its runs still going are cancelled and seen ended, then it closes. A closing
 * engine claims nothing more, so runs left going would fill the next test's engine on this database.
 */
async function closeAfter(engine: Pick<DurableEngine, 'cancel' | 'describe' | 'close'>, runIds: string[]): Promise<void> {
  for (const id of runIds) await engine.cancel(id);
  for (const id of runIds) await endOf(engine, id, 10_000);
  await engine.close();
}

const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);

describe('the embedded engine between tenants', () => {
  it('keeps a run’s slot from one activity to the next: its next activity starts under the same lease, before a run of its tenant waiting for a slot', async () => {
    const seen: { hop: string; leases: number }[] = [];
    const engine = new EmbeddedEngine(svc, new ProcessRegistry([relay]), relayActivities(seen), { batchSize: 2, keyCap: 1, reserve: 0 });
    try {
      // Both due at once, the relay first (its id comes first); the tenant holds one slot at most.
      await engine.start('relay', 'a-relay', { tenant: 'relay-tenant', run: 'a-relay', hops: 3, done: 0 });
      await engine.start('relay', 'b-single', { tenant: 'relay-tenant', run: 'b-single', hops: 1, done: 0 });
      await engine.runDue();
      // Given back at each step and claimed again, the relay's second hop would come due after the single run's, and wait for it.
      expect(seen).toEqual([
        { hop: 'a-relay:1', leases: 1 },
        { hop: 'a-relay:2', leases: 1 },
        { hop: 'a-relay:3', leases: 1 },
        { hop: 'b-single:1', leases: 1 },
      ]);
      expect(await engine.describe('a-relay')).toMatchObject({ state: 'ended' });
      expect(await engine.describe('b-single')).toMatchObject({ state: 'ended' });
      // Each lease given back with its run's end.
      expect(await rows(svc, sql`SELECT run_id FROM workflow_lease WHERE run_id IN ('a-relay', 'b-single')`)).toEqual([]);
    } finally {
      await engine.close();
    }
  });

  it("takes tenant B's quick activity and timer at once while tenant A's slow activities fill its slots", async () => {
    const engine = new EmbeddedEngine(svc, processes, jobActivities()); // 16 slots, a poll every 300 ms
    engine.startWorker();
    try {
      for (let i = 0; i < 16; i++) await engine.start('job', `a-${i}`, { tenant: 'A', workMs: 5_000 });
      await sleep(500);
      expect(running.get('tenant:A')).toBeGreaterThan(0);

      const asked = Date.now();
      const wakeAt = new Date(asked + 1_000);
      await engine.start('job', 'b-quick', { tenant: 'B', workMs: 50 });
      await engine.start('job', 'b-timer', { tenant: 'B', until: wakeAt.toISOString() });

      const quick = await endOf(engine, 'b-quick', 6_000);
      expect(quick && quick.getTime() - asked).toBeLessThan(2_000);
      const woke = await endOf(engine, 'b-timer', 6_000);
      expect(woke && woke.getTime() - wakeAt.getTime()).toBeLessThan(1_000);
      expect(woke!.getTime()).toBeGreaterThanOrEqual(wakeAt.getTime());
      // A's first activities are still running, and never held more than half of the slots.
      expect(await engine.describe('a-0')).toMatchObject({ state: 'active' });
      expect(most.get('tenant:A')).toBe(8);
    } finally {
      await closeAfter(engine, [...ids('a', 16), 'b-quick', 'b-timer']);
    }
  }, 30_000);

  it("keeps a quarter of its slots for tenants holding none while two tenants' slow activities flood it", async () => {
    const engine = new EmbeddedEngine(svc, processes, jobActivities());
    engine.startWorker();
    try {
      for (let i = 0; i < 16; i++) {
        await engine.start('job', `d-${i}`, { tenant: 'D', workMs: 3_000 });
        await engine.start('job', `e-${i}`, { tenant: 'E', workMs: 3_000 });
      }
      await sleep(500);
      const asked = Date.now();
      await engine.start('job', 'f-quick', { tenant: 'F', workMs: 50 });
      await engine.start('job', 'f-second', { tenant: 'F', workMs: 50 });
      const quick = await endOf(engine, 'f-quick', 6_000);
      expect(quick && quick.getTime() - asked).toBeLessThan(2_000);
      expect(await endOf(engine, 'f-second', 6_000)).not.toBeNull();
      // The two flooding tenants held 12 of the 16 slots between them at most, neither more than 8.
      expect(most.get('tenant:D')! + most.get('tenant:E')!).toBeLessThanOrEqual(12);
      expect(Math.max(most.get('tenant:D')!, most.get('tenant:E')!)).toBeLessThanOrEqual(8);
    } finally {
      await closeAfter(engine, [...ids('d', 16), ...ids('e', 16), 'f-quick', 'f-second']);
    }
  }, 30_000);

  it('lets one lane (a slow endpoint) hold 4 activities at once, its other runs waiting for them', async () => {
    const engine = new EmbeddedEngine(svc, processes, jobActivities());
    engine.startWorker();
    try {
      for (let i = 0; i < 8; i++) await engine.start('job', `c-${i}`, { tenant: 'C', workMs: 600, lane: 'slow-endpoint' });
      await engine.start('job', 'c-other', { tenant: 'C', workMs: 50, lane: 'other-endpoint' });
      expect(await endOf(engine, 'c-other', 1_000)).not.toBeNull();
      for (let i = 0; i < 8; i++) expect(await endOf(engine, `c-${i}`, 5_000)).not.toBeNull();
      expect(most.get('lane:slow-endpoint')).toBe(4);
    } finally {
      await engine.close();
    }
  }, 30_000);
});
