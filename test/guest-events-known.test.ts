import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../src/domain/context.js';
import { dailyCounts } from '../src/domain/events/daily-counts.js';
import { queriesDuring } from './support/db.js';
import { call, userToken } from './support/http.js';
import { modeIdOf } from './support/factories.js';
import { type SeededApp, type TestServer, seedApp, startTestServer, startWithApp, testConfig } from './support/server.js';

// A guest batch of built-in events whose definitions this process already holds is typed without
// reading them again: the same answers as when they are read.

let t: TestServer;
let app: SeededApp;
beforeAll(async () => {
  ({ t } = await startWithApp());
  // An app of its own: no other test grows its built-in definitions.
  app = await seedApp(t.svc, 'Known guest events');
});
afterAll(() => t.close());

const at = (offsetMs = 0) => new Date(t.clock.now().getTime() + offsetMs).toISOString();
const post = async (events: unknown[], sub = 'known-1', sdk?: string) =>
  call(t.url, 'POST', '/guest/v1/events', {
    headers: {
      'X-CRM-App-Key': app.live.app_key,
      Authorization: `Bearer ${await userToken(app.live.identity_secret, { sub })}`,
      ...(sdk ? { 'X-CRM-Sdk': sdk } : {}),
    },
    json: { events, app_version: '1.0.0', platform: 'ios' },
  });
const screenViewed = (props: Record<string, string>, offsetMs = 0) => ({
  id: randomUUID(),
  name: 'screen_viewed',
  occurred_at: at(offsetMs),
  props,
});

describe('guest events of known definitions', () => {
  it('types props by the definition as made, refuses a misfit, grows for a new prop', async () => {
    const modeId = await modeIdOf(t, app.live.app_key);
    const definition = () => t.svc.db.eventDefinition.findFirstOrThrow({ where: { appModeId: modeId, name: 'screen_viewed' } });
    expect((await post([screenViewed({ depth: '3' })])).json).toEqual({ accepted: 1 });
    expect((await definition()).props).toEqual([{ key: 'depth', type: 'number' }]);

    // Known now: a value its type cannot read is refused, beside one too old.
    const misfit = screenViewed({ depth: 'deep' });
    const old = screenViewed({ depth: '1' }, -8 * 86_400_000);
    const fit = screenViewed({ depth: '4' });
    const r = await post([old, misfit, fit]);
    expect(r.status).toBe(202);
    expect(r.json.accepted).toBe(1);
    expect(r.json.rejected.map((x: { index: number; id: string; reason: string }) => [x.index, x.id, x.reason])).toEqual([
      [0, old.id, 'too_old'],
      [1, misfit.id, 'invalid_prop'],
    ]);
    expect((await t.svc.db.event.findFirstOrThrow({ where: { appModeId: modeId, id: fit.id } })).props).toEqual({ depth: 4 });
    expect(await t.svc.db.refusedEvent.count({ where: { appModeId: modeId, eventId: misfit.id, reason: 'invalid_prop' } })).toBe(1);

    // A prop the definition lacks grows it, and is typed by it afterwards.
    expect((await post([screenViewed({ depth: '5', tab: 'home' })])).json).toEqual({ accepted: 1 });
    expect((await definition()).props).toEqual([
      { key: 'depth', type: 'number' },
      { key: 'tab', type: 'string' },
    ]);
    const later = screenViewed({ tab: 'settings', depth: '6' });
    expect((await post([later, { ...later, id: randomUUID(), name: 'app_opened', props: {} }])).json).toEqual({ accepted: 2 });
    expect((await t.svc.db.event.findFirstOrThrow({ where: { appModeId: modeId, id: later.id } })).props).toEqual({
      tab: 'settings',
      depth: 6,
    });
    // Sent again: kept once.
    expect((await post([later])).json).toEqual({ accepted: 0 });
  });

  it('keeps a batch of known events in one statement: the person made and their SDK recorded, the event and its count', async () => {
    const modeId = await modeIdOf(t, app.live.app_key);
    expect((await post([screenViewed({ tab: 'a' })])).status).toBe(202); // the definition made and known here
    const count = async () =>
      (await t.svc.db.eventDailyCount.findMany({ where: { appModeId: modeId, name: 'screen_viewed' } })).reduce((n, c) => n + c.count, 0);
    const before = await count();
    // The guest limits' grants and the outbox dispatcher's passes aside.
    const statements = (sub: string, sdk?: string) =>
      queriesDuring(
        async () => expect((await post([screenViewed({ tab: 'b' })], sub, sdk)).json).toEqual({ accepted: 1 }),
        (text) => !/outbox_|crm_rate_grant/.test(text),
      );
    expect(Math.min(await statements('counted-1', 'sdk/1'), await statements('counted-1', 'sdk/2'), await statements('counted-2'))).toBe(1);
    const person = await t.svc.db.contact.findFirstOrThrow({ where: { appModeId: modeId, externalId: 'counted-1' } });
    expect(person.lastSdk).toBe('sdk/2');
    // 50 at once from one person: each kept and counted exactly once.
    const answers = await Promise.all(Array.from({ length: 50 }, () => post([screenViewed({ tab: 'c' })], 'counted-3')));
    expect(answers.map((a) => a.json.accepted)).toEqual(Array(50).fill(1));
    expect(await count()).toBe(before + 53);
    // Kept in several rows (the slots of the connections that wrote them), read as one count a day.
    const read = (await dailyCounts(systemContext(t.svc, 'test'), modeId, ['screen_viewed'], 1)).get('screen_viewed')!;
    expect(read.map((c) => [c.platform, c.count])).toEqual([['ios', before + 53]]);
  });
});

