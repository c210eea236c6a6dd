import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subjectHash } from '../src/domain/contacts/erasure.js';
import { buildActivities } from '../workflows/processes/activities.js';
import { call, userToken } from './support/http.js';
import { ENGINES, type SeededApp, type TestServer, sayIfTemporalSkipped, seedApp, startTestServer } from './support/server.js';

// DELETE /server/v1/contacts/{external_id}: a durable process removes the person in both modes,
// keeps the anonymous daily counts, and for 30 days refuses Identify and events for the id. On
// both engines: the embedded one, and Temporal where TEMPORAL_ADDRESS names a server.

let t: TestServer;
let app: SeededApp;
sayIfTemporalSkipped('test/erase.test.ts');

const as = (key: string) => ({ headers: { Authorization: `Bearer ${key}` } });
const identify = (
  server: TestServer,
  key: string,
  id: string,
  body: unknown = { display_name: 'Erin', attributes: { plan: 'pro' }, consent: { offers_by_email: true } },
) => call(server.url, 'PUT', `/server/v1/contacts/${id}`, { ...as(key), json: body });
const events = (server: TestServer, key: string, id: string, n = 3) =>
  call(server.url, 'POST', '/server/v1/events', {
    ...as(key),
    json: {
      events: Array.from({ length: n }, () => ({
        id: randomUUID(),
        external_id: id,
        name: 'order_paid',
        at: server.clock.now().toISOString(),
      })),
    },
  });
const erase = (server: TestServer, key: string, id: string) => call(server.url, 'DELETE', `/server/v1/contacts/${id}`, as(key));
const exportOf = (server: TestServer, key: string, id: string) => call(server.url, 'GET', `/server/v1/contacts/${id}/export`, as(key));
const kept = async (server: TestServer, id: string) => ({
  contacts: await server.svc.db.contact.count({ where: { externalId: id } }),
  events: await server.svc.db.event.count({ where: { externalId: id } }),
  consent: await server.svc.db.consentChange.count({ where: { contact: { externalId: id } } }),
});
const dailyTotal = async (server: TestServer) =>
  (await server.svc.db.eventDailyCount.findMany({ where: { name: 'order_paid' } })).reduce((n, r) => n + r.count, 0);

async function person(server: TestServer, id: string) {
  for (const key of [app.live.server_key, app.test.server_key]) {
    expect((await identify(server, key, id)).status).toBe(200);
    expect((await events(server, key, id)).json.accepted).toBe(3);
  }
}

