import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { unique } from './support/factories.js';
import { banner, carousel, inAppStaff, screen, ownInAppApp } from './support/inapp.js';
import { startTestServer, type TestServer } from './support/server.js';

// What happens after a message is answered: receipts counted once however often they are sent,
// variants kept and the control group counted but never shown, goals reached once, test copies
// with their flag and nothing counted, a message opened by a link whatever its audience, the
// webhook topics written, and the statistics, live too.

let t: TestServer;
const clients: Client[] = [];
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(async () => {
  for (const c of clients) await c.dispose();
  await t?.close();
});

const ownApp = () => ownInAppApp(t);
const later = () => t.clock.advance(21_000);
const STATS = 'stats { variants { variant control sent seen clicked dismissed completed goalReached } days { day variant sent seen } }';
const statsOf = async (staff: ReturnType<typeof inAppStaff>, id: string) =>
  (await staff.ok(`query($id: ID!) { inAppMessage(id: $id) { ${STATS} } }`, { id })).inAppMessage.stats;
const counts = (v: Record<string, unknown>) => ({ sent: 0, seen: 0, clicked: 0, dismissed: 0, completed: 0, goalReached: 0, ...v });
const topics = (appModeId: string, topic: string) => t.svc.db.outboxEvent.findMany({ where: { appModeId, topic }, orderBy: { id: 'asc' } });

describe('receipts', () => {
  it('count each action once however often sent, and write message.sent, message.opened and message.clicked', async () => {
    const { own, staff, user } = await ownApp();
    const m = await staff.live(own.modes.live, 'carousel', {
      content: carousel([
        screen('one', { buttons: [{ id: 'buy', label: 'Buy', link: 'https://example.com/buy' }] }),
        screen('two', {
          choice: {
            options: [
              { id: 'x', label: 'X' },
              { id: 'y', label: 'Y' },
            ],
            multiple: true,
          },
        }),
      ]),
    });
    const u = user();
    await u.checkedIn();
    for (let i = 0; i < 3; i++) {
      expect((await u.receipt({ message_id: m.id, variant: 'a', action: 'seen' })).status).toBe(204);
      expect(
        (
          await u.receipt({
            message_id: m.id,
            variant: 'a',
            action: 'clicked',
            screen: 'one',
            button: 'buy',
            link: 'https://example.com/buy',
          })
        ).status,
      ).toBe(204);
      expect((await u.receipt({ message_id: m.id, variant: 'a', action: 'answered', screen: 'two', answers: ['x', 'y'] })).status).toBe(
        204,
      );
      expect((await u.receipt({ message_id: m.id, variant: 'a', action: 'completed', path: ['one', 'two'] })).status).toBe(204);
    }
    // Another tap is a receipt of its own.
    await u.receipt({ message_id: m.id, variant: 'a', action: 'clicked', screen: 'one', button: 'buy', link: 'https://example.com/other' });
    expect((await statsOf(staff, m.id)).variants).toEqual([
      { variant: 'a', control: false, ...counts({ sent: 1, seen: 1, clicked: 1, completed: 1 }) },
    ]);
    expect((await topics(own.modes.live, 'message.sent')).map((r) => r.data)).toEqual([
      { message_id: m.id, variant: 'a', session_id: u.session },
    ]);
    expect((await topics(own.modes.live, 'message.opened')).map((r) => [r.externalId, r.data])).toEqual([
      [u.sub, { message_id: m.id, variant: 'a', session_id: u.session }],
    ]);
    expect((await topics(own.modes.live, 'message.clicked')).map((r) => (r.data as { link: string }).link)).toEqual([
      'https://example.com/buy',
      'https://example.com/other',
    ]);
    const receipt = await t.svc.db.inAppReceipt.findFirstOrThrow({ where: { messageId: m.id } });
    expect(receipt).toMatchObject({ answers: { two: ['x', 'y'] }, path: ['one', 'two'] });
  });

  it('keep the first MaxReceiptPath (100) screens of a path, and refuse more than MaxCarouselOptions (8) answers', async () => {
    const { own, staff, user } = await ownApp();
    const m = await staff.live(own.modes.live, 'carousel', { content: carousel() });
    const u = user();
    await u.checkedIn();
    const path = Array.from({ length: 150 }, (_, i) => (i % 2 ? 'two' : 'one'));
    expect((await u.receipt({ message_id: m.id, variant: 'a', action: 'dismissed', path })).status).toBe(204);
    expect((await t.svc.db.inAppReceipt.findFirstOrThrow({ where: { messageId: m.id } })).path).toEqual(path.slice(0, 100));
    const r = await u.receipt({
      message_id: m.id,
      variant: 'a',
      action: 'answered',
      screen: 'one',
      answers: Array.from({ length: 9 }, (_, i) => `o${i}`),
    });
    expect(r.status).toBe(400);
    expect(r.json.errors.map((e: { field: string }) => e.field)).toEqual(['answers']);
    // A message the app does not have: taken, nothing kept.
    expect((await u.receipt({ message_id: 'no-such-message', variant: 'a', action: 'seen' })).status).toBe(204);
  });
});

