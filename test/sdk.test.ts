import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, GuestApiError, type GuestClient } from '../sdk/src/index.js';
import { staffApp, unique, type StaffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { userToken } from './support/http.js';
import { helpAuthor } from './support/help.js';
import { png, reachable } from './support/pictures.js';
import { startTestServer, type TestServer } from './support/server.js';
import { ticketsOf } from './support/tickets.js';

// The SDK (sdk/) against the running service over real HTTP: the client rules the guest API asks of
// it, shown on the wire. Its pure logic (batching, spacing, retries) is unit-tested beside it.

let t: TestServer;
let app: StaffApp;
beforeAll(async () => {
  t = await startTestServer();
  app = await staffApp(t);
});
afterAll(() => t?.close());

const { ok } = staffApi(
  () => t.url,
  () => app.owner,
);

/** The words of parts, as the person reads them. */
const wordsOf = (parts: { blocks: { spans?: { text: string }[] }[] }[]) =>
  parts.flatMap((p) => p.blocks.map((b) => (b.spans ?? []).map((s) => s.text).join('')));

/** The requests a client made, as the service saw their method, path and headers. */
type Sent = { method: string; path: string; headers: Headers; body: string };

/** A client for a new user whose tokens the service's clock dates; `fail` may throw instead of answering one request. */
function client(opts: { fail?: (sent: Sent, answer: Response) => void } = {}) {
  const userId = unique('sdk');
  const sent: Sent[] = [];
  let tokens = 0;
  const c: GuestClient = createClient({
    baseUrl: t.url,
    appKey: app.live.app_key,
    token: () => {
      tokens++;
      return userToken(app.live.identity_secret, { sub: userId, exp: Math.floor(t.clock.now().getTime() / 1000) + 120 });
    },
    fetch: async (request) => {
      const s = {
        method: request.method,
        path: new URL(request.url).pathname,
        headers: request.headers,
        body: await request.clone().text(),
      };
      sent.push(s);
      const answer = await fetch(request);
      opts.fail?.(s, answer);
      return answer;
    },
  });
  return { c, sent, userId, tokens: () => tokens };
}

describe('the SDK on the guest API', () => {
  it('checks in at sign-in with its own name in X-Crm-Sdk, and renews the token once after token_expired', async () => {
    const { c, sent, tokens } = client();
    await expect.poll(() => sent.filter((s) => s.path === '/guest/v1/checkin').length).toBe(1);
    expect(sent[0]!.headers.get('x-crm-sdk')).toMatch(/^crm-web\/\d+\.\d+\.\d+$/);
    expect(sent[0]!.headers.get('x-crm-app-key')).toBe(app.live.app_key);
    expect((await c.api.GET('/guest/v1/consent')).response.status).toBe(200);
    expect(tokens()).toBe(1);

    t.clock.advance(10 * 60_000); // the token's two minutes are over, on the service's clock
    const consent = await c.api.GET('/guest/v1/consent');
    expect(consent.response.status).toBe(200);
    expect(tokens()).toBe(2);
    const tries = sent.filter((s) => s.path === '/guest/v1/consent').map((s) => s.headers.get('authorization'));
    expect(tries).toHaveLength(3);
    expect(tries[1]).toBe(tries[0]);
    expect(tries[2]).not.toBe(tries[1]);
    await c.close();
  });

  it('sends a message whose answer was lost again with the same Idempotency-Key, and it is kept once', async () => {
    let lost = false;
    const { c, sent } = client({
      fail: (s) => {
        if (s.path.endsWith('/messages') && !lost) {
          lost = true;
          throw new TypeError('fetch failed: the network went away after the service answered');
        }
      },
    });
    const started = await c.startConversation({ text: 'Hello' });
    const part = await c.sendMessage(started.id, { text: 'Typed while the train was in a tunnel' });
    const tries = sent.filter((s) => s.path.endsWith('/messages'));
    expect(tries).toHaveLength(2);
    expect(tries[0]!.headers.get('idempotency-key')).toMatch(/^[0-9a-f-]{36}$/);
    expect(tries[1]!.headers.get('idempotency-key')).toBe(tries[0]!.headers.get('idempotency-key'));
    const conversation = await c.api.GET('/guest/v1/conversations/{conversation_id}', {
      params: { path: { conversation_id: started.id } },
    });
    expect(wordsOf(conversation.data!.parts).filter((x) => x === 'Typed while the train was in a tunnel')).toHaveLength(1);
    expect(part.id).toBe(conversation.data!.parts.at(-1)!.id);
    await c.close();
  });

  it('uploads a picture by the upload flow and starts a conversation with it', async () => {
    const { c } = client();
    // The service writes its BASE_URL into the upload address; the test server listens elsewhere.
    const id = await c.uploadPicture(new Blob([new Uint8Array(png())], { type: 'image/png' }), (address, init) =>
      fetch(reachable(t, String(address)), init),
    );
    const started = await c.startConversation({ text: 'This is broken', attachment_ids: [id] });
    const conversation = await c.api.GET('/guest/v1/conversations/{conversation_id}', {
      params: { path: { conversation_id: started.id } },
    });
    expect(JSON.stringify(conversation.data)).toContain(id);
    await expect(c.startConversation({ text: 'again', attachment_ids: [id] })).rejects.toMatchObject({ status: 422 });
    await expect(c.startConversation({ text: 'again', attachment_ids: [id] })).rejects.toBeInstanceOf(GuestApiError);
    await c.close();
  });

  it('sends events in batches of at most 50, oldest first, and does not check in sooner than the answer allows', async () => {
    const { c, sent } = client();
    await expect.poll(() => sent.filter((s) => s.path === '/guest/v1/checkin').length).toBe(1);
    for (let i = 0; i < 120; i++) c.track('app_opened', { n: String(i) });
    await c.flush();
    const batches = sent.filter((s) => s.path === '/guest/v1/events').map((s) => JSON.parse(s.body).events as { props: { n: string } }[]);
    expect(batches.map((b) => b.length)).toEqual([50, 50, 20]);
    expect(batches.flat().map((e) => Number(e.props.n))).toEqual(Array.from({ length: 120 }, (_, i) => i));
    // After the events a check-in is due, but the first answer asked for 20 seconds: none yet.
    expect(sent.filter((s) => s.path === '/guest/v1/checkin')).toHaveLength(1);
    await c.close();
  });

  it('follows a conversation by long poll while watched: a staff reply arrives, and stop() ends the wait', async () => {
    const { c, sent } = client();
    const started = await c.startConversation({ text: 'Anyone there?' });
    const arrived: string[] = [];
    const watching = c.watch(started.id, started.last_seq, (parts) => arrived.push(...wordsOf(parts)));
    await expect.poll(() => sent.filter((s) => s.path.endsWith('/wait')).length).toBe(1);
    await ok('mutation($id: ID!) { replyToConversation(id: $id, text: "Yes, here") { seq } }', { id: started.id });
    await expect.poll(() => arrived).toContain('Yes, here');
    watching.stop();
    const waits = sent.filter((s) => s.path.endsWith('/wait')).length;
    await new Promise((r) => setTimeout(r, 300));
    expect(sent.filter((s) => s.path.endsWith('/wait')).length).toBe(waits);
    await c.close();
  });

  it('reads and changes the user’s preferences and consent, browses the help center’s collections, and rates with a remark', async () => {
    await ok(
      'mutation($m: ID!) { addPreferenceTopic(appModeId: $m, key: "sdk-deals", name: "Deals", channels: [email, push], offers: true) { id } }',
      { m: app.modes.live },
    );
    const { c, userId } = client();
    const deals = (await c.preferences()).topics.find((topic) => topic.topic === 'sdk-deals')!;
    expect(deals.channels.map((ch) => [ch.channel, ch.subscribed, ch.needs_consent])).toEqual([
      ['email', true, true],
      ['push', true, true],
    ]);
    const chosen = await c.choose({ choices: [{ topic: 'sdk-deals', channel: 'email', subscribed: false }], wording: 'Deals, by email' });
    expect(chosen.topics.find((topic) => topic.topic === 'sdk-deals')!.channels[0]!.subscribed).toBe(false);
    await expect(c.choose({ choices: [{ topic: 'no-such-topic', channel: 'email', subscribed: true }] })).rejects.toMatchObject({
      status: 400,
      fields: ['choices.0.topic'],
    });
    expect(await c.consent()).toMatchObject({ offers_by_push: false, changed_at: null });
    expect(await c.agree({ offers_by_push: true })).toMatchObject({ offers_by_push: true, offers_by_email: false });
    const seen = await ok('query($m: ID!, $x: String!) { contact(appModeId: $m, externalId: $x) { consent { offersByPush } } }', {
      m: app.modes.live,
      x: userId,
    });
    expect(seen.contact.consent.offersByPush).toBe(true);

    const author = helpAuthor(t, app);
    const shelf = await author.collection({ names: { en: 'Deliveries' } });
    const { slug } = await author.article({ collectionId: shelf.id, versions: { en: { title: 'Where is my parcel?' } } });
    expect((await c.collections()).items.find((i) => i.slug === shelf.slug)).toMatchObject({ name: 'Deliveries', article_count: 1 });
    expect((await c.collection(shelf.slug)).items.map((a) => a.slug)).toEqual([slug]);

    const started = await c.startConversation({ text: 'Thanks for the help' });
    await ok('mutation($id: ID!) { closeConversation(id: $id, askRating: true) { id } }', { id: started.id });
    expect((await c.rate(started.id, { rating: 4, remark: 'Quick and kind' })).rating).toEqual({ value: 4, remark: 'Quick and kind' });
    await expect(c.rate(started.id, { rating: 5 })).rejects.toMatchObject({ status: 409, code: 'already_rated' });
    await c.close();
  });

  it('follows a ticket while watched: the team’s move reads the ticket again, and a reply on it is kept once', async () => {
    const { c, sent } = client();
    const tickets = ticketsOf(
      () => t,
      () => app,
    );
    const started = await c.startConversation({ text: 'My parcel never came' });
    const made = await tickets.fromConversation(started.id, await tickets.addType());
    const ticket = (await c.api.GET('/guest/v1/tickets/{ticket_id}', { params: { path: { ticket_id: made.id } } })).data!;
    expect(ticket.state.key).toBe('submitted');
    const states: string[] = [];
    const arrived: string[] = [];
    const watching = c.watchTicket(ticket, {
      parts: (parts) => arrived.push(...wordsOf(parts)),
      ticket: (now) => states.push(now.state.label),
    });
    await expect.poll(() => sent.filter((s) => s.path.endsWith('/wait')).length).toBe(1);
    await tickets.move(made.id, 'in_progress');
    await expect.poll(() => states).toEqual(['In progress']);
    await ok('mutation($id: ID!) { replyToConversation(id: $id, text: "We are on it") { seq } }', { id: started.id });
    await expect.poll(() => arrived).toContain('We are on it');
    expect(states).toEqual(['In progress']); // a message is no move: the ticket is not read again

    const part = await c.replyToTicket(made.id, { text: 'Thanks!' });
    expect(sent.filter((s) => s.path.endsWith(`/tickets/${made.id}/messages`))[0]!.headers.get('idempotency-key')).toMatch(
      /^[0-9a-f-]{36}$/,
    );
    await expect.poll(() => arrived.filter((w) => w === 'Thanks!')).toHaveLength(1);
    expect(part.id).toBeTruthy();
    watching.stop();
    await c.close();
  });

  it('registers a browser’s push subscription as a web device and forgets it', async () => {
    const { c, sent, userId } = client();
    const subscription = JSON.stringify({
      endpoint: 'https://push.example.com/send/abc',
      expirationTime: null,
      keys: {
        p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
        auth: 'tBHItJI5svbpez7KI4CCXg',
      },
    });
    const devices = () =>
      t.svc.db.device.findMany({ where: { appModeId: app.modes.live, contact: { externalId: userId } }, select: { platform: true } });
    await c.registerDevice({ platform: 'web', token: subscription, locale: 'en' });
    await c.registerDevice({ platform: 'web', token: subscription, locale: 'en' });
    expect(await devices()).toEqual([{ platform: 'web' }]);
    await expect(c.registerDevice({ platform: 'web', token: 'not a subscription' })).rejects.toMatchObject({ status: 400 });
    await c.forgetDevice(subscription);
    expect(await devices()).toEqual([]);
    const calls = sent.filter((s) => s.path === '/guest/v1/devices').map((s) => s.method);
    expect(calls).toEqual(['PUT', 'PUT', 'PUT', 'DELETE']);
    await c.close();
  });
});
