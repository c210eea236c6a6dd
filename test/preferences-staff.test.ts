import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberOf, staffApp, unique, type StaffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { guestOf } from './support/messenger.js';
import { startTestServer, type TestServer } from './support/server.js';

// Topics and a person's preferences on the staff API: owners and admins define topics, every member
// reads them and a person's preferences and history, and a member changes a person's preferences for
// them (source staff, with what the person asked for). Ids of another workspace are not found.

let t: TestServer;
let app: StaffApp;
let workspaceId: string;
beforeAll(async () => {
  t = await startTestServer();
  app = await staffApp(t);
  workspaceId = app.workspaceId;
});
afterAll(() => t?.close());

const { ok, refused } = staffApi(
  () => t.url,
  () => app.owner,
);
const TOPIC = 'id key name description channels subscribedByDefault offers archivedAt';
const ADD = `mutation($m: ID!, $k: String!, $n: String!, $c: [PreferenceChannel!]!, $d: String, $s: Boolean, $o: Boolean) { addPreferenceTopic(appModeId: $m, key: $k, name: $n, channels: $c, description: $d, subscribedByDefault: $s, offers: $o) { ${TOPIC} } }`;
const add = (v: Record<string, unknown>, token?: string) =>
  ok(ADD, { m: app.modes.live, n: 'A topic', c: ['email'], ...v }, token).then((d) => d.addPreferenceTopic);
const addRefused = (v: Record<string, unknown>, token?: string) =>
  refused(ADD, { m: app.modes.live, n: 'A topic', c: ['email'], ...v }, token);
const key = () => unique('topic').toLowerCase();

