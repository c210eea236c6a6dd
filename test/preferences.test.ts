import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext } from '../src/domain/context.js';
import { hears, whoHear } from '../src/domain/preferences/hears.js';
import { staffApp, unique, type StaffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { guestOf } from './support/messenger.js';
import { startTestServer, type TestServer } from './support/server.js';

// Topic and channel preferences, black-box: the topics staff define, what a person sees and
// changes over the guest routes (to the letter of PreferencesBody), the words they were shown kept
// with each change, contact.unsubscribed in the outbox, refusals naming the field, and the one rule
// every sender asks (hears) with all-off and consent to offers.

let t: TestServer;
beforeAll(async () => (t = await startTestServer()));
afterAll(() => t?.close());

const TOPICS = [
  { key: 'orders', name: 'Orders', description: 'Where your order is', channels: ['email', 'push', 'in_app'] },
  { key: 'news', name: 'News', channels: ['email', 'in_app'], subscribedByDefault: false },
  { key: 'deals', name: 'Deals', channels: ['email', 'push', 'in_app'], offers: true },
];

/** An app of its own with the TOPICS in its live mode, and its people's calls. */
async function appWithTopics(topics = TOPICS) {
  const app = await staffApp(t);
  const api = staffApi(
    () => t.url,
    () => app.owner,
  );
  for (const topic of topics) {
    t.clock.advance(1000);
    await api.ok(
      'mutation($m: ID!, $k: String!, $n: String!, $c: [PreferenceChannel!]!, $d: String, $s: Boolean, $o: Boolean) { addPreferenceTopic(appModeId: $m, key: $k, name: $n, channels: $c, description: $d, subscribedByDefault: $s, offers: $o) { id } }',
      {
        m: app.modes.live,
        k: topic.key,
        n: topic.name,
        c: topic.channels,
        d: (topic as { description?: string }).description,
        s: (topic as { subscribedByDefault?: boolean }).subscribedByDefault,
        o: (topic as { offers?: boolean }).offers,
      },
    );
  }
  const person = (sub = unique('user'), mode: 'live' | 'test' = 'live') => {
    const g = guestOf(t, app[mode], sub);
    return {
      ...g,
      get: () => g.send('GET', '/guest/v1/preferences'),
      put: (body: unknown) => g.send('PUT', '/guest/v1/preferences', body),
    };
  };
  return { app, api, person };
}

const channelsOf = (answer: any, topic: string) =>
  Object.fromEntries(answer.topics.find((x: any) => x.topic === topic).channels.map((c: any) => [c.channel, c]));
const hearing = (answer: any) =>
  Object.fromEntries(answer.topics.map((x: any) => [x.topic, Object.fromEntries(x.channels.map((c: any) => [c.channel, c.hears]))]));

const contactOf = (app: StaffApp, externalId: string) =>
  t.svc.db.contact.findUniqueOrThrow({ where: { appModeId_externalId: { appModeId: app.modes.live, externalId } } });
const unsubscribedOf = (externalId: string) =>
  t.svc.db.outboxEvent.findMany({ where: { topic: 'contact.unsubscribed', externalId }, orderBy: { id: 'asc' } });

describe('GET /guest/v1/preferences', () => {
  it('lists no topics for an app that defines none, and makes no one', async () => {
    const app = await staffApp(t);
    const sub = unique('reader');
    const r = await guestOf(t, app.live, sub).send('GET', '/guest/v1/preferences');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ all_off: false, topics: [] });
    expect(await t.svc.db.contact.count({ where: { externalId: sub } })).toBe(0);
  });

  it('lists the topics, the channels each goes by, the defaults, and offers waiting on consent', async () => {
    const { person } = await appWithTopics();
    const r = await person().get();
    expect(r.status).toBe(200);
    expect(r.json.all_off).toBe(false);
    expect(r.json.topics.map((x: any) => [x.topic, x.name, x.offers, x.channels.map((c: any) => c.channel)])).toEqual([
      ['orders', 'Orders', false, ['email', 'push', 'in_app']],
      ['news', 'News', false, ['email', 'in_app']],
      ['deals', 'Deals', true, ['email', 'push', 'in_app']],
    ]);
    expect(r.json.topics[0].description).toBe('Where your order is');
    expect(hearing(r.json)).toEqual({
      orders: { email: true, push: true, in_app: true },
      news: { email: false, in_app: false },
      // Offers by email or push need consent to offers; in-app has no consent of its own.
      deals: { email: false, push: false, in_app: true },
    });
    expect(channelsOf(r.json, 'deals').push).toEqual({ channel: 'push', subscribed: true, hears: false, needs_consent: true });
    expect(channelsOf(r.json, 'deals').in_app.needs_consent).toBe(false);
  });

  it("keeps each mode's topics apart", async () => {
    const { person } = await appWithTopics();
    expect((await person(unique('u'), 'test').get()).json.topics).toEqual([]);
  });
});

