import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext, transaction } from '../src/domain/context.js';
import { addNotice } from '../src/domain/notices/add.js';
import { call } from './support/http.js';
import { staffApp, unique, type StaffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { guestOf } from './support/messenger.js';
import { startTestServer, type TestServer } from './support/server.js';

// Data life of preferences, devices and notices: the export's `subscriptions` (each choice and the
// all-off switch as they are, with every change and the words shown), `devices` (never a token) and
// `notices`; an erase leaves none of them in either mode.

let t: TestServer;
let app: StaffApp;
beforeAll(async () => {
  t = await startTestServer();
  app = await staffApp(t);
  const { ok } = staffApi(
    () => t.url,
    () => app.owner,
  );
  for (const m of [app.modes.live, app.modes.test]) {
    await ok('mutation($m: ID!) { addPreferenceTopic(appModeId: $m, key: "news", name: "News", channels: [email, push]) { id } }', { m });
  }
});
afterAll(() => t?.close());

const server = (mode: 'live' | 'test' = 'live') => ({ Authorization: `Bearer ${app[mode].server_key}` });

/** Everything the person can have here, in one mode. */
async function fill(sub: string, mode: 'live' | 'test') {
  const g = guestOf(t, app[mode], sub);
  expect(
    (
      await g.send('PUT', '/guest/v1/preferences', {
        choices: [{ topic: 'news', channel: 'push', subscribed: false }],
        wording: 'No news by push',
      })
    ).status,
  ).toBe(200);
  t.clock.advance(1000);
  expect(
    (
      await g.send('PUT', '/guest/v1/preferences', {
        choices: [{ topic: 'news', channel: 'push', subscribed: true }],
        all_off: true,
        wording: 'Push news again, but nothing for now',
      })
    ).status,
  ).toBe(200);
  expect(
    (await g.send('PUT', '/guest/v1/devices', { platform: 'android', token: `fcm-${sub}-${mode}`, app_version: '3.2', locale: 'nl' }))
      .status,
  ).toBe(204);
  const appModeId = app.modes[mode];
  const contact = await t.svc.db.contact.findUniqueOrThrow({ where: { appModeId_externalId: { appModeId, externalId: sub } } });
  await transaction(systemContext(t.svc, 'test'), (tx) =>
    addNotice(tx, appModeId, { contactId: contact.id, title: 'Your order shipped', link: '/orders/7', topicKey: 'news', source: 'push' }),
  );
}

describe('export', () => {
  it('holds subscriptions with their history and wording, devices without tokens, and notices', async () => {
    const sub = unique('exported');
    const start = t.clock.now().getTime();
    await fill(sub, 'live');
    const r = await call(t.url, 'GET', `/server/v1/contacts/${sub}/export`, { headers: server() });
    expect(r.status).toBe(200);
    const at = (ms: number) => new Date(start + ms).toISOString();
    expect(r.json.subscriptions).toEqual([
      {
        kind: 'all_off',
        allOff: true,
        changedAt: at(1000),
        history: [{ value: true, wording: 'Push news again, but nothing for now', source: 'guest', changedAt: at(1000) }],
      },
      {
        kind: 'choice',
        topic: 'news',
        channel: 'push',
        subscribed: true,
        changedAt: at(1000),
        history: [
          { value: false, wording: 'No news by push', source: 'guest', changedAt: at(0) },
          { value: true, wording: 'Push news again, but nothing for now', source: 'guest', changedAt: at(1000) },
        ],
      },
    ]);
    expect(r.json.devices).toEqual([{ platform: 'android', appVersion: '3.2', locale: 'nl', firstSeenAt: at(1000), lastSeenAt: at(1000) }]);
    expect(r.text).not.toContain(`fcm-${sub}`);
    expect(r.json.notices).toEqual([
      {
        id: expect.any(String),
        title: 'Your order shipped',
        body: null,
        link: '/orders/7',
        topic: 'news',
        source: 'push',
        createdAt: at(1000),
        readAt: null,
      },
    ]);
    // The other mode keeps its own: nothing here.
    expect((await call(t.url, 'GET', `/server/v1/contacts/${sub}/export`, { headers: server('test') })).status).toBe(404);
  });

  it('holds the members empty for a person who has none of them', async () => {
    const sub = unique('plain');
    await call(t.url, 'PUT', `/server/v1/contacts/${sub}`, { headers: server(), json: { display_name: 'Plain' } });
    const r = await call(t.url, 'GET', `/server/v1/contacts/${sub}/export`, { headers: server() });
    expect(r.json).toMatchObject({ subscriptions: [], devices: [], notices: [] });
  });
});

describe('erase', () => {
  it('removes the choices, switch, history, devices and notices in both modes, and says how many', async () => {
    const sub = unique('erased');
    await fill(sub, 'live');
    await fill(sub, 'test');
    const contactIds = (await t.svc.db.contact.findMany({ where: { externalId: sub } })).map((c) => c.id);
    const left = async () => ({
      choices: await t.svc.db.preferenceChoice.count({ where: { contactId: { in: contactIds } } }),
      states: await t.svc.db.preferenceState.count({ where: { contactId: { in: contactIds } } }),
      changes: await t.svc.db.preferenceChange.count({ where: { contactId: { in: contactIds } } }),
      devices: await t.svc.db.device.count({ where: { contactId: { in: contactIds } } }),
      notices: await t.svc.db.notice.count({ where: { contactId: { in: contactIds } } }),
      unsubscribed: await t.svc.db.outboxEvent.count({ where: { externalId: sub, topic: 'contact.unsubscribed' } }),
    });
    expect(await left()).toEqual({ choices: 2, states: 2, changes: 6, devices: 2, notices: 2, unsubscribed: 4 });
    expect((await call(t.url, 'DELETE', `/server/v1/contacts/${sub}`, { headers: server() })).status).toBe(202);
    await t.engine.runDue();
    expect(await left()).toEqual({ choices: 0, states: 0, changes: 0, devices: 0, notices: 0, unsubscribed: 0 });
    const request = await t.svc.db.eraseRequest.findFirstOrThrow({
      where: { appId: app.appId, state: 'done' },
      orderBy: { requestedAt: 'desc' },
    });
    expect(request.removed).toMatchObject({ preferenceChoices: 2, preferenceStates: 2, preferenceChanges: 6, devices: 2, notices: 2 });
    // Within the block the guest routes keep nothing and answer as for someone unknown.
    const g = guestOf(t, app.live, sub);
    expect((await g.send('PUT', '/guest/v1/devices', { platform: 'ios', token: 'after-erase' })).status).toBe(204);
    const prefs = await g.send('PUT', '/guest/v1/preferences', { all_off: true });
    expect(prefs.json.all_off).toBe(false);
    expect((await g.send('GET', '/guest/v1/notices')).json).toEqual({ unread: 0, notices: [], next_before: null });
    expect(await t.svc.db.contact.count({ where: { externalId: sub } })).toBe(0);
  });
});