describe('topics', () => {
  it('are added, changed (never their key), listed oldest first and archived', async () => {
    const own = await staffApp(t);
    const as = (q: string, v: Record<string, unknown>) => ok(q, v, own.owner);
    const made = (await as(ADD, { m: own.modes.live, k: 'orders', n: ' Orders ', c: ['in_app', 'email'], d: 'Where it is' }))
      .addPreferenceTopic;
    expect(made).toMatchObject({
      key: 'orders',
      name: 'Orders',
      description: 'Where it is',
      channels: ['email', 'in_app'],
      subscribedByDefault: true,
      offers: false,
      archivedAt: null,
    });
    t.clock.advance(1000);
    await as(ADD, { m: own.modes.live, k: 'deals', n: 'Deals', c: ['push'], s: false, o: true });
    const changed = (
      await as(
        'mutation($id: ID!) { changePreferenceTopic(id: $id, input: { name: "Your orders", channels: [push, email], offers: true }) { name channels offers description } }',
        { id: made.id },
      )
    ).changePreferenceTopic;
    expect(changed).toEqual({ name: 'Your orders', channels: ['email', 'push'], offers: true, description: 'Where it is' });
    const list = async (archived = false) =>
      (
        await as('query($m: ID!, $a: Boolean) { preferenceTopics(appModeId: $m, archived: $a) { edges { node { key } } } }', {
          m: own.modes.live,
          a: archived,
        })
      ).preferenceTopics.edges.map((e: any) => e.node.key);
    expect(await list()).toEqual(['orders', 'deals']);
    expect(
      (await as('mutation($id: ID!) { archivePreferenceTopic(id: $id) { archivedAt } }', { id: made.id })).archivePreferenceTopic
        .archivedAt,
    ).toEqual(expect.any(String));
    expect(await list()).toEqual(['deals']);
    expect(await list(true)).toEqual(['orders']);
    // Keys are never reused, even once archived; the test mode has its own topics.
    expect(await refused(ADD, { m: own.modes.live, k: 'orders', n: 'Again', c: ['email'] }, own.owner)).toMatchObject({
      code: 'topic_key_taken',
      status: 409,
    });
    expect((await as(ADD, { m: own.modes.test, k: 'orders', n: 'Orders', c: ['email'] })).addPreferenceTopic.key).toBe('orders');
  });

  it('refuses a bad key, name or description and no channels, naming each field', async () => {
    expect(await addRefused({ k: 'Not A Key' })).toMatchObject({ code: 'invalid_request', errors: [{ field: 'key' }] });
    expect(await addRefused({ k: 'x'.repeat(65) })).toMatchObject({ errors: [{ field: 'key' }] });
    expect(await addRefused({ k: key(), n: ' ', c: [], d: 'd'.repeat(501) })).toMatchObject({
      errors: [{ field: 'name' }, { field: 'description' }, { field: 'channels' }],
    });
    const made = await add({ k: key() });
    expect(
      await refused('mutation($id: ID!) { changePreferenceTopic(id: $id, input: { channels: [] }) { id } }', { id: made.id }),
    ).toMatchObject({ errors: [{ field: 'channels' }] });
  });

  it('are written by owners and admins only, read by every member, and not found from another workspace', async () => {
    const agent = await memberOf(t, workspaceId, 'agent');
    const admin = await memberOf(t, workspaceId, 'admin');
    expect(await addRefused({ k: key() }, agent.token)).toMatchObject({ code: 'role_forbids' });
    const made = await add({ k: key() }, admin.token);
    expect(await refused('mutation($id: ID!) { archivePreferenceTopic(id: $id) { id } }', { id: made.id }, agent.token)).toMatchObject({
      code: 'role_forbids',
    });
    expect(
      (await ok('query($m: ID!) { preferenceTopics(appModeId: $m) { edges { node { id } } } }', { m: app.modes.live }, agent.token))
        .preferenceTopics.edges.length,
    ).toBeGreaterThan(0);
    const other = await staffApp(t, 'Other');
    expect(
      await refused(
        'mutation($id: ID!) { changePreferenceTopic(id: $id, input: { name: "Mine now" }) { id } }',
        { id: made.id },
        other.owner,
      ),
    ).toMatchObject({ code: 'not_found' });
    expect(await refused('mutation($id: ID!) { archivePreferenceTopic(id: $id) { id } }', { id: randomUUID() })).toMatchObject({
      code: 'not_found',
    });
    expect(
      await refused('query($m: ID!) { preferenceTopics(appModeId: $m) { edges { node { id } } } }', { m: app.modes.live }, other.owner),
    ).toMatchObject({ code: 'not_found' });
  });

  it('are at most 100 in use per app-mode, also when added at once', async () => {
    const own = await staffApp(t);
    const now = t.clock.now();
    await t.svc.db.preferenceTopic.createMany({
      data: Array.from({ length: 95 }, (_, i) => ({
        id: randomUUID(),
        appModeId: own.modes.live,
        key: `t${i}`,
        name: `T${i}`,
        channels: ['email' as const],
        subscribedByDefault: true,
        createdAt: now,
        updatedAt: now,
      })),
    });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        staffApi(
          () => t.url,
          () => own.owner,
        ).gql(ADD, { m: own.modes.live, k: `more${i}`, n: 'More', c: ['email'] }, own.owner),
      ),
    );
    expect(answers.filter((a) => !a.errors)).toHaveLength(5);
    expect(answers.filter((a) => a.errors?.[0]?.extensions.code === 'topic_limit')).toHaveLength(5);
    expect(await t.svc.db.preferenceTopic.count({ where: { appModeId: own.modes.live } })).toBe(100);
  });
});

