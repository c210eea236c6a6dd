import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContext, transaction } from '../src/domain/context.js';
import { addNotice, addNotices } from '../src/domain/notices/add.js';
import { memberOf, staffApp, unique, type StaffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { guestOf } from './support/messenger.js';
import { startTestServer, type TestServer } from './support/server.js';

// The notice inbox, black-box: notices added as push sending adds them (addNotice, kept once per
// send key), the person's page newest first with its unread count and cursor, read marks by `all`
// and by `ids` (another person's ids passed over), nobody else's notices ever shown, and a card
// posted by staff without a push, governed by the person's in-app preferences.

let t: TestServer;
let app: StaffApp;
beforeAll(async () => {
  t = await startTestServer();
  app = await staffApp(t);
});
afterAll(() => t?.close());

const { ok, refused } = staffApi(
  () => t.url,
  () => app.owner,
);
const person = (sub = unique('user'), mode: 'live' | 'test' = 'live') => {
  const g = guestOf(t, app[mode], sub);
  return {
    ...g,
    notices: (query = '') => g.send('GET', `/guest/v1/notices${query}`),
    read: (body: unknown) => g.send('POST', '/guest/v1/notices/read', body),
  };
};

/** Notices for the person as push sending adds them, one a second, oldest first; their ids. */
async function noticesFor(sub: string, titles: string[], mode: 'live' | 'test' = 'live') {
  // The person exists once the app has called in for them.
  expect((await guestOf(t, app[mode], sub).send('PUT', '/guest/v1/preferences', {})).status).toBe(200);
  const appModeId = app.modes[mode];
  const contact = await t.svc.db.contact.findUniqueOrThrow({ where: { appModeId_externalId: { appModeId, externalId: sub } } });
  const ids: string[] = [];
  for (const title of titles) {
    t.clock.advance(1000);
    const n = await transaction(systemContext(t.svc, 'test'), (tx) =>
      addNotice(tx, appModeId, {
        contactId: contact.id,
        title,
        body: `About ${title}`,
        link: '/orders/1',
        topicKey: 'orders',
        source: 'push',
        sendKey: unique('send'),
      }),
    );
    ids.push(n.id);
  }
  return { contactId: contact.id, ids };
}

describe('GET /guest/v1/notices', () => {
  it("answers the person's notices newest first with the unread count, in pages", async () => {
    const p = person();
    const { ids } = await noticesFor(p.sub, ['one', 'two', 'three', 'four', 'five']);
    const first = await p.notices('?limit=2');
    expect(first.status).toBe(200);
    expect(first.json.unread).toBe(5);
    expect(first.json.notices.map((n: any) => n.title)).toEqual(['five', 'four']);
    expect(first.json.notices[0]).toEqual({
      id: ids[4],
      title: 'five',
      body: 'About five',
      link: '/orders/1',
      topic: 'orders',
      created_at: expect.any(String),
      read: false,
    });
    const second = await p.notices(`?limit=2&before=${first.json.next_before}`);
    expect(second.json.notices.map((n: any) => n.title)).toEqual(['three', 'two']);
    const last = await p.notices(`?limit=2&before=${second.json.next_before}`);
    expect(last.json.notices.map((n: any) => n.title)).toEqual(['one']);
    expect(last.json.next_before).toBeNull();
    expect((await p.notices()).json.notices).toHaveLength(5);
  });

  it('answers an empty inbox for a person never seen, and makes no one', async () => {
    const p = person();
    expect((await p.notices()).json).toEqual({ unread: 0, notices: [], next_before: null });
    expect((await p.read({ all: true })).json).toEqual({ unread: 0 });
    expect(await t.svc.db.contact.count({ where: { externalId: p.sub } })).toBe(0);
  });

  it("never shows another person's or another mode's notices", async () => {
    const [a, b] = [person(), person()];
    await noticesFor(a.sub, ['for a']);
    await noticesFor(b.sub, ['for b']);
    await noticesFor(a.sub, ['for a in test'], 'test');
    expect((await a.notices()).json.notices.map((n: any) => n.title)).toEqual(['for a']);
    expect((await b.notices()).json.notices.map((n: any) => n.title)).toEqual(['for b']);
    expect((await person(a.sub, 'test').notices()).json.notices.map((n: any) => n.title)).toEqual(['for a in test']);
  });

  it('refuses a limit out of range or a cursor it never gave, naming the parameter', async () => {
    const p = person();
    for (const q of ['?limit=0', '?limit=101', '?limit=ten']) expect((await p.notices(q)).json.errors[0].field).toBe('limit');
    expect((await p.notices('?before=nonsense')).json.errors[0].field).toBe('before');
  });
});

describe('POST /guest/v1/notices/read', () => {
  it('moves the unread count with ids and with all; ids of another person are passed over', async () => {
    const [a, b] = [person(), person()];
    const mine = await noticesFor(a.sub, ['1', '2', '3', '4']);
    const theirs = await noticesFor(b.sub, ['b1', 'b2']);
    const r = await a.read({ ids: [mine.ids[0], mine.ids[1], theirs.ids[0], 'no-such-id'] });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ unread: 2 });
    expect((await b.notices()).json.unread).toBe(2);
    expect((await a.notices()).json.notices.map((n: any) => [n.title, n.read])).toEqual([
      ['4', false],
      ['3', false],
      ['2', true],
      ['1', true],
    ]);
    // Reading again changes nothing; all reads the rest.
    expect((await a.read({ ids: [mine.ids[0]] })).json).toEqual({ unread: 2 });
    expect((await a.read({ all: true })).json).toEqual({ unread: 0 });
    expect((await b.read({ ids: [] })).json).toEqual({ unread: 2 });
    expect((await b.read({ all: true, ids: [theirs.ids[0]] })).json).toEqual({ unread: 0 });
  });

  it('refuses a body that names nothing read, or too many ids, naming the field', async () => {
    const p = person();
    for (const body of [{}, { all: false }]) {
      const r = await p.read(body);
      expect(r.status).toBe(400);
      expect(r.json.errors[0].field).toBe('ids');
    }
    expect((await p.read({ ids: Array.from({ length: 201 }, (_, i) => String(i)) })).json.errors[0].field).toBe('ids');
    expect((await p.read({ all: 'yes' })).json.errors[0].field).toBe('all');
  });
});

