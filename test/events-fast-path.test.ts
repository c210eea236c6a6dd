import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call } from './support/http.js';
import { modeIdOf, serverApi, unique } from './support/factories.js';
import { type SeededApp, type TestServer, startTestServer, startWithApp } from './support/server.js';

// Server batches whose definitions this process already knows go in one statement, without the
// locked path's transaction (src/domain/events/server-events.ts). The same rules hold on it: the
// erase check, typing by the definition (never by a stale copy of it), ids kept once, daily counts
// and refusals.

let t: TestServer;
let app: SeededApp;
/** A second server process on the same database: its own cache of definitions. */
let other: TestServer;
beforeAll(async () => {
  ({ t, app } = await startWithApp());
  other = await startTestServer({ dbUrl: t.dbUrl, clock: t.clock });
});
afterAll(async () => {
  await other?.close();
  await t?.close();
});

const send = (events: unknown[], via = t) =>
  call(via.url, 'POST', '/server/v1/events', { headers: { Authorization: `Bearer ${app.live.server_key}` }, json: { events } });
const at = (offsetMs = 0) => new Date(t.clock.now().getTime() + offsetMs).toISOString();
const event = (name: string, externalId: string, props?: Record<string, string>, id = unique('e')) => ({
  id,
  external_id: externalId,
  name,
  at: at(),
  props,
});

/** A first batch of `name`: the locked path makes its definition, and this process caches it. */
async function known(name: string, props: Record<string, string>) {
  expect((await send([event(name, 'warm', props)])).json.accepted).toBe(1);
}

/** What `fn` answers, and how many transactions the service opened meanwhile (the locked path opens one). */
async function counting<T>(fn: () => Promise<T>) {
  const spy = vi.spyOn(t.svc.db, '$transaction');
  try {
    const answer = await fn();
    return { answer, transactions: spy.mock.calls.length };
  } finally {
    spy.mockRestore();
  }
}

async function erased(externalId: string) {
  const api = serverApi(t, app.live.server_key);
  await api.identify(externalId, { display_name: 'Someone' });
  expect(
    (await call(t.url, 'DELETE', `/server/v1/contacts/${externalId}`, { headers: { Authorization: `Bearer ${app.live.server_key}` } }))
      .status,
  ).toBe(202);
  await t.engine.runDue();
}

describe('a batch whose definitions are known', () => {
  it('is kept in one statement, typed by the definition, counted, its refusals recorded', async () => {
    const name = unique('paid');
    await known(name, { amount: '10', plan: 'pro' });
    const ok = event(name, 'fp-1', { amount: '4250', plan: '7' });
    const bad = event(name, 'fp-1', { amount: 'lots' });
    const { answer: r, transactions } = await counting(() => send([ok, bad, { id: 'x', name }]));
    expect(transactions).toBe(0);
    expect(r.status).toBe(202);
    expect(r.json.accepted).toBe(1);
    expect(r.json.rejected.map((x: { index: number; reason: string }) => [x.index, x.reason])).toEqual([
      [1, 'invalid_prop'],
      [2, 'invalid'],
    ]);
    // plan was first seen as text: "7" stays text.
    expect((await t.svc.db.event.findFirstOrThrow({ where: { id: ok.id } })).props).toEqual({ amount: 4250, plan: '7' });
    const refused = await t.svc.db.refusedEvent.findFirstOrThrow({ where: { eventId: bad.id } });
    expect(refused).toMatchObject({ name, externalId: 'fp-1', reason: 'invalid_prop', index: 1 });
    expect(refused.receivedAt.getTime()).toBe(t.clock.now().getTime());
    const counts = await t.svc.db.eventDailyCount.findMany({ where: { name } });
    expect(counts.reduce((n, c) => n + c.count, 0)).toBe(2);
  });

  it('keeps an id sent twice once, as last sent, and counts it once', async () => {
    const name = unique('seen');
    await known(name, { path: '/a' });
    const id = unique('dup');
    const r = await send([event(name, 'fp-2', { path: '/first' }, id), event(name, 'fp-2', { path: '/last' }, id)]);
    expect(r.json).toEqual({ accepted: 1, rejected: [] });
    expect((await t.svc.db.event.findFirstOrThrow({ where: { id } })).props).toEqual({ path: '/last' });
    expect((await send([event(name, 'fp-2', { path: '/again' }, id)])).json).toEqual({ accepted: 0, rejected: [] });
    const counts = await t.svc.db.eventDailyCount.findMany({ where: { name } });
    expect(counts.reduce((n, c) => n + c.count, 0)).toBe(2);
  });

  it('keeps text with quotes, backslashes and braces exactly as sent', async () => {
    const name = unique('quoted');
    await known(name, { said: 'x' });
    const odd = ['q"uo\\te', 'a\\"b', '{x,y}', 'NULL', ' spaced ', 'é😀'];
    const events = odd.map((text) => ({ ...event(name, text, { said: `he said "${text}" \\ bye` }), id: `${unique('id')}${text}` }));
    expect((await send(events)).json).toEqual({ accepted: odd.length, rejected: [] });
    for (const e of events) {
      const kept = await t.svc.db.event.findFirstOrThrow({ where: { id: e.id } });
      expect([kept.externalId, kept.props]).toEqual([e.external_id, e.props]);
    }
  });

  it('keeps the time to the millisecond and counts it on its UTC day', async () => {
    const name = unique('timed');
    await known(name, {});
    const times = ['1999-12-31T23:59:59.999Z', '1969-12-31T23:59:59.999Z', '2026-03-01T00:30:00.1239+01:00'];
    const events = times.map((time) => ({ ...event(name, 'fp-3'), at: time }));
    expect((await send(events)).json.accepted).toBe(3);
    for (const [i, e] of events.entries())
      expect((await t.svc.db.event.findFirstOrThrow({ where: { id: e.id } })).occurredAt.getTime()).toBe(new Date(times[i]!).getTime());
    const days = (await t.svc.db.eventDailyCount.findMany({ where: { name }, orderBy: { day: 'asc' } })).map((c) =>
      c.day.toISOString().slice(0, 10),
    );
    expect(days).toEqual(['1969-12-31', '1999-12-31', '2026-02-28', at().slice(0, 10)].sort());
  });
});