describe("a person's preferences", () => {
  const PREFS = 'allOff topics { topic { key } channels { channel subscribed hears needsConsent } }';
  const HISTORY = 'preferenceHistory(first: 10) { edges { node { kind topic channel value wording source } } }';
  const read = (sub: string) =>
    ok(`query($m: ID!, $x: String!) { contact(appModeId: $m, externalId: $x) { preferences { ${PREFS} } ${HISTORY} } }`, {
      m: app.modes.live,
      x: sub,
    }).then((d) => d.contact);
  const CHANGE = `mutation($m: ID!, $x: String!, $w: String!, $a: Boolean, $c: [PreferenceChoiceInput!]) { changeContactPreferences(appModeId: $m, externalId: $x, wording: $w, allOff: $a, choices: $c) { ${PREFS} } }`;

  it('are read with their history, and changed by a member for the person with what they asked for', async () => {
    const k = key();
    await add({ k, c: ['email', 'push'], o: true });
    const g = guestOf(t, app.live, unique('person'));
    await g.send('PUT', '/guest/v1/preferences', {
      choices: [{ topic: k, channel: 'email', subscribed: false }],
      wording: 'No emails please',
    });
    const before = await read(g.sub);
    expect(before.preferences.allOff).toBe(false);
    expect(before.preferences.topics.find((x: any) => x.topic.key === k).channels).toEqual([
      { channel: 'email', subscribed: false, hears: false, needsConsent: true },
      { channel: 'push', subscribed: true, hears: false, needsConsent: true },
    ]);
    expect(before.preferenceHistory.edges.map((e: any) => e.node)).toEqual([
      { kind: 'choice', topic: k, channel: 'email', value: false, wording: 'No emails please', source: 'guest' },
    ]);

    const agent = await memberOf(t, workspaceId, 'agent');
    t.clock.advance(1000);
    const changed = (
      await ok(
        CHANGE,
        {
          m: app.modes.live,
          x: g.sub,
          w: 'Asked by email on 3 May to stop everything',
          a: true,
          c: [{ topic: k, channel: 'push', subscribed: false }],
        },
        agent.token,
      )
    ).changeContactPreferences;
    expect(changed.allOff).toBe(true);
    const after = await read(g.sub);
    const asked = 'Asked by email on 3 May to stop everything';
    const history = after.preferenceHistory.edges.map((e: any) => [e.node.kind, e.node.source, e.node.wording]);
    // Newest first; the two changes made together share their time.
    expect(history.slice(0, 2).sort()).toEqual([
      ['all_off', 'staff', asked],
      ['choice', 'staff', asked],
    ]);
    expect(history[2]).toEqual(['choice', 'guest', 'No emails please']);
    const [row] = await t.svc.db.outboxEvent.findMany({
      where: { topic: 'contact.unsubscribed', externalId: g.sub, data: { path: ['source'], equals: 'staff' } },
    });
    expect(row!.data).toEqual({ all_off: true, left: [{ topic: k, channel: 'push' }], source: 'staff' });
    // As the person sees them too.
    expect((await g.send('GET', '/guest/v1/preferences')).json.all_off).toBe(true);
  });

  it('refuses a change without what the person asked for, an unknown topic naming the field, and an unknown person', async () => {
    const g = guestOf(t, app.live, unique('person'));
    await g.send('PUT', '/guest/v1/preferences', {});
    expect(await refused(CHANGE, { m: app.modes.live, x: g.sub, w: ' ', a: true })).toMatchObject({ errors: [{ field: 'wording' }] });
    expect(
      await refused(CHANGE, { m: app.modes.live, x: g.sub, w: 'asked', c: [{ topic: 'nope', channel: 'email', subscribed: false }] }),
    ).toMatchObject({ errors: [{ field: 'choices.0.topic' }] });
    expect(await refused(CHANGE, { m: app.modes.live, x: unique('nobody'), w: 'asked', a: true })).toMatchObject({ code: 'not_found' });
    const other = await staffApp(t, 'Other');
    expect(await refused(CHANGE, { m: app.modes.live, x: g.sub, w: 'asked', a: true }, other.owner)).toMatchObject({ code: 'not_found' });
  });

  it('of a page of contacts are read together with their devices', async () => {
    const subs = Array.from({ length: 3 }, () => unique('listed'));
    for (const sub of subs) {
      const g = guestOf(t, app.test, sub);
      await g.send('PUT', '/guest/v1/preferences', { all_off: sub === subs[0] });
      await g.send('PUT', '/guest/v1/devices', { platform: 'ios', token: `tok-${sub}` });
    }
    const { contacts } = await ok(
      `query($m: ID!) { contacts(appModeId: $m, first: 50) { edges { node { externalId preferences { allOff } devices { edges { node { platform } } } } } } }`,
      { m: app.modes.test },
    );
    const bySub = Object.fromEntries(contacts.edges.map((e: any) => [e.node.externalId, e.node]));
    expect(subs.map((s) => [bySub[s].preferences.allOff, bySub[s].devices.edges.map((e: any) => e.node)])).toEqual([
      [true, [{ platform: 'ios' }]],
      [false, [{ platform: 'ios' }]],
      [false, [{ platform: 'ios' }]],
    ]);
  });
});