describe.each(ENGINES)('on the $engine engine', ({ engine, skip }) => {
  describe.skipIf(skip)('', () => {
    beforeAll(async () => {
      t = await startTestServer({ engine });
      app = await seedApp(t.svc);
    });
    afterAll(() => t?.close());

    describe('erase', () => {
      it('removes everything of the person in the live and the test app, keeping the daily counts', async () => {
        await person(t, 'erin');
        await person(t, 'other');
        const counts = await dailyTotal(t);
        expect(await kept(t, 'erin')).toEqual({ contacts: 2, events: 6, consent: 2 });

        const r = await erase(t, app.live.server_key, 'erin');
        expect(r.status).toBe(202);
        expect(r.json).toMatchObject({ external_id: 'erin', state: 'queued' });
        await t.engine.runDue();

        expect(await kept(t, 'erin')).toEqual({ contacts: 0, events: 0, consent: 0 });
        expect(await kept(t, 'other')).toEqual({ contacts: 2, events: 6, consent: 2 });
        expect(await dailyTotal(t)).toBe(counts);
        expect((await exportOf(t, app.live.server_key, 'erin')).status).toBe(404);
        expect((await exportOf(t, app.test.server_key, 'erin')).status).toBe(404);
        const request = await t.svc.db.eraseRequest.findFirstOrThrow({ where: { subjectHash: subjectHash(t.svc, app.appId, 'erin') } });
        expect(request).toMatchObject({ state: 'done', removed: { contacts: 2, events: 6 } });
        expect(await t.engine.describe(request.id)).toMatchObject({ state: 'ended', outcome: { erased: true } });
      });

      it('is safe to ask twice: one request, one run', async () => {
        await person(t, 'twice');
        const [a, b] = await Promise.all([erase(t, app.live.server_key, 'twice'), erase(t, app.test.server_key, 'twice')]);
        expect([a.status, b.status]).toEqual([202, 202]);
        expect((await erase(t, app.live.server_key, 'twice')).status).toBe(202);
        await t.engine.runDue();
        expect(await t.svc.db.eraseRequest.count({ where: { subjectHash: subjectHash(t.svc, app.appId, 'twice') } })).toBe(1);
        expect(
          await t.engine.runs(
            'erase',
            (await t.svc.db.eraseRequest.findFirstOrThrow({ where: { subjectHash: subjectHash(t.svc, app.appId, 'twice') } })).id,
          ),
        ).toBe(1);
        expect(await kept(t, 'twice')).toEqual({ contacts: 0, events: 0, consent: 0 });
      });

      it('refuses Identify and events for the id with 409 erased for 30 days, then takes them again', async () => {
        await person(t, 'blocked');
        await erase(t, app.live.server_key, 'blocked');
        // Refused at once, before the process has run: nothing in flight re-creates the person.
        for (const key of [app.live.server_key, app.test.server_key]) {
          const r = await identify(t, key, 'blocked');
          expect(r.status).toBe(409);
          expect(r.json.code).toBe('erased');
          const e = await events(t, key, 'blocked', 2);
          expect(e.status).toBe(409);
          expect(e.json.code).toBe('erased');
        }
        const mixed = await call(t.url, 'POST', '/server/v1/events', {
          ...as(app.live.server_key),
          json: {
            events: [
              { id: randomUUID(), external_id: 'blocked', name: 'x', at: t.clock.now().toISOString() },
              { id: randomUUID(), external_id: 'fine', name: 'x', at: t.clock.now().toISOString() },
            ],
          },
        });
        expect(mixed.status).toBe(202);
        expect(mixed.json).toMatchObject({ accepted: 1, rejected: [{ index: 0, reason: 'erased' }] });
        const guest = {
          'X-CRM-App-Key': app.live.app_key,
          Authorization: `Bearer ${await userToken(app.live.identity_secret, { sub: 'blocked' })}`,
        };
        const g = await call(t.url, 'POST', '/guest/v1/events', {
          headers: guest,
          json: {
            app_version: '1',
            platform: 'web',
            events: [{ id: randomUUID(), name: 'app_opened', occurred_at: t.clock.now().toISOString() }],
          },
        });
        expect(g.status).toBe(409);
        expect(g.json.code).toBe('erased');
        await t.engine.runDue();

        t.clock.advance(29 * 86_400_000);
        expect((await identify(t, app.live.server_key, 'blocked')).status).toBe(409);
        t.clock.advance(86_400_000 + 1000);
        const back = await identify(t, app.live.server_key, 'blocked');
        expect(back.json).toEqual({ external_id: 'blocked', created: true });
        expect((await events(t, app.live.server_key, 'blocked', 1)).json.accepted).toBe(1);
      });
    });

    // The embedded engine's own take-up after a crash (its lease on the step runs out on the moved
    // clock). On Temporal a stopped worker's activity is taken up by another after its timeout:
    // test/engine-temporal.test.ts kills a worker process mid-activity and shows it.
    describe.runIf(engine === 'embedded')('', () => {
      describe('erase across a restart', () => {
        it('finishes on a new server after the first stopped in the middle of the process', async () => {
          let stalled!: () => void;
          const stuck = new Promise<void>((resolve) => (stalled = resolve));
          // The first server dies while marking the request done: its data step ran, its last did not.
          const first = await startTestServer({
            activities: (svc) => ({ ...buildActivities(svc), finishErase: () => stuck.then(() => undefined) }),
          });
          const ws = await seedApp(first.svc, 'Restart app');
          for (const key of [ws.live.server_key, ws.test.server_key]) {
            await call(first.url, 'PUT', '/server/v1/contacts/rex', { ...as(key), json: { display_name: 'Rex' } });
            await call(first.url, 'POST', '/server/v1/events', {
              ...as(key),
              json: { events: [{ id: 'r1', external_id: 'rex', name: 'x', at: first.clock.now().toISOString() }] },
            });
          }
          expect((await erase(first, ws.live.server_key, 'rex')).status).toBe(202);
          const abandoned = first.engine.runDue().catch(() => undefined);
          const request = await first.svc.db.eraseRequest.findFirstOrThrow({ where: { externalId: 'rex' } });
          await expect.poll(async () => (await first.engine.describe(request.id))?.attempts, { timeout: 5000 }).toBe(1);
          expect(await first.engine.describe(request.id)).toMatchObject({ state: 'active' });
          expect(request.state).not.toBe('done');
          await first.close();

          const second = await startTestServer({ dbUrl: first.dbUrl, clock: first.clock });
          try {
            first.clock.advance(5 * 60_000 + 1000); // the dead server's lease on the step runs out
            await second.engine.runDue();
            first.clock.advance(60_000);
            await second.engine.runDue();
            expect(await second.svc.db.eraseRequest.findUniqueOrThrow({ where: { id: request.id } })).toMatchObject({ state: 'done' });
            expect(await second.engine.describe(request.id)).toMatchObject({ state: 'ended', outcome: { erased: true } });
            expect(await kept(second, 'rex')).toEqual({ contacts: 0, events: 0, consent: 0 });
            expect((await exportOf(second, ws.test.server_key, 'rex')).status).toBe(404);
          } finally {
            stalled();
            await abandoned;
            await second.close();
          }
        });
      });
    });
  });
});