describe('adding notices (for push sending)', () => {
  it('keeps a notice once per send key, and refuses bad content naming the field', async () => {
    const p = person();
    const { contactId } = await noticesFor(p.sub, []);
    const ctx = systemContext(t.svc, 'test');
    const sendKey = unique('send');
    const add = () => transaction(ctx, (tx) => addNotice(tx, app.modes.live, { contactId, title: 'Shipped', source: 'push', sendKey }));
    const [x, y] = await Promise.all([add(), add()]);
    expect(x.id).toBe(y.id);
    const batch = [
      { contactId, title: 'Shipped', source: 'push' as const, sendKey },
      { contactId, title: 'Delivered', source: 'push' as const, sendKey: unique('send') },
    ];
    expect(await transaction(ctx, (tx) => addNotices(tx, app.modes.live, batch))).toBe(1);
    expect((await p.notices()).json.unread).toBe(2);
    const refusal = await transaction(ctx, (tx) =>
      addNotices(tx, app.modes.live, [batch[1]!, { contactId, title: '', link: 'javascript:alert(1)', source: 'push' }]),
    ).catch((e) => e);
    expect(refusal.errors.map((e: { field: string }) => e.field)).toEqual(['1.title', '1.link']);
  });
});

describe('a card posted by staff without a push', () => {
  const post = (v: Record<string, unknown>, token?: string) =>
    ok(
      'mutation($m: ID!, $x: String!, $title: String!, $body: String, $link: String, $topic: String) { postNotice(appModeId: $m, externalId: $x, title: $title, body: $body, link: $link, topic: $topic) { id title body link topic source postedBy readAt } }',
      { m: app.modes.live, ...v },
      token,
    );
  const refusedPost = (v: Record<string, unknown>, token?: string) =>
    refused(
      'mutation($m: ID!, $x: String!, $title: String!, $link: String, $topic: String) { postNotice(appModeId: $m, externalId: $x, title: $title, link: $link, topic: $topic) { id } }',
      { m: app.modes.live, ...v },
      token,
    );

  it("reaches the person's inbox, by any member, unless the person turned it off in-app", async () => {
    const key = unique('tips').toLowerCase();
    await ok(
      'mutation($m: ID!, $k: String!) { addPreferenceTopic(appModeId: $m, key: $k, name: "Tips", channels: [push, in_app]) { id } }',
      { m: app.modes.live, k: key },
    );
    const p = person();
    await noticesFor(p.sub, []);
    const workspaceId = app.workspaceId;
    const agent = await memberOf(t, workspaceId, 'agent');
    const card = (
      await post({ x: p.sub, title: 'Welcome', body: 'Glad to have you', link: 'https://example.com/start', topic: key }, agent.token)
    ).postNotice;
    expect(card).toMatchObject({ title: 'Welcome', link: 'https://example.com/start', topic: key, source: 'staff', readAt: null });
    expect((await p.notices()).json).toMatchObject({ unread: 1, notices: [{ id: card.id, title: 'Welcome', body: 'Glad to have you' }] });
    const { contact } = await ok(
      'query($m: ID!, $x: String!) { contact(appModeId: $m, externalId: $x) { notices(first: 5) { edges { node { id source } } } } }',
      { m: app.modes.live, x: p.sub },
    );
    expect(contact.notices.edges.map((e: any) => e.node)).toEqual([{ id: card.id, source: 'staff' }]);

    await p.send('PUT', '/guest/v1/preferences', { choices: [{ topic: key, channel: 'in_app', subscribed: false }] });
    expect(await refusedPost({ x: p.sub, title: 'Again', topic: key })).toMatchObject({ code: 'unsubscribed', status: 409 });
    // Without a topic only everything-off holds.
    expect((await post({ x: p.sub, title: 'No topic' })).postNotice.title).toBe('No topic');
    await p.send('PUT', '/guest/v1/preferences', { all_off: true });
    expect(await refusedPost({ x: p.sub, title: 'Nothing reaches them' })).toMatchObject({ code: 'unsubscribed' });
    expect((await p.notices()).json.unread).toBe(2);
  });

  it('refuses bad content, a topic that does not go in-app, an unknown person and another workspace', async () => {
    const p = person();
    await noticesFor(p.sub, []);
    const key = unique('mail_only').toLowerCase();
    await ok('mutation($m: ID!, $k: String!) { addPreferenceTopic(appModeId: $m, key: $k, name: "Mail", channels: [email]) { id } }', {
      m: app.modes.live,
      k: key,
    });
    expect(await refusedPost({ x: p.sub, title: 'x', topic: key })).toMatchObject({
      code: 'invalid_request',
      errors: [{ field: 'topic' }],
    });
    expect(await refusedPost({ x: p.sub, title: 'x', topic: 'no_such_topic' })).toMatchObject({ errors: [{ field: 'topic' }] });
    expect(await refusedPost({ x: p.sub, title: ' ', link: 'ftp://example.com' })).toMatchObject({
      errors: [{ field: 'title' }, { field: 'link' }],
    });
    expect(await refusedPost({ x: unique('nobody'), title: 'x' })).toMatchObject({ code: 'not_found' });
    const other = await staffApp(t, 'Other app');
    expect(await refusedPost({ x: p.sub, title: 'x' }, other.owner)).toMatchObject({ code: 'not_found' });
    expect((await p.notices()).json.notices).toEqual([]);
  });
});
