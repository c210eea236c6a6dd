import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../src/domain/context.js';
import { devicesOf, forgetGoneToken } from '../src/domain/devices/devices.js';
import { createLogger } from '../src/lib/logger.js';
import { staffApp, unique, type StaffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { guestOf } from './support/messenger.js';
import { startTestServer, type TestServer } from './support/server.js';

// Push devices, black-box: registering on every start (idempotent, last seen refreshed), a token
// moving to the person who registers it (also when 50 people register it at once), forgetting
// (204 also when unknown, never another person's), the bounds of a token, and the token as a
// secret: sealed at rest, never logged, never in the export, never on the staff API.

let t: TestServer;
let app: StaffApp;
const lines: string[] = [];
beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  t = await startTestServer({ log: createLogger('debug', sink) });
  app = await staffApp(t);
});
afterAll(() => t?.close());

const { ok } = staffApi(
  () => t.url,
  () => app.owner,
);
const person = (sub = unique('user'), mode: 'live' | 'test' = 'live') => {
  const g = guestOf(t, app[mode], sub);
  return {
    ...g,
    register: (body: Record<string, unknown>) => g.send('PUT', '/guest/v1/devices', body),
    forget: (token: string) => g.send('DELETE', '/guest/v1/devices', { token }),
  };
};
const apnsToken = () => unique('apns').replace('_', '').padEnd(64, '0');
const devicesIn = (appModeId: string, externalId: string) =>
  t.svc.db.device.findMany({ where: { appModeId, contact: { appModeId, externalId } } });
const contactIdOf = async (externalId: string, appModeId = app.modes.live) =>
  (await t.svc.db.contact.findUniqueOrThrow({ where: { appModeId_externalId: { appModeId, externalId } } })).id;