describe('receipts from people the message was never answered to', () => {
  it('are answered 204 and keep nothing: no count, no event, no row, no contact; one who was answered counts once under 50 at once', async () => {
    const { own, staff, user } = await ownApp();
    const m = await staff.live(own.modes.live, 'banner', { content: banner() });
    const hidden = await staff.live(own.modes.live, 'banner', {
      content: banner('Hidden'),
      audience: { field: 'email', op: 'is', value: 'nobody@example.com' },
    });
    const answered = user();
    expect((await answered.checkedIn()).messages.map((x: { id: string }) => x.id)).toContain(m.id);
    await answered.receipt({ message_id: m.id, variant: 'a', action: 'seen' });
    // One who checked in and was answered the live banner, not the one whose audience leaves them out.
    const left = user();
    expect((await left.checkedIn()).messages.map((x: { id: string }) => x.id)).toEqual([m.id]);
    const before = await statsOf(staff, m.id);
    expect(before.variants).toEqual([{ variant: 'a', control: false, ...counts({ sent: 2, seen: 1 }) }]);

    // 30 people who never checked in nor opened it, each posting every receipt.
    const strangers = Array.from({ length: 30 }, () => user());
    const answers = await Promise.all(
      strangers.flatMap((u) => [
        u.receipt({ message_id: m.id, variant: 'a', action: 'seen' }),
        u.receipt({ message_id: m.id, variant: 'a', action: 'clicked', button: 'go', link: 'https://example.com/go' }),
        u.receipt({ message_id: m.id, variant: 'a', action: 'completed', path: ['one'] }),
        u.receipt({ message_id: m.id, variant: 'a', action: 'dismissed' }),
        u.receipt({ message_id: 'copy-they-never-got', variant: 'a', action: 'seen', test: true }),
      ]),
    );
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 204));
    // The one who checked in but was not answered the hidden message.
    for (const action of ['seen', 'clicked', 'completed'] as const)
      expect((await left.receipt({ message_id: hidden.id, variant: 'a', action })).status).toBe(204);

    expect((await statsOf(staff, m.id)).variants).toEqual(before.variants);
    expect((await statsOf(staff, hidden.id)).variants).toEqual([]);
    expect((await topics(own.modes.live, 'message.opened')).map((r) => r.externalId)).toEqual([answered.sub]);
    expect(await topics(own.modes.live, 'message.clicked')).toEqual([]);
    expect(await t.svc.db.contact.count({ where: { appModeId: own.modes.live, externalId: { in: strangers.map((u) => u.sub) } } })).toBe(0);
    expect(await t.svc.db.inAppReceipt.count({ where: { messageId: m.id } })).toBe(2);
    expect(await t.svc.db.inAppReceipt.count({ where: { messageId: hidden.id } })).toBe(0);

    // The one it was answered to: 50 identical receipts at once count once, each kind of each.
    const tap = { message_id: m.id, variant: 'a', action: 'clicked', button: 'go', link: 'https://example.com/go' } as const;
    const burst = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        answered.receipt(i % 2 ? tap : { message_id: m.id, variant: 'a', action: i % 4 ? 'completed' : 'seen' }),
      ),
    );
    expect(burst.map((r) => r.status)).toEqual(burst.map(() => 204));
    expect((await statsOf(staff, m.id)).variants).toEqual([
      { variant: 'a', control: false, ...counts({ sent: 2, seen: 1, clicked: 1, completed: 1 }) },
    ]);
    expect((await topics(own.modes.live, 'message.opened')).map((r) => r.externalId)).toEqual([answered.sub]);
    expect((await topics(own.modes.live, 'message.clicked')).map((r) => r.externalId)).toEqual([answered.sub]);
  });
});

