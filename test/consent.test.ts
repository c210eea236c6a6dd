import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SeededApp, type TestServer, startWithApp } from './support/server.js';
import { call, userToken } from './support/http.js';

let t: TestServer;
let app: SeededApp;
beforeAll(async () => ({ t, app } = await startWithApp()));
afterAll(() => t.close());

const guest = async (sub = 'user-1') => ({
  'X-CRM-App-Key': app.live.app_key,
  Authorization: `Bearer ${await userToken(app.live.identity_secret, { sub })}`,
});

/** The contact row's version (xmin changes with every write to it), SDK and update time. */
async function rowOf(externalId: string) {
  const rows = await t.svc.db.$queryRaw<{ version: string; last_sdk: string | null; updated_at: Date }[]>`
    SELECT xmin::text AS version, last_sdk, updated_at FROM contact WHERE external_id = ${externalId}`;
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

describe('guest consent', () => {
  it('answers the defaults for a new person and makes the contact on first sight', async () => {
    const r = await call(t.url, 'GET', '/guest/v1/consent', { headers: await guest('first-sight') });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ offers_by_email: false, offers_by_push: false, changed_at: null });
    const contact = await t.svc.db.contact.findFirst({ where: { externalId: 'first-sight' } });
    expect(contact).not.toBeNull();
  });

  it('takes the choice, records when, and keeps it apart per mode', async () => {
    const r = await call(t.url, 'PUT', '/guest/v1/consent', { headers: await guest('p1'), json: { offers_by_push: true } });
    expect(r.status).toBe(200);
    expect(r.json.offers_by_push).toBe(true);
    expect(r.json.changed_at).toBe(t.clock.now().toISOString());
    const testMode = {
      'X-CRM-App-Key': app.test.app_key,
      Authorization: `Bearer ${await userToken(app.test.identity_secret, { sub: 'p1' })}`,
    };
    expect((await call(t.url, 'GET', '/guest/v1/consent', { headers: testMode })).json.offers_by_push).toBe(false);
  });

  it('lets the person say yes again after a no: their choice in the app is the newest', async () => {
    const h = await guest('p2');
    await call(t.url, 'PUT', '/guest/v1/consent', { headers: h, json: { offers_by_push: false } });
    t.clock.advance(1000);
    const r = await call(t.url, 'PUT', '/guest/v1/consent', { headers: h, json: { offers_by_push: true } });
    expect(r.json.offers_by_push).toBe(true);
    const history = await t.svc.db.consentChange.findMany({ where: { contact: { externalId: 'p2' } }, orderBy: { recordedAt: 'asc' } });
    expect(history.map((h) => h.value)).toEqual([false, true]);
  });

  it('keeps one history entry when the same choice is sent 50 times at once, or again later', async () => {
    const h = await guest('p-repeat');
    // The person is known already, as after the app's first start: the 50 race on the choice alone.
    expect((await call(t.url, 'GET', '/guest/v1/consent', { headers: h })).status).toBe(200);
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => call(t.url, 'PUT', '/guest/v1/consent', { headers: h, json: { offers_by_push: true } })),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(50).fill(200));
    const at = t.clock.now().toISOString();
    expect(new Set(answers.map((r) => r.json.changed_at))).toEqual(new Set([at]));
    const historyOf = () => t.svc.db.consentChange.findMany({ where: { contact: { externalId: 'p-repeat' } } });
    expect((await historyOf()).map((c) => c.value)).toEqual([true]);
    t.clock.advance(1000);
    const again = await call(t.url, 'PUT', '/guest/v1/consent', { headers: h, json: { offers_by_push: true } });
    expect(again.json).toMatchObject({ offers_by_push: true, changed_at: at });
    expect((await historyOf()).map((c) => c.value)).toEqual([true]);
  });

  it('refuses a body without offers_by_push, naming the field', async () => {
    const r = await call(t.url, 'PUT', '/guest/v1/consent', { headers: await guest(), json: { offers_by_push: 'yes' } });
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
    expect(r.json.errors[0].field).toBe('offers_by_push');
  });

  it('answers the stored choice on a later read, with when it was made', async () => {
    const h = await guest('read-back');
    const chosen = await call(t.url, 'PUT', '/guest/v1/consent', { headers: h, json: { offers_by_push: true } });
    t.clock.advance(5000);
    const r = await call(t.url, 'GET', '/guest/v1/consent', { headers: h });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ offers_by_email: false, offers_by_push: true, changed_at: chosen.json.changed_at });
  });

  it('a read writes nothing when nothing changed, and records a new X-CRM-Sdk', async () => {
    const h = await guest('quiet-reader');
    const read = (sdk?: string) => call(t.url, 'GET', '/guest/v1/consent', { headers: sdk ? { ...h, 'X-Crm-Sdk': sdk } : h });
    expect((await read('ios/1.0.0')).status).toBe(200);
    const first = await rowOf('quiet-reader');
    expect(first.last_sdk).toBe('ios/1.0.0');
    t.clock.advance(1000);
    expect((await read('ios/1.0.0')).status).toBe(200);
    expect((await read('ios/1.0.0')).status).toBe(200);
    // No header: the SDK last seen is kept, nothing written.
    expect((await read()).status).toBe(200);
    expect(await rowOf('quiet-reader')).toEqual(first);

    t.clock.advance(1000);
    expect((await read('ios/1.1.0')).status).toBe(200);
    const upgraded = await rowOf('quiet-reader');
    expect(upgraded.last_sdk).toBe('ios/1.1.0');
    expect(upgraded.version).not.toBe(first.version);
    expect(upgraded.updated_at.toISOString()).toBe(t.clock.now().toISOString());
  });

  it('a choice or an event with the SDK unchanged writes nothing more to the contact', async () => {
    const h = { ...(await guest('quiet-writer')), 'X-Crm-Sdk': 'android/2.0.0' };
    expect((await call(t.url, 'PUT', '/guest/v1/consent', { headers: h, json: { offers_by_push: true } })).status).toBe(200);
    const before = await rowOf('quiet-writer');
    // The same choice at the same instant changes nothing; an event does not touch the contact row.
    expect((await call(t.url, 'PUT', '/guest/v1/consent', { headers: h, json: { offers_by_push: true } })).status).toBe(200);
    const event = {
      app_version: '1',
      platform: 'android',
      events: [{ id: randomUUID(), name: 'app_opened', occurred_at: t.clock.now().toISOString() }],
    };
    expect((await call(t.url, 'POST', '/guest/v1/events', { headers: h, json: event })).status).toBe(202);
    expect(await rowOf('quiet-writer')).toEqual(before);

    const next = { ...event, events: [{ ...event.events[0]!, id: randomUUID() }] };
    expect((await call(t.url, 'POST', '/guest/v1/events', { headers: { ...h, 'X-Crm-Sdk': 'android/2.1.0' }, json: next })).status).toBe(
      202,
    );
    expect((await rowOf('quiet-writer')).last_sdk).toBe('android/2.1.0');
  });
});