describe('PUT /guest/v1/devices', () => {
  it('registers a device (204) and, sent again on the next start, refreshes it rather than adding one', async () => {
    const p = person();
    const token = apnsToken();
    const r = await p.register({ platform: 'ios', token, app_version: '5.1.0', locale: 'en-GB' });
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    const [first] = await devicesIn(app.modes.live, p.sub);
    expect(first).toMatchObject({ platform: 'ios', appVersion: '5.1.0', locale: 'en-GB' });
    expect(first!.lastSeenAt.toISOString()).toBe(t.clock.now().toISOString());

    t.clock.advance(60_000);
    expect((await p.register({ platform: 'ios', token })).status).toBe(204);
    expect((await p.register({ platform: 'ios', token, app_version: '5.2.0' })).status).toBe(204);
    const after = await devicesIn(app.modes.live, p.sub);
    expect(after).toHaveLength(1);
    // Left out, app_version and locale keep what was known.
    expect(after[0]).toMatchObject({ id: first!.id, appVersion: '5.2.0', locale: 'en-GB', createdAt: first!.createdAt });
    expect(after[0]!.lastSeenAt.toISOString()).toBe(t.clock.now().toISOString());
  });

  it('moves a token registered by another person of the app-mode to the one who registers it', async () => {
    const [a, b] = [person(), person()];
    const token = apnsToken();
    await a.register({ platform: 'android', token, locale: 'de' });
    t.clock.advance(1000);
    expect((await b.register({ platform: 'android', token })).status).toBe(204);
    expect(await devicesIn(app.modes.live, a.sub)).toHaveLength(0);
    const [moved] = await devicesIn(app.modes.live, b.sub);
    // A device that changed hands starts afresh for its new person.
    expect(moved!.createdAt.toISOString()).toBe(t.clock.now().toISOString());
    const ctx = systemContext(t.svc, 'test');
    expect(
      (await devicesOf(ctx, app.modes.live, [await contactIdOf(a.sub), await contactIdOf(b.sub)])).map((d) => [d.contactId, d.token]),
    ).toEqual([[await contactIdOf(b.sub), token]]);
    // The same token in the other mode is that mode's own device.
    const inTest = person(a.sub, 'test');
    expect((await inTest.register({ platform: 'android', token })).status).toBe(204);
    expect(await devicesIn(app.modes.test, a.sub)).toHaveLength(1);
    expect(await devicesIn(app.modes.live, b.sub)).toHaveLength(1);
  });

  it('gives one token to one person when 50 people register it at once', async () => {
    const token = apnsToken();
    const people = Array.from({ length: 50 }, () => person());
    const answers = await Promise.all(people.map((p) => p.register({ platform: 'ios', token })));
    expect(answers.map((r) => r.status)).toEqual(Array(50).fill(204));
    const contactIds = await Promise.all(people.map((p) => contactIdOf(p.sub)));
    const rows = await t.svc.db.device.findMany({ where: { contactId: { in: contactIds } } });
    expect(rows).toHaveLength(1);
    // And the same person registering it 50 times at once keeps one device.
    const p = person();
    await Promise.all(Array.from({ length: 50 }, () => p.register({ platform: 'ios', token })));
    expect(await devicesIn(app.modes.live, p.sub)).toHaveLength(1);
    expect(await t.svc.db.device.count({ where: { contactId: { in: contactIds } } })).toBe(0);
  });

  it('keeps at most 20 devices a person, forgetting the one seen longest ago', async () => {
    const p = person();
    const tokens = Array.from({ length: 21 }, () => apnsToken());
    for (const token of tokens) {
      t.clock.advance(1000);
      expect((await p.register({ platform: 'ios', token })).status).toBe(204);
    }
    const ctx = systemContext(t.svc, 'test');
    const kept = (await devicesOf(ctx, app.modes.live, [await contactIdOf(p.sub)])).map((d) => d.token);
    expect(kept).toHaveLength(20);
    expect(kept).not.toContain(tokens[0]);
  });

  it('keeps exactly 20 devices a person when four people at the bound register 25 more each, 100 at once, each answered 204', async () => {
    // Each holds 20 already: each of the 100 is at its person's bound.
    const people = Array.from({ length: 4 }, () => person());
    for (const p of people)
      for (let i = 0; i < 20; i++) expect((await p.register({ platform: 'android', token: apnsToken() })).status).toBe(204);
    const answers = await Promise.all(
      people.flatMap((p) => Array.from({ length: 25 }, () => p.register({ platform: 'ios', token: apnsToken() }))),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(100).fill(204));
    expect(await Promise.all(people.map(async (p) => (await devicesIn(app.modes.live, p.sub)).length))).toEqual([20, 20, 20, 20]);
  });

  it('refuses a bad platform, token, app version or locale, naming the field', async () => {
    const p = person();
    const field = async (body: Record<string, unknown>) => {
      const r = await p.register(body);
      expect(r.status).toBe(400);
      expect(r.headers.get('content-type')).toContain('application/problem+json');
      return r.json.errors.map((e: { field: string }) => e.field);
    };
    expect(await field({ platform: 'windows', token: 'x' })).toEqual(['platform']);
    expect(await field({ platform: 'ios' })).toEqual(['token']);
    expect(await field({ platform: 'ios', token: '' })).toEqual(['token']);
    expect(await field({ platform: 'ios', token: 'a'.repeat(4097) })).toEqual(['token']);
    expect(await field({ platform: 'ios', token: 'has\nnewline' })).toEqual(['token']);
    expect(await field({ platform: 'ios', token: 'tökén' })).toEqual(['token']);
    expect(await field({ platform: 'web', token: 'not json' })).toEqual(['token']);
    expect(
      await field({ platform: 'web', token: JSON.stringify({ endpoint: 'http://push.example.com/x', keys: { p256dh: 'k', auth: 'a' } }) }),
    ).toEqual(['token']);
    expect(await field({ platform: 'ios', token: apnsToken(), app_version: 'x'.repeat(51), locale: 'english please' })).toEqual([
      'app_version',
      'locale',
    ]);
    // The longest token taken, and a Web Push subscription as JSON.
    expect((await p.register({ platform: 'android', token: 'a'.repeat(4096) })).status).toBe(204);
    const subscription = JSON.stringify({
      endpoint: 'https://fcm.googleapis.com/fcm/send/abc',
      keys: { p256dh: 'BNc...', auth: 'tBH...' },
    });
    expect((await p.register({ platform: 'web', token: subscription, locale: 'pt_BR' })).status).toBe(204);
    expect(await devicesIn(app.modes.live, p.sub)).toHaveLength(2);
  });
});