describe('variants', () => {
  it('are drawn by weight and kept; the control group is counted once and never shown', async () => {
    const { own, staff, user } = await ownApp();
    const m = await staff.live(own.modes.live, 'banner', {
      variants: [
        { key: 'a', weight: 1, content: banner('A') },
        { key: 'b', weight: 1, content: banner('B') },
      ],
      controlWeight: 2,
      show: 'until_dismissed',
    });
    const users = Array.from({ length: 40 }, () => user());
    const first = new Map<string, string>();
    for (const u of users) first.set(u.sub, (await u.checkedIn()).messages[0]?.variant ?? 'control');
    const drawn = [...first.values()];
    expect(new Set(drawn)).toEqual(new Set(['a', 'b', 'control']));
    // Again in a new session: each keeps their variant; the control group still sees nothing.
    later();
    for (const u of users) {
      u.newSession();
      expect((await u.checkedIn()).messages[0]?.variant ?? 'control').toBe(first.get(u.sub));
    }
    const stats = await statsOf(staff, m.id);
    const of = (v: string) => drawn.filter((d) => d === v).length;
    expect(stats.variants).toEqual(
      expect.arrayContaining([
        { variant: 'a', control: false, ...counts({ sent: of('a') }) },
        { variant: 'b', control: false, ...counts({ sent: of('b') }) },
        { variant: 'control', control: true, ...counts({ sent: of('control') }) },
      ]),
    );
    // Nothing was posted for the control group.
    expect((await topics(own.modes.live, 'message.sent')).length).toBe(2 * (of('a') + of('b')));
  });
});

describe('goals', () => {
  it('are reached once per person and message, by an event within N days of seeing it, also in the control group', async () => {
    const { own, staff, user, server } = await ownApp();
    await server.declareEvents([{ name: 'upgraded', source: 'both' }]);
    const m = await staff.live(own.modes.live, 'banner', { content: banner(), goal: { event: 'upgraded', days: 7 } });
    const u = user();
    await u.checkedIn();
    await u.receipt({ message_id: m.id, variant: 'a', action: 'seen' });
    const event = (days: number) => ({
      id: unique('e'),
      external_id: u.sub,
      name: 'upgraded',
      at: new Date(t.clock.now().getTime() + days * 86_400_000).toISOString(),
    });
    t.clock.advance(2 * 86_400_000);
    await server.sendEvents([event(0), event(0)]);
    for (let i = 0; i < 3; i++) {
      later();
      await u.checkedIn();
    }
    expect((await topics(own.modes.live, 'goal.reached')).map((r) => [r.externalId, r.data])).toEqual([
      [u.sub, { message_id: m.id, variant: 'a' }],
    ]);
    expect((await statsOf(staff, m.id)).variants[0]).toMatchObject({ seen: 1, goalReached: 1 });

    // Beyond the days, an event reaches nothing.
    const late = user();
    await late.checkedIn();
    await late.receipt({ message_id: m.id, variant: 'a', action: 'seen' });
    t.clock.advance(8 * 86_400_000);
    await server.sendEvents([{ id: unique('e'), external_id: late.sub, name: 'upgraded', at: t.clock.now().toISOString() }]);
    later();
    await late.checkedIn();
    expect(await topics(own.modes.live, 'goal.reached')).toHaveLength(1);
  });

  it('are reached by an attribute condition', async () => {
    const { own, staff, user, server } = await ownApp();
    await server.identify('seed', { attributes: { plan: 'free' } });
    const m = await staff.live(own.modes.live, 'banner', {
      content: banner(),
      controlWeight: 0,
      goal: { attribute: { attribute: 'plan', op: 'is', value: 'pro' }, days: 3 },
    });
    const u = user();
    await u.checkedIn();
    await u.receipt({ message_id: m.id, variant: 'a', action: 'seen' });
    later();
    await u.checkedIn();
    expect(await topics(own.modes.live, 'goal.reached')).toHaveLength(0);
    await server.identify(u.sub, { attributes: { plan: 'pro' } });
    later();
    await u.checkedIn();
    expect((await statsOf(staff, m.id)).variants[0]).toMatchObject({ goalReached: 1 });
  });
});

