import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { purgeEraseRequests } from '../src/domain/contacts/erasure.js';
import { call, userToken } from './support/http.js';
import { type SeededApp, type TestServer, startWithApp } from './support/server.js';

// Erase that stays done: during the 30-day block nothing re-creates or names the person, and
// after it the request itself is forgotten.

let t: TestServer;
let app: SeededApp;
beforeAll(async () => ({ t, app } = await startWithApp()));
afterAll(() => t?.close());

const server = (method: string, path: string, json?: unknown) =>
  call(t.url, method, path, { headers: { Authorization: `Bearer ${app.live.server_key}` }, json });
// Tokens valid on the service's clock, which these tests move.
const guest = async (sub: string) => {
  const now = Math.floor(t.clock.now().getTime() / 1000);
  return {
    'X-CRM-App-Key': app.live.app_key,
    Authorization: `Bearer ${await userToken(app.live.identity_secret, { sub, iat: now, exp: now + 3600 })}`,
  };
};
const guestEvents = async (sub: string, n = 1) =>
  call(t.url, 'POST', '/guest/v1/events', {
    headers: await guest(sub),
    json: {
      app_version: '1',
      platform: 'ios',
      events: Array.from({ length: n }, () => ({ id: randomUUID(), name: 'app_opened', occurred_at: t.clock.now().toISOString() })),
    },
  });
const serverEvent = (externalId: string) => ({
  id: randomUUID(),
  external_id: externalId,
  name: 'order_paid',
  at: t.clock.now().toISOString(),
});

/** Every row of the database that names the person, table by table (both modes). */
async function rowsNaming(externalId: string) {
  const db = t.svc.db;
  return {
    contacts: await db.contact.count({ where: { externalId } }),
    events: await db.event.count({ where: { externalId } }),
    refusedEvents: await db.refusedEvent.count({ where: { externalId } }),
    outbox: await db.outboxEvent.count({ where: { externalId } }),
    eraseRequests: await db.eraseRequest.count({ where: { externalId } }),
  };
}
const NOTHING = { contacts: 0, events: 0, refusedEvents: 0, outbox: 0, eraseRequests: 0 };

async function erased(externalId: string) {
  expect((await server('PUT', `/server/v1/contacts/${externalId}`, { display_name: 'Someone' })).status).toBe(200);
  expect((await server('DELETE', `/server/v1/contacts/${externalId}`)).status).toBe(202);
  await t.engine.runDue();
}

describe('during the block', () => {
  it('the guest consent routes neither re-create the person nor keep a choice', async () => {
    await erased('consent-gone');
    const headers = await guest('consent-gone');
    const read = await call(t.url, 'GET', '/guest/v1/consent', { headers });
    expect(read.status).toBe(200);
    expect(read.json).toEqual({ offers_by_email: false, offers_by_push: false, changed_at: null });
    const put = await call(t.url, 'PUT', '/guest/v1/consent', { headers, json: { offers_by_push: true } });
    expect(put.status).toBe(200);
    expect(put.json).toEqual({ offers_by_email: false, offers_by_push: false, changed_at: null });
    expect(await rowsNaming('consent-gone')).toEqual(NOTHING);
    expect(await t.svc.db.consentChange.count({ where: { contact: { externalId: 'consent-gone' } } })).toBe(0);
    expect((await server('GET', '/server/v1/contacts/consent-gone/export')).status).toBe(404);
  });

  it('refused events of an erased person are counted but name nobody', async () => {
    await erased('refused-gone');
    const r = await server('POST', '/server/v1/events', { events: [serverEvent('refused-gone'), serverEvent('still-here')] });
    expect(r.status).toBe(202);
    expect(r.json.rejected).toEqual([expect.objectContaining({ index: 0, reason: 'erased' })]);
    expect((await server('POST', '/server/v1/events', { events: [serverEvent('refused-gone')] })).json.code).toBe('erased');
    expect((await guestEvents('refused-gone')).status).toBe(409);
    expect(await rowsNaming('refused-gone')).toEqual(NOTHING);
    const refusal = await t.svc.db.refusedEvent.findFirstOrThrow({ where: { reason: 'erased' } });
    expect(refusal).toMatchObject({ externalId: null, eventId: null, name: null });
  });

  it('keeps only a keyed hash of the id once the erase is done', async () => {
    await erased('hash-only');
    const requests = await t.svc.db.eraseRequest.findMany({ where: { state: 'done' } });
    expect(requests.length).toBeGreaterThan(0);
    for (const r of requests) {
      expect(r.externalId).toBeNull();
      expect(r.subjectHash).toMatch(/^[0-9a-f]{64}$/);
      expect(r.subjectHash).not.toContain(Buffer.from('hash-only').toString('hex'));
    }
    // The block holds by the hash alone, and asking again answers the same request.
    expect((await server('PUT', '/server/v1/contacts/hash-only', {})).json.code).toBe('erased');
    const again = await server('DELETE', '/server/v1/contacts/hash-only');
    expect(again.json).toMatchObject({ external_id: 'hash-only', state: 'done' });
  });

  it('nothing written in a race with the erase outlives it', async () => {
    const id = 'racing';
    await erased(id);
    t.clock.advance(31 * 86_400_000); // a fresh start for the id: the old block is over
    expect((await server('PUT', `/server/v1/contacts/${id}`, { display_name: 'Again' })).status).toBe(200);
    const headers = await guest(id);
    const writes = Array.from({ length: 40 }, (_, i) =>
      i % 4 === 0
        ? call(t.url, 'PUT', '/guest/v1/consent', { headers, json: { offers_by_push: i % 8 === 0 } })
        : i % 4 === 1
          ? server('POST', '/server/v1/events', { events: [serverEvent(id), serverEvent(id)] })
          : i % 4 === 2
            ? server('PUT', `/server/v1/contacts/${id}`, { attributes: { round: i } })
            : guestEvents(id, 3),
    );
    const [eraseAnswer, ...answers] = await Promise.all([server('DELETE', `/server/v1/contacts/${id}`), ...writes]);
    expect(eraseAnswer.status).toBe(202);
    // Before the request each write is kept; after it, refused: never a 500.
    for (const a of answers) expect([200, 202, 409]).toContain(a.status);
    await t.engine.runDue();
    expect(await rowsNaming(id)).toEqual(NOTHING);
  });
});

describe('after the block', () => {
  it('the request is purged and the id is taken again', async () => {
    await erased('purged');
    expect(await t.svc.db.eraseRequest.count()).toBeGreaterThan(0);
    t.clock.advance(30 * 86_400_000 + 1000);
    await purgeEraseRequests(t.ctx);
    const left = await t.svc.db.eraseRequest.findMany({ where: { blockedUntil: { lte: t.clock.now() } } });
    expect(left).toEqual([]);
    expect((await server('PUT', '/server/v1/contacts/purged', {})).json).toEqual({ external_id: 'purged', created: true });
  });
});
