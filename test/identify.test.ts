import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateSettings } from '../src/domain/apps/settings.js';
import { call } from './support/http.js';
import { modeIdOf } from './support/factories.js';
import { type SeededApp, type TestServer, seedApp, startWithApp } from './support/server.js';

let t: TestServer;
let app: SeededApp;
beforeAll(async () => ({ t, app } = await startWithApp()));
afterAll(() => t.close());

const put = (id: string, body: unknown, key = app.live.server_key) =>
  call(t.url, 'PUT', `/server/v1/contacts/${encodeURIComponent(id)}`, { headers: { Authorization: `Bearer ${key}` }, json: body });
const contact = (id: string) => t.svc.db.contact.findFirstOrThrow({ where: { externalId: id, appMode: { appKey: app.live.app_key } } });
const fieldsOf = (r: Awaited<ReturnType<typeof call>>) => (r.json.errors as { field: string }[]).map((e) => e.field).sort();

describe('Identify', () => {
  it('makes the contact the first time, and is safe to repeat', async () => {
    const first = await put('u1', {
      display_name: 'Ann',
      email: 'Ann@Example.com',
      language: 'pt-BR',
      time_zone: 'Europe/Paris',
      provider: 'google',
    });
    expect(first.status).toBe(200);
    expect(first.json).toEqual({ external_id: 'u1', created: true });
    const again = await put('u1', { display_name: 'Ann' });
    expect(again.json).toEqual({ external_id: 'u1', created: false });
    expect(await contact('u1')).toMatchObject({
      displayName: 'Ann',
      email: 'ann@example.com',
      language: 'pt-BR',
      timeZone: 'Europe/Paris',
      provider: 'google',
    });
  });

  it('changes only sent fields; empty clears a field; null removes an attribute', async () => {
    await put('u2', { display_name: 'Bo', email: 'bo@example.com', attributes: { plan: 'pro', seats: 3 } });
    await put('u2', { email: '', attributes: { seats: null, trial: true } });
    const c = await contact('u2');
    expect(c.displayName).toBe('Bo');
    expect(c.email).toBeNull();
    expect(c.attributes).toEqual({ plan: 'pro', trial: true });
  });

  it('takes attribute names that objects carry themselves', async () => {
    expect((await put('u7', { attributes: { constructor: 'x', toString: 'y' } })).status).toBe(200);
    await put('u7', { attributes: { constructor: null } });
    expect((await contact('u7')).attributes).toEqual({ toString: 'y' });
  });

  it('makes unknown attributes on first sight with their type, listed for review', async () => {
    // An app of its own, so that no attribute here is known before.
    const own = await seedApp(t.svc, 'First sight');
    await put(
      'u3',
      {
        attributes: {
          first_order: '2026-01-02',
          last_login: '2026-11-20T10:00:00Z',
          tags_seen: ['a', 'b'],
          score: 4.5,
          vip: false,
          city_name: 'Lyon',
        },
      },
      own.live.server_key,
    );
    const defs = await t.svc.db.attributeDefinition.findMany({
      where: {
        appModeId: await modeIdOf(t, own.live.app_key),
        name: { in: ['first_order', 'last_login', 'tags_seen', 'score', 'vip', 'city_name'] },
      },
      orderBy: { name: 'asc' },
    });
    expect(Object.fromEntries(defs.map((d) => [d.name, d.type]))).toEqual({
      city_name: 'string',
      first_order: 'date',
      last_login: 'time',
      score: 'number',
      tags_seen: 'list',
      vip: 'boolean',
    });
    expect(defs.every((d) => d.needsReview)).toBe(true);
  });

  it('holds every attribute to its type, naming each bad one, and changes nothing then', async () => {
    expect((await put('u4-dates', { attributes: { first_order: '2026-01-02' } })).status).toBe(200); // first_order: a date
    await put('u4', { attributes: { plan: 'basic', seats: 1 } });
    const r = await put('u4', {
      display_name: 'Changed',
      attributes: { plan: 5, seats: 'many', first_order: 'yesterday', nested: { a: 1 } },
    });
    expect(r.status).toBe(400);
    expect(fieldsOf(r)).toEqual(['attributes.first_order', 'attributes.nested', 'attributes.plan', 'attributes.seats']);
    const c = await contact('u4');
    expect(c.displayName).toBeNull();
    expect(c.attributes).toEqual({ plan: 'basic', seats: 1 });
    expect(await t.svc.db.attributeDefinition.count({ where: { name: 'nested' } })).toBe(0);
  });

  it('refuses computed attributes and contact fields sent as attributes', async () => {
    const r = await put('u5', { attributes: { last_seen_at: '2026-01-01T00:00:00Z', session_count: 3, email: 'x@example.com' } });
    expect(r.status).toBe(400);
    expect(fieldsOf(r)).toEqual(['attributes.email', 'attributes.last_seen_at', 'attributes.session_count']);
  });

  it('refuses unknown attributes under strict data, but takes defined ones', async () => {
    // An app of its own: strict data would hold every later test of the mode to it.
    const own = await seedApp(t.svc, 'Strict data');
    await put('s1', { attributes: { plan: 'pro' } }, own.test.server_key);
    await updateSettings(t.ctx, await modeIdOf(t, own.test.app_key), { strictData: true });
    const r = await put('s1', { attributes: { plan: 'team', brand_new: 'x' } }, own.test.server_key);
    expect(r.status).toBe(400);
    expect(fieldsOf(r)).toEqual(['attributes.brand_new']);
    expect((await put('s1', { attributes: { plan: 'team' } }, own.test.server_key)).status).toBe(200);
  });

  it('holds the fields to their rules', async () => {
    const r = await put('u6', {
      display_name: 'x'.repeat(101),
      language: 'not a tag!',
      time_zone: 'Mars/Olympus',
      provider: 'a b',
      signed_up_at: 'last week',
      email: 'nope',
    });
    expect(r.status).toBe(400);
    expect(fieldsOf(r)).toEqual(['display_name', 'email', 'language', 'provider', 'signed_up_at', 'time_zone']);
    expect((await put('u6', { provider: 'x'.repeat(40), signed_up_at: '2025-03-04T05:06:07+02:00' })).status).toBe(200);
    expect((await put('u6', { provider: 'x'.repeat(41) })).status).toBe(400);
  });

  it('takes a path id of 1 to 200 characters', async () => {
    expect((await put('x'.repeat(200), {})).status).toBe(200);
    const r = await put('x'.repeat(201), {});
    expect(r.status).toBe(400);
    expect(r.json.errors[0].field).toBe('external_id');
  });

  it('writes contact.created and contact.updated to the outbox with the change', async () => {
    await put('o1', { display_name: 'Ola' });
    await put('o1', { display_name: 'Ola' }); // nothing changed: nothing to say
    await put('o1', { display_name: 'Olga' });
    const rows = await t.svc.db.outboxEvent.findMany({ where: { externalId: 'o1' }, orderBy: { id: 'asc' } });
    expect(rows.map((r) => r.topic)).toEqual(['contact.created', 'contact.updated']);
  });
});

