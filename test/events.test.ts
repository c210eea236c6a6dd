import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, userToken } from './support/http.js';
import { modeIdOf, serverApi, unique } from './support/factories.js';
import { type SeededApp, type TestServer, seedApp, startWithApp } from './support/server.js';

let t: TestServer;
let app: SeededApp;
beforeAll(async () => ({ t, app } = await startWithApp()));
afterAll(() => t.close());

const server = (path: string, json: unknown, method = 'POST') =>
  call(t.url, method, path, { headers: { Authorization: `Bearer ${app.live.server_key}` }, json });
const declare = (definitions: unknown[]) => server('/server/v1/event-definitions', { definitions }, 'PUT');
const send = (events: unknown[]) => server('/server/v1/events', { events });
const at = (offsetMs = 0) => new Date(t.clock.now().getTime() + offsetMs).toISOString();
const definition = async (name: string) =>
  t.svc.db.eventDefinition.findFirstOrThrow({
    where: { name, appModeId: (await t.svc.db.appMode.findUniqueOrThrow({ where: { appKey: app.live.app_key } })).id },
  });

describe('event definitions', () => {
  it('declaring only adds, never changes a type, and says what happened to each', async () => {
    let r = await declare([
      {
        name: 'order_paid',
        category: 'billing',
        props: [
          { key: 'amount', type: 'money' },
          { key: 'coupon', type: 'string' },
        ],
      },
    ]);
    expect(r.status).toBe(200);
    expect(r.json.definitions).toEqual([{ name: 'order_paid', outcome: 'created' }]);
    r = await declare([{ name: 'order_paid', props: [{ key: 'amount', type: 'money' }] }]);
    expect(r.json.definitions).toEqual([{ name: 'order_paid', outcome: 'unchanged' }]);
    r = await declare([{ name: 'order_paid', props: [{ key: 'items', type: 'number' }] }]);
    expect(r.json.definitions).toEqual([{ name: 'order_paid', outcome: 'props_added' }]);
    r = await declare([
      { name: 'order_paid', props: [{ key: 'amount', type: 'number' }] },
      { name: 'bad name!', props: [] },
      { name: 'x', props: [{ key: 'k', type: 'colour' }] },
      { name: 'y', source: 'client' },
    ]);
    expect(r.json.definitions.map((d: { outcome: string }) => d.outcome)).toEqual(['refused', 'refused', 'refused', 'refused']);
    expect(r.json.definitions[0].reason).toMatch(/amount is money/);
    const d = await definition('order_paid');
    expect(d.props).toEqual([
      { key: 'amount', type: 'money' },
      { key: 'coupon', type: 'string' },
      { key: 'items', type: 'number' },
    ]);
    expect(d.category).toBe('billing');
  });

  it('refuses a body without definitions', async () => {
    const r = await server('/server/v1/event-definitions', { defs: [] }, 'PUT');
    expect(r.status).toBe(400);
    expect(r.json.errors[0].field).toBe('definitions');
  });
});

