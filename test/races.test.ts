import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, userToken } from './support/http.js';
import { seedApp, startTestServer, testConfig, type SeededApp, type TestServer } from './support/server.js';

// The same request many times at once, and the database connection cut mid-request: each ends
// in the right answer or a clear refusal, never a 500.

let t: TestServer;
let app: SeededApp;
// The clients here send as fast as the server answers, for as long as an erase takes on a busy
// machine: the rate limits are not what is tested.
beforeAll(async () => {
  t = await startTestServer({ config: testConfig({}, { guestAddressPerMinute: 1_000_000, guestAppPerMinute: 1_000_000 }) });
  app = await seedApp(t.svc);
});
afterAll(() => t?.close());

const guest = async (sub: string) => ({
  'X-CRM-App-Key': app.live.app_key,
  Authorization: `Bearer ${await userToken(app.live.identity_secret, { sub })}`,
});
const serverKey = () => ({ Authorization: `Bearer ${app.live.server_key}` });
const guestEvents = (headers: Record<string, string>) =>
  call(t.url, 'POST', '/guest/v1/events', {
    headers,
    json: {
      app_version: '1',
      platform: 'android',
      events: [{ id: randomUUID(), name: 'app_opened', occurred_at: t.clock.now().toISOString() }],
    },
  });

describe('first sight of a person', () => {
  it('40 first requests at once of a new user all succeed, and make one contact', async () => {
    for (const round of ['consent', 'events']) {
      const headers = await guest(`first-${round}`);
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          round === 'consent' && i % 2 ? call(t.url, 'GET', '/guest/v1/consent', { headers }) : guestEvents(headers),
        ),
      );
      expect(answers.map((a) => a.status).filter((s) => s >= 500)).toEqual([]);
      expect(await t.svc.db.contact.count({ where: { externalId: `first-${round}` } })).toBe(1);
    }
  });

  it('consent chosen while the person is being erased is refused cleanly, never a 500', async () => {
    const id = 'consent-during-erase';
    const headers = await guest(id);
    expect((await call(t.url, 'PUT', '/guest/v1/consent', { headers, json: { offers_by_push: true } })).status).toBe(200);
    // Three clients choose again and again while the erase is asked for and runs.
    let erasing = true;
    const statuses: number[] = [];
    const chooser = async () => {
      for (let i = 0; erasing || i < 5; i++)
        statuses.push((await call(t.url, 'PUT', '/guest/v1/consent', { headers, json: { offers_by_push: i % 2 === 0 } })).status);
    };
    const choosers = [chooser(), chooser(), chooser()];
    await new Promise((r) => setTimeout(r, 50));
    expect((await call(t.url, 'DELETE', `/server/v1/contacts/${id}`, { headers: serverKey() })).status).toBe(202);
    await t.engine.runDue();
    erasing = false;
    await Promise.all(choosers);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(await t.svc.db.contact.count({ where: { externalId: id } })).toBe(0);
    expect(await t.svc.db.consentChange.count({ where: { contact: { externalId: id } } })).toBe(0);
  });
});

describe('a database connection cut mid-request', () => {
  it('answers every request, a read retried on a fresh connection, a write refused with 503', async () => {
    const killer = new pg.Client({ connectionString: t.dbUrl });
    await killer.connect();
    const headers = await guest('under-fire');
    const statuses: number[] = [];
    try {
      for (let round = 0; round < 8; round++) {
        const requests = Array.from({ length: 24 }, (_, i) =>
          i % 3 === 0
            ? call(t.url, 'GET', '/guest/v1/consent', { headers })
            : i % 3 === 1
              ? call(t.url, 'PUT', `/server/v1/contacts/under-fire-${i}`, { headers: serverKey(), json: { display_name: 'Fire' } })
              : guestEvents(headers),
        );
        await new Promise((r) => setTimeout(r, 5 + round * 3));
        await killer.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
        );
        statuses.push(...(await Promise.all(requests)).map((r) => r.status));
      }
    } finally {
      await killer.end();
    }
    expect(statuses.filter((s) => ![200, 202, 503].includes(s))).toEqual([]);
    // The service comes back by itself: the pool replaces what was cut.
    await expect.poll(async () => (await call(t.url, 'GET', '/guest/v1/consent', { headers })).status, { timeout: 5000 }).toBe(200);
  });
});