describe('consent through Identify', () => {
  const consentOf = async (id: string) => {
    const c = await contact(id);
    return { email: c.offersByEmail, push: c.offersByPush };
  };

  it('with changed_at, the newer choice wins and a stale yes never re-enables', async () => {
    await put('c1', { consent: { offers_by_email: true, changed_at: '2026-01-01T00:00:00Z' } });
    await put('c1', { consent: { offers_by_email: false, changed_at: '2026-02-01T00:00:00Z' } });
    await put('c1', { consent: { offers_by_email: true, changed_at: '2026-01-15T00:00:00Z' } }); // stale copy
    expect((await consentOf('c1')).email).toBe(false);
    await put('c1', { consent: { offers_by_email: true, changed_at: '2026-03-01T00:00:00Z' } });
    expect((await consentOf('c1')).email).toBe(true);
  });

  it('without changed_at, a no is always taken and a yes ignored after a no', async () => {
    await put('c2', { consent: { offers_by_push: true } });
    expect((await consentOf('c2')).push).toBe(true);
    await put('c2', { consent: { offers_by_push: false } });
    expect((await consentOf('c2')).push).toBe(false);
    await put('c2', { consent: { offers_by_push: true } });
    expect((await consentOf('c2')).push).toBe(false);
    // A dated yes newer than the no is the person's own later choice.
    t.clock.advance(60_000);
    await put('c2', { consent: { offers_by_push: true, changed_at: t.clock.now().toISOString() } });
    expect((await consentOf('c2')).push).toBe(true);
  });

  it('each channel keeps its own choice', async () => {
    await put('c3', { consent: { offers_by_email: false, offers_by_push: true } });
    expect(await consentOf('c3')).toEqual({ email: false, push: true });
  });
});