describe('guest events written in groups', () => {
  // A server of its own whose address may send 50 requests a minute (a limit under 200 is exact).
  let g: TestServer;
  let own: SeededApp;
  beforeAll(async () => {
    g = await startTestServer({ config: testConfig({}, { guestAddressPerMinute: 50 }) });
    own = await seedApp(g.svc, 'Grouped guest events');
  });
  afterAll(() => g?.close());

  it('answers 50 concurrent requests each by the commit that holds its event, one refused by the limit and one kept by none', async () => {
    const modeId = await modeIdOf(g, own.live.app_key);
    const event = (sub: string, ageMs = 0) => ({
      id: randomUUID(),
      name: 'app_opened',
      occurred_at: new Date(g.clock.now().getTime() - ageMs).toISOString(),
      props: { tab: sub },
    });
    // grouped-1 also sends one too old: refused and recorded as such, in the group.
    const send = async (sub: string) =>
      call(g.url, 'POST', '/guest/v1/events', {
        headers: { 'X-CRM-App-Key': own.live.app_key, Authorization: `Bearer ${await userToken(own.live.identity_secret, { sub })}` },
        json: {
          events: sub === 'grouped-1' ? [event(sub, 8 * 86_400_000), event(sub)] : [event(sub)],
          app_version: '1.0.0',
          platform: 'ios',
        },
      });
    // The definition made and known here, and a person who turned product events off: 2 of the 50.
    expect((await send('grouped-off')).json).toEqual({ accepted: 1 });
    await g.svc.db.contact.updateMany({ where: { appModeId: modeId, externalId: 'grouped-off' }, data: { productEventsOff: true } });
    // The daily counts held by another transaction: the first writes wait on it, and every request
    // that comes meanwhile waits for them, to be written in one group once it is let go.
    const blocker = new pg.Client({ connectionString: g.dbUrl });
    await blocker.connect();
    await blocker.query('BEGIN');
    await blocker.query('LOCK TABLE event_daily_count IN SHARE MODE');
    let writes = 0;
    let answers: Awaited<ReturnType<typeof send>>[] = [];
    const sent = await queriesDuring(
      async () => {
        let refused = false;
        const pending = Array.from({ length: 50 }, (_, i) =>
          send(i === 0 ? 'grouped-off' : `grouped-${i}`).then((a) => ((refused ||= a.status === 429), a)),
        );
        // The one over the limit answered at once (every limit taken by then), the first writes waiting.
        await expect.poll(async () => refused && (await waitingOnLock(blocker)) > 0).toBe(true);
        await new Promise((r) => setTimeout(r, 200));
        await blocker.query('COMMIT');
        answers = await Promise.all(pending);
      },
      (text) => /crm_guest_events/.test(text) && ++writes > 0,
    ).finally(() => blocker.end());
    // Which one the limit refused is the order the requests came in; every other is answered as it would be alone.
    const refused = answers.findIndex((a) => a.status === 429);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(1);
    expect(answers.map((a, i) => (i === refused ? 429 : a.status))).toEqual(
      Array.from({ length: 50 }, (_, i) => (i === refused ? 429 : 202)),
    );
    const alone = (i: number) =>
      i === 0
        ? { accepted: 0 }
        : i === 1
          ? { accepted: 1, rejected: [expect.objectContaining({ index: 0, reason: 'too_old' })] }
          : { accepted: 1 };
    expect(answers.map((a, i) => (i === refused ? null : a.json))).toEqual(answers.map((_, i) => (i === refused ? null : alone(i))));
    expect(await g.svc.db.refusedEvent.count({ where: { appModeId: modeId, reason: 'too_old' } })).toBe(refused === 1 ? 0 : 1);
    // Each kept event stored once, by fewer statements than requests (several in one group).
    const stored = await g.svc.db.event.findMany({ where: { appModeId: modeId }, select: { externalId: true, props: true } });
    expect(stored).toHaveLength(1 + 49 - (refused === 0 ? 0 : 1));
    for (const e of stored) expect(e.props).toEqual({ tab: e.externalId });
    expect(sent).toBe(writes);
    expect(writes).toBeLessThan(10);
  });
});