describe('server events', () => {
  it('keeps each event or refuses it on its own, with its place and reason', async () => {
    const paid = unique('order_paid');
    await serverApi(t, app.live.server_key).declareEvents([
      {
        name: paid,
        props: [
          { key: 'amount', type: 'money' },
          { key: 'coupon', type: 'string' },
        ],
      },
    ]);
    const r = await send([
      { id: 'e1', external_id: 'p1', name: paid, at: at(-1000), props: { amount: '4250', coupon: 'X' } },
      { id: 'e2', external_id: 'p1', name: paid, at: at(), props: { amount: '42.50' } },
      { id: 'e3', external_id: 'p1', at: at() },
      { id: 'e4', external_id: 'p1', name: paid, at: 'yesterday' },
      { id: 'e5', external_id: 'p1', name: paid, at: at(), props: { amount: 4250 } },
      { id: 'e6', external_id: 'p1', name: 'bad name!', at: at() },
    ]);
    expect(r.status).toBe(202);
    expect(r.json.accepted).toBe(1);
    expect(r.json.rejected.map((x: { index: number; reason: string }) => [x.index, x.reason])).toEqual([
      [1, 'invalid_prop'],
      [2, 'invalid'],
      [3, 'invalid'],
      [4, 'invalid'],
      [5, 'invalid'],
    ]);
    expect(r.json.rejected[0].detail).toMatch(/amount/);
    expect(r.json.rejected[4].detail).toMatch(/^events\.5\.name/);
    const kept = await t.svc.db.event.findFirstOrThrow({ where: { id: 'e1' } });
    expect(kept.props).toEqual({ amount: 4250, coupon: 'X' });
    const refused = await t.svc.db.refusedEvent.findMany({ where: { eventId: { in: ['e2', 'e3'] } } });
    expect(refused).toHaveLength(2);
  });

  it('keeps the same id once, also when resent concurrently', async () => {
    const batch = Array.from({ length: 20 }, (_, i) => ({
      id: `dup-${i}`,
      external_id: 'p2',
      name: 'page_seen',
      at: at(),
      props: { path: '/a' },
    }));
    const results = await Promise.all(Array.from({ length: 6 }, () => send(batch)));
    expect(results.every((r) => r.status === 202)).toBe(true);
    expect(results.reduce((n, r) => n + r.json.accepted, 0)).toBe(20);
    expect(await t.svc.db.event.count({ where: { id: { startsWith: 'dup-' } } })).toBe(20);
    const again = await send(batch.slice(0, 3));
    expect(again.json).toEqual({ accepted: 0, rejected: [] });
  });

  it('takes concurrent batches that touch the same counters in other orders', async () => {
    const batch = (k: number) =>
      Array.from({ length: 40 }, (_, i) => ({
        id: `ord-${k}-${i}`,
        external_id: 'p5',
        name: (i + k) % 2 ? 'alpha' : 'beta',
        at: at((-i * 86_400_000) / 4),
      }));
    const results = await Promise.all(Array.from({ length: 12 }, (_, k) => send(k % 2 ? batch(k).reverse() : batch(k))));
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(202));
    expect(results.reduce((n, r) => n + r.json.accepted, 0)).toBe(480);
  });

  it('makes an undeclared event on first sight, guessing each prop type from its first value', async () => {
    await send([
      {
        id: 'g1',
        external_id: 'p3',
        name: 'trial_started',
        at: at(),
        props: { days: '14', paid: 'false', ends: '2026-12-01T00:00:00Z', plan: 'pro' },
      },
    ]);
    const d = await definition('trial_started');
    expect(d.props).toEqual([
      { key: 'days', type: 'number' },
      { key: 'paid', type: 'bool' },
      { key: 'ends', type: 'time' },
      { key: 'plan', type: 'string' },
    ]);
    const r = await declare([{ name: 'trial_started', props: [{ key: 'days', type: 'string' }] }]);
    expect(r.json.definitions[0]).toMatchObject({ outcome: 'refused' });
    const later = await send([{ id: 'g2', external_id: 'p3', name: 'trial_started', at: at(), props: { days: 'fourteen' } }]);
    expect(later.json.rejected[0]).toMatchObject({ index: 0, id: 'g2', reason: 'invalid_prop' });
  });

  it('refuses more than 500 events with 413', async () => {
    const events = Array.from({ length: 501 }, (_, i) => ({ id: `big-${i}`, external_id: 'p4', name: 'x', at: at() }));
    const r = await send(events);
    expect(r.status).toBe(413);
    expect(r.json.code).toBe('too_many_events');
    expect(await t.svc.db.event.count({ where: { id: { startsWith: 'big-' } } })).toBe(0);
    const ok = await send(events.slice(0, 500));
    expect(ok.json.accepted).toBe(500);
  });

  it('counts events per name and day, apart from the rows', async () => {
    const name = unique('page_seen');
    const batch = Array.from({ length: 20 }, (_, i) => ({ id: `${name}-${i}`, external_id: 'p6', name, at: at(), props: { path: '/a' } }));
    // Sent six times at once: each event is kept, and counted, once.
    const results = await Promise.all(Array.from({ length: 6 }, () => send(batch)));
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(202));
    const rows = await t.svc.db.eventDailyCount.findMany({ where: { name } });
    expect(rows.reduce((n, r) => n + r.count, 0)).toBe(20);
  });
});