describe('the erase check on the one-statement path', () => {
  it('refuses an erased person whatever else is wrong, names nobody, and refuses a batch of nothing else with 409', async () => {
    const name = unique('bought');
    await known(name, { amount: '1' });
    await erased('fp-gone');
    const { answer: r, transactions } = await counting(() =>
      send([event(name, 'fp-gone', { amount: '2' }), event(name, 'fp-gone', { amount: 'bad' }), event(name, 'fp-here', { amount: '3' })]),
    );
    expect(transactions).toBe(0);
    expect(r.status).toBe(202);
    expect(r.json.accepted).toBe(1);
    expect(r.json.rejected.map((x: { index: number; reason: string }) => [x.index, x.reason])).toEqual([
      [0, 'erased'],
      [1, 'erased'],
    ]);
    const all = await send([event(name, 'fp-gone', { amount: '2' })]);
    expect([all.status, all.json.code]).toEqual([409, 'erased']);
    expect(await t.svc.db.event.count({ where: { externalId: 'fp-gone' } })).toBe(0);
    expect(await t.svc.db.refusedEvent.count({ where: { externalId: 'fp-gone' } })).toBe(0);
    const mode = await modeIdOf(t, app.live.app_key);
    const anonymous = await t.svc.db.refusedEvent.findMany({ where: { appModeId: mode, reason: 'erased', receivedAt: t.clock.now() } });
    expect(anonymous.length).toBeGreaterThanOrEqual(3);
    for (const a of anonymous) expect(a).toMatchObject({ eventId: null, name: null, externalId: null });
  });
});

describe('a definition cached before it grew', () => {
  it('sends an event with a prop the copy lacks down the locked path, which types it by the grown definition', async () => {
    const name = unique('trial');
    await known(name, { days: '14' });
    // Grown elsewhere: another process sees `seats` first, as a number; a declaration adds `coupon` as text.
    expect((await send([event(name, 'fp-4', { seats: '5' })], other)).json.accepted).toBe(1);
    await serverApi(t, app.live.server_key).declareEvents([{ name, props: [{ key: 'coupon', type: 'string' }] }]);
    const { answer: r, transactions } = await counting(() =>
      send([event(name, 'fp-4', { seats: 'many' }), event(name, 'fp-4', { coupon: '2024' })]),
    );
    expect(transactions).toBe(1);
    expect(r.json.rejected.map((x: { index: number; reason: string }) => [x.index, x.reason])).toEqual([[0, 'invalid_prop']]);
    const kept = await t.svc.db.event.findMany({ where: { name, externalId: 'fp-4' } });
    expect(kept.map((e) => e.props)).toContainEqual({ coupon: '2024' });
    // Cached again as it is now: an event with known props goes in one statement.
    const again = await counting(() => send([event(name, 'fp-4', { days: '7', seats: '2', coupon: 'x' })]));
    expect([again.answer.json.accepted, again.transactions]).toEqual([1, 0]);
  });
});