describe('a group of guest events whose connection is cut', () => {
  let g: TestServer;
  let own: SeededApp;
  beforeAll(async () => {
    ({ t: g, app: own } = await startWithApp());
  });
  afterAll(() => g?.close());

  it('refuses every request of a group whose connection was cut as unavailable, never writing them again as if nothing was done', async () => {
    const send = async (sub: string) =>
      call(g.url, 'POST', '/guest/v1/events', {
        headers: { 'X-CRM-App-Key': own.live.app_key, Authorization: `Bearer ${await userToken(own.live.identity_secret, { sub })}` },
        json: {
          events: [{ id: randomUUID(), name: 'app_opened', occurred_at: g.clock.now().toISOString() }],
          app_version: '1.0.0',
          platform: 'ios',
        },
      });
    expect((await send('cut-0')).status).toBe(202); // the definition made and known here
    const blocker = new pg.Client({ connectionString: g.dbUrl });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE event_daily_count IN SHARE MODE');
      const pending = Array.from({ length: 12 }, (_, i) => send(`cut-${i + 1}`));
      // The first two written alone, waiting: cut. Then the group of the others, waiting: cut once, and the lock let go.
      await expect.poll(() => waitingOnLock(blocker)).toBe(2);
      // The other ten in line for the next group before the two are cut (whatever the machine's speed).
      await expect.poll(() => g.svc.caches.guestEventGroups.waitingCount, { timeout: 20_000 }).toBe(10);
      await cutWaiting(blocker, 'crm_guest_events(');
      await expect.poll(() => waitingOnLock(blocker, 'crm_guest_events_group')).toBe(1);
      await cutWaiting(blocker, 'crm_guest_events_group');
      await blocker.query('COMMIT');
      const answers = await Promise.all(pending);
      expect(answers.map((a) => [a.status, (a.json as { code?: string }).code])).toEqual(answers.map(() => [503, 'unavailable']));
    } finally {
      await blocker.end();
    }
  });
});

const cutWaiting = (db: pg.Client, statement: string) =>
  db.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND strpos(query, $1) > 0`, [statement]);

/** Statements waiting on a lock now (read afresh: inside a transaction the activity view is otherwise read once). */
const waitingOnLock = async (db: pg.Client, statement = 'crm_guest_events') =>
  (await db.query('SELECT pg_stat_clear_snapshot()')) &&
  Number(
    (await db.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND strpos(query, $1) > 0`, [statement]))
      .rows[0].n,
  );