describe('guest events', () => {
  const guest = async (sub: string, mode = app.live) => ({
    'X-CRM-App-Key': mode.app_key,
    Authorization: `Bearer ${await userToken(mode.identity_secret, { sub })}`,
  });
  const post = async (sub: string, events: unknown[], platform = 'ios', mode = app.live) =>
    call(t.url, 'POST', '/guest/v1/events', {
      headers: await guest(sub, mode),
      json: { events, app_version: '1.2.3', platform, time_zone: 'Europe/Paris' },
    });

  it('keeps built-in events and events the app declares for clients, once per id', async () => {
    await declare([
      { name: 'level_up', source: 'both', props: [{ key: 'level', type: 'number' }] },
      { name: 'server_thing', source: 'server' },
    ]);
    const id = randomUUID();
    const events = [
      { id, name: 'app_opened', occurred_at: at(-5000) },
      { id: randomUUID(), name: 'level_up', occurred_at: at(), props: { level: '3' } },
    ];
    const r = await post('g1', events);
    expect(r.status).toBe(202);
    expect(r.json).toEqual({ accepted: 2 });
    const again = await post('g1', events);
    expect(again.json).toEqual({ accepted: 0 });
  });

  it('refuses unknown and server-only events, events older than a week and bad shapes, listing each', async () => {
    const serverOnly = unique('server_thing');
    await serverApi(t, app.live.server_key).declareEvents([{ name: serverOnly, source: 'server' }]);
    const r = await post('g2', [
      { id: randomUUID(), name: unique('not_defined'), occurred_at: at() },
      { id: randomUUID(), name: serverOnly, occurred_at: at() },
      { id: randomUUID(), name: 'app_opened', occurred_at: at(-8 * 86_400_000) },
      { id: 'not-a-uuid', name: 'app_opened', occurred_at: at() },
      { id: randomUUID(), name: 'screen_viewed', occurred_at: at(-6 * 86_400_000), props: { screen: 'home' } },
    ]);
    expect(r.status).toBe(202);
    expect(r.json.accepted).toBe(1);
    expect(r.json.rejected.map((x: { index: number; reason: string }) => [x.index, x.reason])).toEqual([
      [0, 'unknown_event'],
      [1, 'server_only_event'],
      [2, 'too_old'],
      [3, 'invalid'],
    ]);
  });

  it('keeps web events apart in the daily counts', async () => {
    // An app of its own: page_viewed is built in, so no other test's name can be kept apart from it.
    const own = await seedApp(t.svc, 'Web counts');
    await post('g3', [{ id: randomUUID(), name: 'page_viewed', occurred_at: at() }], 'web', own.live);
    const rows = await t.svc.db.eventDailyCount.findMany({
      where: { name: 'page_viewed', appModeId: await modeIdOf(t, own.live.app_key) },
    });
    expect(rows.map((r) => r.platform)).toEqual(['web']);
  });

  it('keeps nothing for a user who turned product events off', async () => {
    await post('g4', []);
    await t.svc.db.contact.updateMany({ where: { externalId: 'g4' }, data: { productEventsOff: true } });
    const r = await post('g4', [{ id: randomUUID(), name: 'app_opened', occurred_at: at() }]);
    expect(r.json).toEqual({ accepted: 0 });
  });

  it('refuses more than 50 events with 413, and a batch that is not readable with 400', async () => {
    const many = Array.from({ length: 51 }, () => ({ id: randomUUID(), name: 'app_opened', occurred_at: at() }));
    expect((await post('g5', many)).status).toBe(413);
    const r = await call(t.url, 'POST', '/guest/v1/events', { headers: await guest('g5'), json: { events: [], platform: 'tv' } });
    expect(r.status).toBe(400);
    expect(r.json.errors.map((e: { field: string }) => e.field).sort()).toEqual(['app_version', 'platform']);
  });
});
