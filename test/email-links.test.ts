import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffApp, type StaffApp } from './support/factories.js';
import { personWithEmail as emailTo, sentEmail } from './support/email.js';
import { staffApi } from './support/graphql.js';
import { call } from './support/http.js';
import { startTestServer, testConfig, type TestServer } from './support/server.js';

// The email link routes, black-box over real HTTP: a click redirected to the link exactly as its
// email's version holds it and counted once (a person's and a machine's apart), the open pixel, the
// one-click unsubscribe (RFC 8058) and the page's confirm, the unsubscribe page's data, the
// preference centre's JSON and form, and every token that opens nothing answered 404 alike.

const CHROME = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const AWKWARD = 'https://shop.example/search?q=[garden]&tags[]=a%2Fb&x=%41#top&more';

let t: TestServer;
let app: StaffApp;
let topics: Record<string, string>;
beforeAll(async () => {
  t = await startTestServer();
  app = await staffApp(t, 'Mail');
  const api = staffApi(
    () => t.url,
    () => app.owner,
  );
  topics = {};
  for (const [key, name, channels] of [
    ['news', 'News', ['email', 'in_app']],
    ['tips', 'Tips', ['email']],
    ['orders', 'Orders', ['push']],
  ] as const) {
    t.clock.advance(1000);
    const made = await api.ok(
      'mutation($m: ID!, $k: String!, $n: String!, $c: [PreferenceChannel!]!) { addPreferenceTopic(appModeId: $m, key: $k, name: $n, channels: $c) { id } }',
      { m: app.modes.live, k: key, n: name, c: channels },
    );
    topics[key] = made.addPreferenceTopic.id;
  }
});
afterAll(() => t?.close());

/** A person with an address, and an email of the topic sent to them a minute ago. */
const personWithEmail = (topic: string | null = 'news', links = [AWKWARD, 'https://shop.example/b']) =>
  emailTo(t, app, { topicId: topic ? topics[topic]! : null, links });

const visit = (path: string, init: RequestInit & { agent?: string } = {}) =>
  fetch(`${t.url}${path}`, { redirect: 'manual', ...init, headers: { 'User-Agent': init.agent ?? CHROME, ...(init.headers ?? {}) } });
const told = (topic: string, externalId: string) => t.svc.db.outboxEvent.findMany({ where: { topic, externalId }, orderBy: { id: 'asc' } });

describe('clicks', () => {
  it('redirects to the link exactly as written and counts a person’s first click on each link once', async () => {
    const { externalId, sent } = await personWithEmail();
    const first = await visit(`/public/v1/email/c/${sent.token('click', 0)}`);
    expect(first.status).toBe(302);
    expect(first.headers.get('location')).toBe(AWKWARD);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const again = await visit(`/public/v1/email/c/${sent.token('click', 0)}`);
    expect(again.headers.get('location')).toBe(AWKWARD);
    const clicked = await told('message.clicked', externalId);
    expect(clicked).toHaveLength(1);
    expect(clicked[0]!.data).toMatchObject({
      message_id: sent.messageId,
      channel: 'email',
      email_id: sent.sendId,
      link: AWKWARD,
      link_index: 0,
    });
    const send = await t.svc.db.emailSend.findUniqueOrThrow({ where: { id: sent.sendId } });
    expect(send.clickedAt).not.toBeNull();
    expect(send.machineClickedAt).toBeNull();
  });

  it('counts a scanner’s clicks apart and tells no one of them', async () => {
    const { externalId, sent } = await personWithEmail();
    for (const link of [0, 1])
      expect((await visit(`/public/v1/email/c/${sent.token('click', link)}`, { agent: 'Mimecast-Scanner/2.0' })).status).toBe(302);
    expect(await told('message.clicked', externalId)).toEqual([]);
    const clicks = await t.svc.db.emailClick.findMany({ where: { sendId: sent.sendId }, orderBy: { link: 'asc' } });
    expect(clicks.map((c) => [c.link, c.machine])).toEqual([
      [0, true],
      [1, true],
    ]);
    // The person's own click a minute later counts as theirs (the scanner's burst is over).
    t.clock.advance(60_000);
    await visit(`/public/v1/email/c/${sent.token('click', 1)}`);
    expect(await told('message.clicked', externalId)).toHaveLength(1);
  });

  it('counts a click the app reports, and 404s alike every token that opens nothing', async () => {
    const { externalId, sent } = await personWithEmail();
    expect((await visit(`/public/v1/email/c/${sent.token('click', 1)}`, { method: 'POST' })).status).toBe(204);
    expect(await told('message.clicked', externalId)).toHaveLength(1);
    const token = sent.token('click', 0);
    const altered = `${token.slice(0, 10)}${token[10] === 'A' ? 'B' : 'A'}${token.slice(11)}`;
    for (const bad of [altered, sent.token('open'), sent.token('click', 2), 'nothing-here', `${token}x`]) {
      const r = await visit(`/public/v1/email/c/${bad}`);
      expect(r.status, bad).toBe(404);
      expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(((await r.json()) as { detail: string }).detail).toBe('No email has this address.');
    }
  });
});