describe('test copies', () => {
  it('reach a test phone at its next check-in with the Test flag, whatever the state, and count nothing', async () => {
    const { own, staff, user } = await ownApp();
    const m = await staff.create(own.modes.live, 'post', {
      content: { blocks: [{ type: 'paragraph', spans: [{ text: 'Draft post' }] }] },
      audience: { field: 'email', op: 'is', value: 'nobody@example.com' },
    });
    const phone = user();
    await phone.checkedIn();
    expect(
      await staff.refused('mutation($id: ID!, $x: String!) { sendInAppTest(messageId: $id, externalId: $x) { id } }', {
        id: m.id,
        x: phone.sub,
      }),
    ).toMatchObject({ code: 'not_test_phone' });
    await staff.ok(
      'mutation($m: ID!, $x: String!) { markTestPhone(appModeId: $m, externalId: $x, label: "Ana’s phone") { externalId label } }',
      { m: own.modes.live, x: phone.sub },
    );
    const sent = (
      await staff.ok('mutation($id: ID!, $x: String!) { sendInAppTest(messageId: $id, externalId: $x) { id variant deliveredAt } }', {
        id: m.id,
        x: phone.sub,
      })
    ).sendInAppTest;
    later();
    const answer = await phone.checkedIn();
    expect(answer.testPhone).toBe(true);
    expect(answer.messages).toEqual([{ id: sent.id, kind: 'post', variant: 'a', test: true, screens: [], post: m.variants[0].content }]);
    await phone.receipt({ message_id: sent.id, variant: 'a', action: 'seen', test: true });
    await phone.receipt({ message_id: sent.id, variant: 'a', action: 'dismissed', test: true });
    later();
    expect((await phone.checkedIn()).messages).toEqual([]);
    const sends = (
      await staff.ok('query($id: ID!) { inAppTestSends(messageId: $id) { edges { node { id deliveredAt seenAt dismissedAt } } } }', {
        id: m.id,
      })
    ).inAppTestSends.edges;
    expect(sends).toEqual([
      { node: { id: sent.id, deliveredAt: expect.any(String), seenAt: expect.any(String), dismissedAt: expect.any(String) } },
    ]);
    expect((await statsOf(staff, m.id)).variants).toEqual([]);
    for (const topic of ['message.sent', 'message.opened', 'inapp.counted']) expect(await topics(own.modes.live, topic)).toEqual([]);
  });
});

describe('open', () => {
  it('answers the message a link names whatever its audience says, and 404 for one that is not live or does not exist', async () => {
    const { own, staff, user } = await ownApp();
    const m = await staff.live(own.modes.live, 'banner', {
      content: banner(),
      audience: { field: 'email', op: 'is', value: 'nobody@example.com' },
    });
    const u = user();
    expect((await u.checkedIn()).messages).toEqual([]);
    const opened = await u.open(m.id);
    expect(opened.status).toBe(200);
    expect(opened.json).toEqual({ id: m.id, kind: 'banner', variant: 'a', test: false, screens: [], banner: m.variants[0].content });
    expect((await statsOf(staff, m.id)).variants).toEqual([{ variant: 'a', control: false, ...counts({ sent: 1 }) }]);
    const draft = await staff.create(own.modes.live, 'banner', { content: banner() });
    expect((await u.open(draft.id)).status).toBe(404);
    await staff.state(m.id, 'paused');
    expect((await u.open(m.id)).status).toBe(404);
    expect((await u.open('no-such-message')).status).toBe(404);
    // Another app's live message is not found either.
    const other = await ownApp();
    const theirs = await other.staff.live(other.own.modes.live, 'banner', { content: banner() });
    expect((await u.open(theirs.id)).status).toBe(404);
  });
});

