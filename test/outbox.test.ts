import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseVersion, versionOf, type FollowStep, type OutboxRow } from '../src/db/outbox-dispatcher.js';
import { transaction } from '../src/domain/context.js';
import { emit, purgeOutbox } from '../src/domain/outbox.js';
import { call } from './support/http.js';
import { seedApp, startTestServer, startWithApp, type SeededApp, type TestServer } from './support/server.js';

// The outbox, read: every committed row handed on in order, none skipped when transactions
// commit out of order, caught up after the LISTEN connection is cut; processes started from it.

let t: TestServer;
let app: SeededApp;
beforeAll(async () => ({ t, app } = await startWithApp()));
afterAll(() => t?.close());

/** Rows of a topic this process hears, collected until the test ends. */
function collect(server: TestServer, topic: string, appModeId: string) {
  const rows: OutboxRow[] = [];
  const stop = new AbortController();
  void (async () => {
    for await (const row of server.svc.outbox.watch(topic, appModeId, stop.signal)) rows.push(row);
  })();
  return { rows, stop: () => stop.abort() };
}

async function client(url: string) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  return c;
}
async function insert(c: pg.Client, appModeId: string, n: number) {
  await c.query(`INSERT INTO outbox_event (app_mode_id, topic, data, created_at) VALUES ($1, 'test.ordered', $2, now())`, [
    appModeId,
    JSON.stringify({ n }),
  ]);
  await c.query(`SELECT pg_notify('crm_outbox', '')`);
}