describe('the open pixel', () => {
  it('is always a GIF that is never cached, and counts a person’s first open once', async () => {
    const { externalId, sent } = await personWithEmail();
    for (let i = 0; i < 2; i++) {
      const r = await visit(`/public/v1/email/o/${sent.token('open')}`);
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toBe('image/gif');
      expect(r.headers.get('cache-control')).toBe('no-store');
      expect(
        Buffer.from(await r.arrayBuffer())
          .subarray(0, 6)
          .toString(),
      ).toBe('GIF89a');
    }
    expect(await told('message.opened', externalId)).toHaveLength(1);
    const garbage = await visit('/public/v1/email/o/forged');
    expect(garbage.status).toBe(200);
    expect(garbage.headers.get('content-type')).toBe('image/gif');
  });
});

describe('unsubscribe', () => {
  it('leads a GET to the page that asks, and unsubscribing nothing', async () => {
    const { externalId, sent } = await personWithEmail();
    const r = await visit(`/public/v1/email/unsubscribe/${sent.token('unsubscribe')}`);
    expect(r.status).toBe(302);
    expect(r.headers.get('location')).toBe(`${t.svc.config.baseUrl}/unsubscribe/${sent.token('unsubscribe')}`);
    expect(await told('contact.unsubscribed', externalId)).toEqual([]);
  });

  it('takes the one-click POST of RFC 8058: the email’s topic left by email, once, and nothing else', async () => {
    const { externalId, sent } = await personWithEmail();
    const oneClick = () =>
      visit(`/public/v1/email/unsubscribe/${sent.token('unsubscribe')}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
    const r = await oneClick();
    expect(r.status).toBe(200);
    const lists = (await r.json()) as any;
    expect(lists).toMatchObject({
      topic: { topic: 'news', subscribed: false },
      subscribed: false,
      address: 'a•••@example.com',
      all_off: false,
      test: false,
    });
    expect(lists.topics.map((x: any) => [x.topic, x.subscribed])).toEqual([
      ['news', false],
      ['tips', true],
    ]);
    expect((await oneClick()).status).toBe(200);
    const left = await told('contact.unsubscribed', externalId);
    expect(left).toHaveLength(1);
    expect(left[0]!.data).toMatchObject({ all_off: false, left: [{ topic: 'news', channel: 'email' }], source: 'email' });
    // The in-app channel of the same topic is untouched.
    const prefs = await call(t.url, 'GET', `/public/v1/preferences/${sent.token('preferences')}`);
    const news = prefs.json.topics.find((x: any) => x.topic === 'news');
    expect(Object.fromEntries(news.channels.map((c: any) => [c.channel, c.subscribed]))).toEqual({ email: false, in_app: true });
  });

  it('answers the page’s confirm 303 back to the page, and a multipart one-click 200', async () => {
    const { sent } = await personWithEmail('tips');
    const form = new URLSearchParams({ wording: 'Unsubscribe from Tips' });
    const r = await visit(`/public/v1/email/unsubscribe/${sent.token('unsubscribe')}?source=page`, { method: 'POST', body: form });
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe(`${t.svc.config.baseUrl}/unsubscribe/${sent.token('unsubscribe')}?left=1`);
    const change = await t.svc.db.preferenceChange.findFirstOrThrow({
      where: { topicKey: 'tips', source: 'email' },
      orderBy: { changedAt: 'desc' },
    });
    expect(change.wording).toBe('Unsubscribe from Tips');
    const multipart = new FormData();
    multipart.set('List-Unsubscribe', 'One-Click');
    const again = await visit(`/public/v1/email/unsubscribe/${sent.token('unsubscribe')}`, { method: 'POST', body: multipart });
    expect(again.status).toBe(200);
  });

  it('has no unsubscribe for transactional mail, and shows the unsubscribe page’s data', async () => {
    const { sent: transactional } = await personWithEmail(null);
    expect((await visit(`/public/v1/email/lists/${transactional.token('unsubscribe')}`)).status).toBe(404);
    const { sent } = await personWithEmail();
    const r = await call(t.url, 'GET', `/public/v1/email/lists/${sent.token('unsubscribe')}`);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      topic: { topic: 'news', name: 'News', subscribed: true },
      subscribed: true,
      address: 'a•••@example.com',
    });
  });
});

describe('the preference centre', () => {
  it('reads and changes the person’s preferences as JSON, refusing a bad choice by its field', async () => {
    const { sent, externalId } = await personWithEmail();
    const path = `/public/v1/preferences/${sent.token('preferences')}`;
    const read = await call(t.url, 'GET', path);
    expect(read.status).toBe(200);
    expect(read.json.topics.map((x: any) => x.topic)).toEqual(['news', 'tips', 'orders']);
    const changed = await call(t.url, 'POST', path, {
      json: { choices: [{ topic: 'tips', channel: 'email', subscribed: false }], wording: 'Tips by email' },
    });
    expect(changed.status).toBe(200);
    expect(changed.json.topics.find((x: any) => x.topic === 'tips').channels[0].subscribed).toBe(false);
    expect(await told('contact.unsubscribed', externalId)).toHaveLength(1);
    const refused = await call(t.url, 'POST', path, { json: { choices: [{ topic: 'nope', channel: 'email', subscribed: false }] } });
    expect(refused.status).toBe(400);
    expect(refused.json.errors).toEqual([{ field: 'choices.0.topic', message: 'is not a topic of this app' }]);
  });

  it('takes the page’s plain form, every shown box a choice, and answers 303 back to the page', async () => {
    const { sent } = await personWithEmail();
    const form = new URLSearchParams();
    for (const shown of ['news|email', 'news|in_app', 'tips|email']) form.append('shown', shown);
    form.append('on', 'news|in_app');
    form.append('wording', 'Your email preferences');
    const r = await visit(`/public/v1/preferences/${sent.token('preferences')}`, { method: 'POST', body: form });
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe(`${t.svc.config.baseUrl}/preferences/${sent.token('preferences')}?saved=1`);
    const now = await call(t.url, 'GET', `/public/v1/preferences/${sent.token('preferences')}`);
    const chosen = Object.fromEntries(
      now.json.topics.flatMap((x: any) => x.channels.map((c: any) => [`${x.topic}|${c.channel}`, c.subscribed])),
    );
    // Unticking every email topic is a choice per topic, never everything off.
    expect(chosen).toMatchObject({ 'news|email': false, 'news|in_app': true, 'tips|email': false });
    expect(now.json.all_off).toBe(false);
  });
});

describe('data life', () => {
  it('puts each email sent in the person’s export as a receipt, with its open and click', async () => {
    const { externalId, sent } = await personWithEmail();
    await visit(`/public/v1/email/o/${sent.token('open')}`);
    await visit(`/public/v1/email/c/${sent.token('click', 1)}`);
    const exported = await call(t.url, 'GET', `/server/v1/contacts/${externalId}/export`, {
      headers: { Authorization: `Bearer ${app.live.server_key}` },
    });
    expect(exported.status).toBe(200);
    const receipt = exported.json.receipts.find((r: { message: string }) => r.message === sent.messageId);
    expect(receipt).toMatchObject({ kind: 'email', variant: 'v1', dismissedAt: null, completedAt: null });
    expect(receipt.sentAt).not.toBeNull();
    expect(receipt.seenAt).not.toBeNull();
    expect(receipt.clickedAt).not.toBeNull();
  });

  it('opens nothing once the person is erased, and counts nothing for a test copy', async () => {
    const { externalId, sent } = await personWithEmail();
    const erase = await call(t.url, 'DELETE', `/server/v1/contacts/${externalId}`, {
      headers: { Authorization: `Bearer ${app.live.server_key}` },
    });
    expect(erase.status).toBeLessThan(300);
    await t.engine.runDue();
    expect(await t.svc.db.emailSend.count({ where: { id: sent.sendId } })).toBe(0);
    for (const path of [
      `/public/v1/email/c/${sent.token('click', 0)}`,
      `/public/v1/email/lists/${sent.token('unsubscribe')}`,
      `/public/v1/preferences/${sent.token('preferences')}`,
    ])
      expect((await visit(path)).status, path).toBe(404);

    const copy = await sentEmail(t, {
      appModeId: app.modes.live,
      contactId: null,
      address: 'owner@example.com',
      topicId: topics.news!,
      links: [AWKWARD],
      sentAt: new Date(t.clock.now().getTime() - 60_000),
    });
    expect((await visit(`/public/v1/email/c/${copy.token('click', 0)}`)).headers.get('location')).toBe(AWKWARD);
    const left = await visit(`/public/v1/email/unsubscribe/${copy.token('unsubscribe')}`, { method: 'POST' });
    expect(((await left.json()) as { test: boolean }).test).toBe(true);
    expect(await t.svc.db.emailClick.count({ where: { sendId: copy.sendId } })).toBe(0);
    expect((await t.svc.db.emailSend.findUniqueOrThrow({ where: { id: copy.sendId } })).unsubscribedAt).toBeNull();
  });
});

describe('over the rate', () => {
  it('still redirects a click and gives the pixel, counting nothing, where other email routes answer 429', async () => {
    const { externalId, sent } = await personWithEmail();
    const strict = await startTestServer({ dbUrl: t.dbUrl, clock: t.clock, config: testConfig({}, { publicAddressPerMinute: 1 }) });
    try {
      const at = (path: string, init: RequestInit = {}) =>
        fetch(`${strict.url}${path}`, { redirect: 'manual', ...init, headers: { 'User-Agent': CHROME } });
      // One a minute from this address (the rate's buckets are the database's, which the other server spent too).
      await at(`/public/v1/email/lists/${sent.token('unsubscribe')}`);
      expect((await at(`/public/v1/email/lists/${sent.token('unsubscribe')}`)).status).toBe(429);
      const click = await at(`/public/v1/email/c/${sent.token('click', 0)}`);
      expect(click.status).toBe(302);
      expect(click.headers.get('location')).toBe(AWKWARD);
      expect((await at(`/public/v1/email/o/${sent.token('open')}`)).headers.get('content-type')).toBe('image/gif');
      expect(await told('message.clicked', externalId)).toEqual([]);
      expect(await told('message.opened', externalId)).toEqual([]);
    } finally {
      await strict.close();
    }
  });
});