describe('DELETE /guest/v1/devices', () => {
  it("forgets the person's own device; 204 also for a token never known or now another person's", async () => {
    const [a, b] = [person(), person()];
    const [mine, theirs] = [apnsToken(), apnsToken()];
    await a.register({ platform: 'ios', token: mine });
    await b.register({ platform: 'ios', token: theirs });
    expect((await a.forget(mine)).status).toBe(204);
    expect((await a.forget(mine)).status).toBe(204);
    expect((await a.forget(apnsToken())).status).toBe(204);
    expect((await a.forget(theirs)).status).toBe(204);
    expect(await devicesIn(app.modes.live, a.sub)).toHaveLength(0);
    expect(await devicesIn(app.modes.live, b.sub)).toHaveLength(1);
    // A person never seen before is not made by forgetting.
    const stranger = person();
    expect((await stranger.forget(theirs)).status).toBe(204);
    expect(await t.svc.db.contact.count({ where: { externalId: stranger.sub } })).toBe(0);
    expect((await a.send('DELETE', '/guest/v1/devices', {})).json.errors[0].field).toBe('token');
  });
});

describe('a push token', () => {
  it('is sealed at rest, never logged, not in the export and not on the staff API; staff see what tells devices apart', async () => {
    const p = person();
    const token = `secret-${apnsToken()}`;
    await p.register({ platform: 'ios', token, app_version: '7.0', locale: 'fr' });
    const [row] = await t.svc.db.$queryRawUnsafe<Record<string, unknown>[]>(
      'SELECT * FROM device WHERE contact_id = $1',
      await contactIdOf(p.sub),
    );
    expect(JSON.stringify(row)).not.toContain(token);
    expect(lines.join('')).not.toContain(token);

    const exported = await p.send('GET', `/server/v1/contacts/${p.sub}/export`, undefined, {
      Authorization: `Bearer ${app.live.server_key}`,
      'X-CRM-App-Key': '',
    });
    expect(exported.status).toBe(200);
    expect(exported.json.devices).toEqual([
      {
        platform: 'ios',
        appVersion: '7.0',
        locale: 'fr',
        firstSeenAt: t.clock.now().toISOString(),
        lastSeenAt: t.clock.now().toISOString(),
      },
    ]);
    expect(exported.text).not.toContain(token);

    const { contact } = await ok(
      'query($m: ID!, $x: String!) { contact(appModeId: $m, externalId: $x) { devices { edges { node { id platform appVersion locale firstSeenAt lastSeenAt } } } } }',
      { m: app.modes.live, x: p.sub },
    );
    expect(contact.devices.edges.map((e: { node: unknown }) => e.node)).toEqual([
      {
        id: expect.any(String),
        platform: 'ios',
        appVersion: '7.0',
        locale: 'fr',
        firstSeenAt: expect.any(String),
        lastSeenAt: expect.any(String),
      },
    ]);
    const fields = (await ok('{ __type(name: "Device") { fields { name } } }')).__type.fields.map((f: { name: string }) => f.name);
    expect(fields.some((f: string) => /token/i.test(f))).toBe(false);
  });

  it('a provider said is gone is forgotten, unless the app registered it again since', async () => {
    const p = person();
    const token = apnsToken();
    await p.register({ platform: 'ios', token });
    const ctx = systemContext(t.svc, 'test');
    const sent = t.clock.now();
    t.clock.advance(60_000);
    const again = await p.register({ platform: 'ios', token });
    expect(again.status, again.text).toBe(204);
    expect(await forgetGoneToken(ctx, app.modes.live, token, sent)).toBe(false);
    expect(await forgetGoneToken(ctx, app.modes.test, token)).toBe(false);
    expect(await forgetGoneToken(ctx, app.modes.live, token)).toBe(true);
    expect(await devicesIn(app.modes.live, p.sub)).toHaveLength(0);
  });
});