describe('the outbox dispatcher', () => {
  it('hands on a row committed after a later one, in order, and skips none', async () => {
    const appModeId = randomUUID();
    const heard = collect(t, 'test.ordered', appModeId);
    const [first, second] = [await client(t.dbUrl), await client(t.dbUrl)];
    try {
      await first.query('BEGIN');
      await insert(first, appModeId, 1); // the lower id, committed last
      await second.query('BEGIN');
      await insert(second, appModeId, 2);
      await second.query('COMMIT');
      // A few passes (drain would wait for the open transaction itself).
      for (let i = 0; i < 3; i++) {
        t.svc.outbox.wake();
        await new Promise((r) => setTimeout(r, 100));
      }
      // Row 2 waits: handing it on now would move the cursor past row 1 for good.
      expect(heard.rows.map((r) => r.data.n)).toEqual([]);
      await first.query('COMMIT');
      await expect.poll(() => heard.rows.map((r) => r.data.n), { timeout: 5000 }).toEqual([1, 2]);
    } finally {
      heard.stop();
      await Promise.all([first.end(), second.end()]);
    }
  });

  it('is not held back by a transaction open in another database of the cluster', async () => {
    const appModeId = randomUUID();
    const heard = collect(t, 'test.ordered', appModeId);
    const elsewhere = new URL(t.dbUrl);
    elsewhere.pathname = '/postgres';
    const [other, ours] = [await client(elsewhere.toString()), await client(t.dbUrl)];
    try {
      await other.query('BEGIN');
      await other.query('SELECT pg_current_xact_id()'); // holds a transaction id, older than the row below
      await insert(ours, appModeId, 3);
      await expect.poll(() => heard.rows.map((r) => r.data.n), { timeout: 5000 }).toEqual([3]);
    } finally {
      heard.stop();
      await other.query('ROLLBACK');
      await Promise.all([other.end(), ours.end()]);
    }
  });

  it('catches up on what it missed while its LISTEN connection was cut', async () => {
    const appModeId = randomUUID();
    const heard = collect(t, 'test.ordered', appModeId);
    const killer = await client(t.dbUrl);
    try {
      const { rowCount } = await killer.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query ILIKE 'LISTEN%'`,
      );
      expect(rowCount).toBeGreaterThan(0);
      await insert(killer, appModeId, 7);
      await expect.poll(() => heard.rows.map((r) => r.data.n), { timeout: 5000 }).toEqual([7]);
    } finally {
      heard.stop();
      await killer.end();
    }
  });

  it('tells a settings change to subscribers as its own row', async () => {
    const mode = await t.svc.db.appMode.findUniqueOrThrow({ where: { appKey: app.live.app_key } });
    const heard = collect(t, 'app_mode.changed', mode.id);
    try {
      const { updateSettings } = await import('../src/domain/apps/settings.js');
      await updateSettings(t.ctx, mode.id, { brandName: 'Renamed' });
      await expect.poll(() => heard.rows.length, { timeout: 5000 }).toBe(1);
      expect(heard.rows[0]).toMatchObject({ topic: 'app_mode.changed', appModeId: mode.id, data: { id: mode.id } });
    } finally {
      heard.stop();
    }
  });

  it("hands a request's change to this process's listeners once the request's own answer has gone, or 50 ms on", async () => {
    const appModeId = randomUUID();
    const heard = collect(t, 'test.held', appModeId);
    const change = (answered: () => Promise<void>, n: number) =>
      transaction({ ...t.ctx, answered }, (tx) => emit(tx, 'test.held', { appModeId, data: { n } }));
    try {
      // Its answer still pending 20 ms after the commit: nothing heard yet; heard as soon as it goes.
      let answer!: () => void;
      const answering = new Promise<void>((resolve) => (answer = resolve));
      const waited = performance.now();
      await change(() => answering, 1);
      await new Promise((r) => setTimeout(r, 20));
      expect(heard.rows).toEqual([]);
      answer();
      await expect.poll(() => heard.rows.map((r) => r.data.n), { timeout: 5000 }).toEqual([1]);
      expect(performance.now() - waited).toBeGreaterThanOrEqual(20);
      // An answer that never goes holds the row back for 50 ms at most.
      const never = performance.now();
      await change(() => new Promise<void>(() => {}), 2);
      await expect.poll(() => heard.rows.map((r) => r.data.n), { timeout: 5000, interval: 5 }).toEqual([1, 2]);
      expect(performance.now() - never).toBeGreaterThanOrEqual(45);
    } finally {
      heard.stop();
    }
  });
});

describe('following a topic (live subscriptions)', () => {
  it('hands on the kept rows after a version, then the new ones, each once and in order', async () => {
    const appModeId = randomUUID();
    const c = await client(t.dbUrl);
    const stop = new AbortController();
    try {
      for (const n of [1, 2, 3]) await insert(c, appModeId, n);
      await t.svc.outbox.drain();
      const steps: FollowStep[] = [];
      const follow = (after?: string) =>
        void (async () => {
          for await (const step of t.svc.outbox.follow('test.ordered', appModeId, {
            after: after ? parseVersion(after) : undefined,
            now: t.clock.now(),
            signal: stop.signal,
          }))
            steps.push(step);
        })();
      follow();
      await expect.poll(() => steps.length).toBe(1);
      expect(steps[0]).toMatchObject({ reload: true });
      await insert(c, appModeId, 4);
      await expect.poll(() => steps.length).toBe(2);
      const version = (steps[1] as { version: string }).version;

      const resumed: number[] = [];
      const first = await t.svc.db.outboxEvent.findFirstOrThrow({ where: { appModeId }, orderBy: { id: 'asc' } });
      for await (const step of t.svc.outbox.follow('test.ordered', appModeId, {
        after: parseVersion(versionOf(first, first.createdAt)),
        now: t.clock.now(),
        signal: stop.signal,
      })) {
        if ('row' in step) resumed.push(step.row.data.n as number);
        if (resumed.length === 3) break;
      }
      expect(resumed).toEqual([2, 3, 4]);
      expect(version > steps[0]!.version).toBe(true);
    } finally {
      stop.abort();
      await c.end();
    }
  });
});

describe('outbox retention', () => {
  it(`forgets rows older than ${7} days once every consumer has read them, and no others`, async () => {
    const appModeId = randomUUID();
    const old = new Date(t.clock.now().getTime() - 8 * 86_400_000);
    const make = (n: number) => t.svc.db.outboxEvent.create({ data: { appModeId, topic: 'test.kept', data: { n }, createdAt: old } });
    const read = await make(1);
    const unread = await make(2);
    await t.svc.outbox.drain(); // the server's own consumers have read both
    // A consumer that stopped just past the first row.
    await t.svc.db.outboxConsumer.create({ data: { name: `slow-${appModeId}`, txId: read.txId, lastId: read.id } });
    await purgeOutbox(t.ctx);
    expect((await t.svc.db.outboxEvent.findMany({ where: { appModeId } })).map((r) => r.id)).toEqual([unread.id]);
    await t.svc.db.outboxConsumer.delete({ where: { name: `slow-${appModeId}` } });
  });
});

describe('processes started from the outbox', () => {
  it('an erase asked of a server that died right after the commit is started and done by another', async () => {
    // The first server commits the request and dies before anything starts the process.
    const first = await startTestServer({ startProcesses: false });
    const owner = await seedApp(first.svc, 'Dies after commit');
    const as = { Authorization: `Bearer ${owner.live.server_key}` };
    expect((await call(first.url, 'PUT', '/server/v1/contacts/stranded', { headers: as, json: { display_name: 'Stranded' } })).status).toBe(
      200,
    );
    expect((await call(first.url, 'DELETE', '/server/v1/contacts/stranded', { headers: as })).status).toBe(202);
    await first.engine.runDue();
    expect(await first.svc.db.workflowRun.count()).toBe(0);
    await first.close();

    const second = await startTestServer({ dbUrl: first.dbUrl, clock: first.clock });
    try {
      await second.engine.runDue();
      await second.engine.runDue();
      const request = await second.svc.db.eraseRequest.findFirstOrThrow();
      expect(request.state).toBe('done');
      expect(await second.engine.describe(request.id)).toMatchObject({ state: 'ended', outcome: { erased: true } });
      expect(await second.svc.db.contact.count({ where: { externalId: 'stranded' } })).toBe(0);
      // Handed on once: the consumer's cursor moved past the row.
      await second.engine.runDue();
      expect(await second.svc.db.workflowRun.count()).toBe(1);
    } finally {
      await second.close();
    }
  });
});