describe('statistics', () => {
  it('are live over graphql-ws: the statistics, then each person counted', async () => {
    const { own, staff, user } = await ownApp();
    const m = await staff.live(own.modes.live, 'banner', { content: banner() });
    const client = createClient({
      url: `${t.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${own.owner}` },
      retryAttempts: 0,
    });
    clients.push(client);
    const seen: any[] = [];
    const stop = client.subscribe<any>(
      {
        query: `subscription($id: ID!) { inAppStats(messageId: $id) { reload stats { variants { variant sent seen } } counts { variant counter } } }`,
        variables: { id: m.id },
      },
      { next: ({ data }) => data && seen.push(data.inAppStats), error: () => {}, complete: () => {} },
    );
    await expect.poll(() => seen.length).toBe(1);
    expect(seen[0]).toEqual({ reload: true, stats: { variants: [] }, counts: [] });
    const u = user();
    await u.checkedIn();
    await u.receipt({ message_id: m.id, variant: 'a', action: 'seen' });
    await u.receipt({ message_id: m.id, variant: 'a', action: 'seen' });
    await expect.poll(() => seen.length).toBe(3);
    expect(seen.slice(1)).toEqual([
      { reload: false, stats: null, counts: [{ variant: 'a', counter: 'sent' }] },
      { reload: false, stats: null, counts: [{ variant: 'a', counter: 'seen' }] },
    ]);
    stop();
  });
  it("of every message of an app-mode are live in one subscription, each count naming its message, read by the app-mode's members only", async () => {
    const { own, staff, user } = await ownApp();
    const one = await staff.live(own.modes.live, 'banner', { content: banner() });
    const two = await staff.live(own.modes.live, 'banner', { content: banner('Another') });
    const client = createClient({
      url: `${t.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${own.owner}` },
      retryAttempts: 0,
    });
    clients.push(client);
    const seen: any[] = [];
    const query = `subscription($m: ID!) { inAppCounts(appModeId: $m) { reload counts { messageId variant counter } } }`;
    const stop = client.subscribe<any>(
      { query, variables: { m: own.modes.live } },
      { next: ({ data }) => data && seen.push(data.inAppCounts), error: () => {}, complete: () => {} },
    );
    await expect.poll(() => seen.length).toBe(1);
    expect(seen[0]).toEqual({ reload: true, counts: [] });
    const u = user();
    await u.checkedIn();
    await u.receipt({ message_id: two.id, variant: 'a', action: 'seen' });
    await expect.poll(() => seen.flatMap((e) => e.counts).length).toBe(3);
    const told = seen.slice(1).flatMap((e) => e.counts);
    expect(told).toEqual(
      expect.arrayContaining([
        { messageId: one.id, variant: 'a', counter: 'sent' },
        { messageId: two.id, variant: 'a', counter: 'sent' },
        { messageId: two.id, variant: 'a', counter: 'seen' },
      ]),
    );
    stop();

    // Another workspace's owner is refused.
    const stranger = await ownApp();
    const other = createClient({
      url: `${t.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${stranger.own.owner}` },
      retryAttempts: 0,
    });
    clients.push(other);
    const refused = await new Promise<any>((resolve) =>
      other.subscribe<any>(
        { query, variables: { m: own.modes.live } },
        { next: (r) => resolve(r), error: (e) => resolve({ errors: e }), complete: () => resolve({}) },
      ),
    );
    expect(JSON.stringify(refused.errors)).toContain('not_found');
  });
});
