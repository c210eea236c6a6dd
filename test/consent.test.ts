import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SeededApp, type TestServer, startWithApp } from './support/server.js';
import { call, userToken } from './support/http.js';

let t: TestServer;
let app: SeededApp;
beforeAll(async () => ({ t, app } = await startWithApp()));
afterAll(() => t.close());

const guest = async (sub = 'user-1') => ({ 'X-CRM-App-Key': app.live.app_key, Authorization: `Bearer ${await userToken(app.live.identity_secret, { sub })}` });

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
    const testMode = { 'X-CRM-App-Key': app.test.app_key, Authorization: `Bearer ${await userToken(app.test.identity_secret, { sub: 'p1' })}` };
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

  it('refuses a body without offers_by_push, naming the field', async () => {
    const r = await call(t.url, 'PUT', '/guest/v1/consent', { headers: await guest(), json: { offers_by_push: 'yes' } });
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
    expect(r.json.errors[0].field).toBe('offers_by_push');
  });
});