describe('PUT /guest/v1/preferences', () => {
  it('takes choices and keeps each change with the words shown; the same choice again changes nothing', async () => {
    const { app, person } = await appWithTopics();
    const p = person();
    const wording = 'Tell me about news by email. Stop pushing me order updates.';
    const r = await p.put({
      choices: [
        { topic: 'news', channel: 'email', subscribed: true },
        { topic: 'orders', channel: 'push', subscribed: false },
      ],
      wording,
    });
    expect(r.status).toBe(200);
    expect(hearing(r.json)).toMatchObject({ news: { email: true, in_app: false }, orders: { email: true, push: false, in_app: true } });
    expect(channelsOf(r.json, 'orders').push).toMatchObject({ subscribed: false, hears: false });
    expect((await p.get()).json).toEqual(r.json);

    const contact = await contactOf(app, p.sub);
    const history = async () =>
      (
        await t.svc.db.preferenceChange.findMany({ where: { contactId: contact.id }, orderBy: [{ changedAt: 'asc' }, { topicKey: 'asc' }] })
      ).map((c) => ({ kind: c.kind, topic: c.topicKey, channel: c.channel, value: c.value, wording: c.wording, source: c.source }));
    expect(await history()).toEqual([
      { kind: 'choice', topic: 'news', channel: 'email', value: true, wording, source: 'guest' },
      { kind: 'choice', topic: 'orders', channel: 'push', value: false, wording, source: 'guest' },
    ]);
    t.clock.advance(1000);
    expect((await p.put({ choices: [{ topic: 'orders', channel: 'push', subscribed: false }], wording: 'again' })).status).toBe(200);
    expect(await history()).toHaveLength(2);
    // Choosing what the default already says is a choice of one's own: kept.
    expect((await p.put({ choices: [{ topic: 'orders', channel: 'email', subscribed: true }], wording: 'Keep order emails' })).status).toBe(
      200,
    );
    expect((await history()).at(-1)).toEqual({
      kind: 'choice',
      topic: 'orders',
      channel: 'email',
      value: true,
      wording: 'Keep order emails',
      source: 'guest',
    });
  });

  it('turns everything off, in-app included, and back on with the choices as they were', async () => {
    const { person } = await appWithTopics();
    const p = person();
    await p.put({ choices: [{ topic: 'news', channel: 'in_app', subscribed: true }] });
    const off = await p.put({ all_off: true, wording: 'Turn everything off' });
    expect(off.json.all_off).toBe(true);
    expect(Object.values(hearing(off.json)).flatMap((c) => Object.values(c as object))).toEqual(Array(8).fill(false));
    // A choice while everything is off is kept, and heard of once everything is on again.
    expect(channelsOf(off.json, 'news').in_app).toMatchObject({ subscribed: true, hears: false });
    const on = await p.put({ all_off: false, wording: 'Turn everything on' });
    expect(hearing(on.json)).toMatchObject({ news: { in_app: true, email: false }, orders: { push: true } });
  });

  it('writes contact.unsubscribed when something that reached the person no longer does, naming it, and not otherwise', async () => {
    const { app, person } = await appWithTopics();
    const p = person();
    // Turning on, and turning off what never reached them (news by default off), are not unsubscribing.
    await p.put({
      choices: [
        { topic: 'news', channel: 'email', subscribed: false },
        { topic: 'deals', channel: 'in_app', subscribed: true },
      ],
    });
    expect(await unsubscribedOf(p.sub)).toHaveLength(0);

    await p.put({
      choices: [
        { topic: 'orders', channel: 'push', subscribed: false },
        { topic: 'orders', channel: 'in_app', subscribed: false },
        { topic: 'news', channel: 'in_app', subscribed: true },
      ],
    });
    let rows = await unsubscribedOf(p.sub);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.appModeId).toBe(app.modes.live);
    expect(rows[0]!.data).toEqual({
      all_off: false,
      left: [
        { topic: 'orders', channel: 'push' },
        { topic: 'orders', channel: 'in_app' },
      ],
      source: 'guest',
    });

    await p.put({ all_off: true });
    await p.put({ all_off: true });
    rows = await unsubscribedOf(p.sub);
    expect(rows).toHaveLength(2);
    expect(rows[1]!.data).toEqual({ all_off: true, left: [], source: 'guest' });
  });

  it('refuses an unknown topic or a channel the topic does not go by, naming each, and changes nothing', async () => {
    const { app, person } = await appWithTopics();
    const p = person();
    const r = await p.put({
      all_off: true,
      choices: [
        { topic: 'orders', channel: 'push', subscribed: false },
        { topic: 'nope', channel: 'email', subscribed: false },
        { topic: 'news', channel: 'push', subscribed: true },
      ],
    });
    expect(r.status).toBe(400);
    expect(r.headers.get('content-type')).toContain('application/problem+json');
    expect(r.json.code).toBe('invalid_request');
    expect(r.json.errors.map((e: any) => e.field)).toEqual(['choices.1.topic', 'choices.2.channel']);
    const bad = await p.put({
      choices: [
        { topic: 'orders', channel: 'sms', subscribed: false },
        { topic: 'orders', subscribed: 'no' },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.json.errors.map((e: any) => e.field).sort()).toEqual(['choices.0.channel', 'choices.1.channel', 'choices.1.subscribed']);
    const twice = await p.put({
      choices: [
        { topic: 'orders', channel: 'push', subscribed: false },
        { topic: 'orders', channel: 'push', subscribed: true },
      ],
    });
    expect(twice.json.errors.map((e: any) => e.field)).toEqual(['choices.1']);
    expect((await p.get()).json.all_off).toBe(false);
    const contact = await t.svc.db.contact.findUnique({
      where: { appModeId_externalId: { appModeId: app.modes.live, externalId: p.sub } },
    });
    expect(contact ? await t.svc.db.preferenceChange.count({ where: { contactId: contact.id } }) : 0).toBe(0);
  });

  it('refuses more choices or longer words than it takes, naming the field', async () => {
    const { person } = await appWithTopics();
    const p = person();
    const many = Array.from({ length: 301 }, () => ({ topic: 'orders', channel: 'push', subscribed: false }));
    expect((await p.put({ choices: many })).json.errors[0].field).toBe('choices');
    expect((await p.put({ wording: 'x'.repeat(5001) })).json.errors[0].field).toBe('wording');
    expect((await p.put({ wording: 'bad \u0000' })).status).toBe(400);
  });

  it('shows no archived topic and refuses a choice on it, keeping the choices made before', async () => {
    const { app, api, person } = await appWithTopics();
    const p = person();
    await p.put({ choices: [{ topic: 'news', channel: 'email', subscribed: true }] });
    const id = (await t.svc.db.preferenceTopic.findFirstOrThrow({ where: { appModeId: app.modes.live, key: 'news' } })).id;
    await api.ok('mutation($id: ID!) { archivePreferenceTopic(id: $id) { archivedAt } }', { id });
    expect((await p.get()).json.topics.map((x: any) => x.topic)).toEqual(['orders', 'deals']);
    expect((await p.put({ choices: [{ topic: 'news', channel: 'email', subscribed: false }] })).json.errors[0].field).toBe(
      'choices.0.topic',
    );
    expect(await t.svc.db.preferenceChoice.count({ where: { topicId: id } })).toBe(1);
  });

  it('hears offers by push once the person agrees to offers by push', async () => {
    const { person } = await appWithTopics();
    const p = person();
    expect(channelsOf((await p.get()).json, 'deals').push.hears).toBe(false);
    expect((await p.send('PUT', '/guest/v1/consent', { offers_by_push: true })).status).toBe(200);
    const r = (await p.get()).json;
    expect(channelsOf(r, 'deals').push).toMatchObject({ hears: true, needs_consent: false });
    expect(channelsOf(r, 'deals').email).toMatchObject({ hears: false, needs_consent: true });
  });

  it('takes 30 changes of one person sent at once one after another: each kept change changed something, and the last one holds', async () => {
    const { app, person } = await appWithTopics();
    const p = person();
    await p.get();
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        p.put({ choices: [{ topic: 'orders', channel: 'push', subscribed: i % 2 === 0 }], wording: `change ${i}` }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(30).fill(200));
    const contact = await contactOf(app, p.sub);
    const kept = await t.svc.db.preferenceChange.findMany({ where: { contactId: contact.id } });
    const choice = await t.svc.db.preferenceChoice.findFirstOrThrow({ where: { contactId: contact.id } });
    // Same instant for all (the test's clock): the kept changes alternate, so their values differ by at most one.
    const ons = kept.filter((k) => k.value).length;
    expect(Math.abs(ons - (kept.length - ons))).toBeLessThanOrEqual(1);
    const unsubscribed = await unsubscribedOf(p.sub);
    expect(unsubscribed).toHaveLength(kept.filter((k) => !k.value).length);
    // The choice held is the last kept: in an alternating run, never the value kept fewer times.
    expect(kept.filter((k) => k.value === choice.subscribed).length).toBeGreaterThanOrEqual(
      kept.filter((k) => k.value !== choice.subscribed).length,
    );
  });
});

describe('hears, the question every sender asks', () => {
  it('answers one person and a batch by the same rule: choice or default, all-off, consent to offers, channel, archived', async () => {
    const { app, api, person } = await appWithTopics();
    const [a, b, c, d] = [person(), person(), person(), person()];
    await a.put({ choices: [{ topic: 'orders', channel: 'push', subscribed: false }] });
    await b.put({ all_off: true });
    await c.send('PUT', '/guest/v1/consent', { offers_by_push: true });
    await d.put({ choices: [{ topic: 'news', channel: 'email', subscribed: true }] });
    const ids = Object.fromEntries(
      await Promise.all([a, b, c, d].map(async (g, i) => [['a', 'b', 'c', 'd'][i], (await contactOf(app, g.sub)).id])),
    );
    const ctx = systemContext(t.svc, 'test');
    const who = async (topic: string | null, channel: 'email' | 'push' | 'in_app') =>
      [...(await whoHear(ctx, app.modes.live, topic, channel, Object.values(ids)))]
        .map((id) => Object.keys(ids).find((k) => ids[k] === id))
        .sort();
    expect(await who('orders', 'push')).toEqual(['c', 'd']);
    expect(await who('orders', 'in_app')).toEqual(['a', 'c', 'd']);
    expect(await who('news', 'email')).toEqual(['d']);
    expect(await who('news', 'push')).toEqual([]);
    expect(await who('deals', 'push')).toEqual(['c']);
    expect(await who('deals', 'in_app')).toEqual(['a', 'c', 'd']);
    expect(await who('nope', 'email')).toEqual([]);
    expect(await who(null, 'push')).toEqual(['a', 'c', 'd']);
    // Another mode's people are never among them.
    expect(await whoHear(ctx, app.modes.test, 'orders', 'push', Object.values(ids))).toEqual(new Set());
    expect(await hears(ctx, { id: ids.c!, appModeId: app.modes.live }, 'deals', 'push')).toBe(true);
    expect(await hears(ctx, { id: ids.b!, appModeId: app.modes.live }, 'orders', 'in_app')).toBe(false);

    const orders = (await t.svc.db.preferenceTopic.findFirstOrThrow({ where: { appModeId: app.modes.live, key: 'orders' } })).id;
    await api.ok('mutation($id: ID!) { archivePreferenceTopic(id: $id) { id } }', { id: orders });
    expect(await who('orders', 'in_app')).toEqual([]);
  });
});
