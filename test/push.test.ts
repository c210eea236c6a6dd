import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMITTED_TOPICS } from '../src/domain/webhooks/topics.js';
import { memberOf, serverApi, staffApp, unique } from './support/factories.js';
import { call } from './support/http.js';
import { staffApi } from './support/graphql.js';
import { makeTestCertificate, type TestCertificate } from './support/https-receiver.js';
import { guestOf } from './support/messenger.js';
import {
  apnsToken,
  fcmToken,
  makeApnsKey,
  makeServiceAccount,
  startApnsStandin,
  startFcmStandin,
  startWebPushStandin,
  type ApnsStandin,
  type FcmStandin,
  type WebPushStandin,
} from './support/push-standins.js';
import { ENGINES, type EngineName, sayIfTemporalSkipped, startTestServer, testConfig, type TestServer } from './support/server.js';
import type { ManualClock } from '../src/lib/clock.js';

// Push, black-box: credentials set on the staff API and never read back; a push sent on GraphQL
// goes out as a durable process through each provider's stand-in (which checks the protocol), to
// the people who hear of its topic by push; each person reached gets a notice and a message.sent;
// a gone token forgets the device; throttling is retried after the wait the provider asked for.

let cert: TestCertificate;
let apns: ApnsStandin;
let fcm: FcmStandin;
let web: WebPushStandin;
let t: TestServer;
let clock: ManualClock;
const key = makeApnsKey();
const account = makeServiceAccount();
const BUNDLE = 'com.example.shop';

/** The providers' stand-ins, and a server sending through them. */
async function start(engine?: EngineName) {
  apns = await startApnsStandin(cert, { key, bundleId: BUNDLE, now: () => clock.now() });
  fcm = await startFcmStandin(cert, { account, now: () => clock.now() });
  web = await startWebPushStandin(cert);
  const config = testConfig({
    outboundTestTrust: { allow: [apns.hostPort, fcm.hostPort, web.hostPort], ca: cert.cert },
    push: { apnsUrl: apns.origin, apnsSandboxUrl: apns.origin, fcmUrl: fcm.origin, fcmTokenUrl: fcm.tokenUrl },
  });
  t = await startTestServer({ config, clock, engine });
}
const stop = async () => {
  await t?.close();
  await Promise.all([apns?.close(), fcm?.close(), web?.close()]);
};

beforeAll(async () => {
  cert = await makeTestCertificate();
  clock = new (await import('../src/lib/clock.js')).ManualClock();
  await start();
});
afterAll(stop);

const SET_APNS = `mutation($m: ID!, $p8: String!, $k: String!, $team: String!, $b: String!) {
  setApnsCredentials(appModeId: $m, keyP8: $p8, keyId: $k, teamId: $team, bundleId: $b, production: true) { provider set hint setAt publicKey } }`;
const SET_FCM =
  'mutation($m: ID!, $sa: String!) { setFcmCredentials(appModeId: $m, serviceAccount: $sa) { provider set hint setAt publicKey } }';
const SET_VAPID =
  'mutation($m: ID!) { setVapidKeys(appModeId: $m, subject: "mailto:push@example.com") { provider set hint setAt publicKey } }';
const SEND = `mutation($m: ID!, $title: String!, $body: String, $link: String, $topic: String, $a: SendAudienceInput!) {
  sendPush(appModeId: $m, title: $title, body: $body, link: $link, topic: $topic, audience: $a) { id state devices } }`;
const PROGRESS =
  'query($m: ID!, $id: ID!) { pushSend(appModeId: $m, id: $id) { state devices sent skipped gone failed people stopReason finishedAt } }';

/** An app of its own with every provider's credentials set, its topics, and its people's devices. */
async function pushApp(
  topics: { key: string; channels: string[]; offers?: boolean }[] = [{ key: 'orders', channels: ['push', 'in_app'] }],
) {
  const app = await staffApp(t);
  const api = staffApi(
    () => t.url,
    () => app.owner,
  );
  const m = app.modes.live;
  await api.ok(SET_APNS, { m, p8: key.p8, k: key.keyId, team: key.teamId, b: BUNDLE });
  await api.ok(SET_FCM, { m, sa: account.json });
  const vapidKey: string = (await api.ok(SET_VAPID, { m })).setVapidKeys.publicKey;
  for (const topic of topics) {
    await api.ok(
      'mutation($m: ID!, $k: String!, $c: [PreferenceChannel!]!, $o: Boolean) { addPreferenceTopic(appModeId: $m, key: $k, name: $k, channels: $c, offers: $o) { id } }',
      {
        m,
        k: topic.key,
        c: topic.channels,
        o: topic.offers ?? false,
      },
    );
  }
  /** A person of the app with one device per platform asked for; answers their tokens as each stand-in knows them. */
  const person = async (platforms: ('ios' | 'android' | 'web')[] = ['ios'], sub = unique('person')) => {
    const g = guestOf(t, app.live, sub);
    const tokens = { ios: [] as string[], android: [] as string[], web: [] as string[] };
    for (const platform of platforms) {
      const sub = platform === 'web' ? web.subscribe(vapidKey) : undefined;
      const token = platform === 'ios' ? apnsToken() : platform === 'android' ? fcmToken() : sub!.token;
      tokens[platform].push(platform === 'web' ? sub!.id : token);
      const r = await g.send('PUT', '/guest/v1/devices', { platform, token, app_version: '1.0' });
      expect(r.status, r.text).toBe(204);
    }
    return { sub, g, tokens };
  };
  const send = async (vars: Record<string, unknown>) =>
    (await api.ok(SEND, { m, title: 'Your order shipped', body: 'It arrives Friday', link: '/orders/12', ...vars })).sendPush;
  const progress = async (id: string) => (await api.ok(PROGRESS, { m, id })).pushSend;
  return { app, api, m, person, send, progress };
}

/** Runs due process steps until nothing more is due now. */
async function settle() {
  for (let i = 0; i < 10; i++) if (!(await t.engine.runDue())) return;
}

const noticesOf = async (g: ReturnType<typeof guestOf>) => (await g.send('GET', '/guest/v1/notices')).json;
const sentRows = (m: string) => t.svc.db.outboxEvent.findMany({ where: { appModeId: m, topic: 'message.sent' }, orderBy: { id: 'asc' } });

describe('credentials', () => {
  it('are set per provider and answered only as which are set, a hint and since when, never a secret part', async () => {
    const app = await staffApp(t);
    const api = staffApi(
      () => t.url,
      () => app.owner,
    );
    const m = app.modes.live;
    const STATE = '{ provider set hint setAt publicKey }';
    const READ = `query($m: ID!) { pushCredentials(appModeId: $m) { apns ${STATE} fcm ${STATE} web ${STATE} } }`;
    const before = await api.ok(READ, { m });
    expect(before.pushCredentials).toEqual(
      Object.fromEntries(
        ['apns', 'fcm', 'web'].map((provider) => [provider, { provider, set: false, hint: null, setAt: null, publicKey: null }]),
      ),
    );

    const apnsSet = (await api.ok(SET_APNS, { m, p8: key.p8, k: key.keyId, team: key.teamId, b: BUNDLE })).setApnsCredentials;
    expect(apnsSet).toEqual({
      provider: 'apns',
      set: true,
      hint: `key ${key.keyId}, team ${key.teamId}, ${BUNDLE}, production`,
      setAt: t.clock.now().toISOString(),
      publicKey: null,
    });
    await api.ok(SET_FCM, { m, sa: account.json });
    const vapid = (await api.ok(SET_VAPID, { m })).setVapidKeys;
    expect(vapid).toMatchObject({
      provider: 'web',
      set: true,
      hint: 'VAPID, mailto:push@example.com',
      publicKey: expect.stringMatching(/^[A-Za-z0-9_-]{87}$/),
    });

    const r = await api.gql(READ, { m }, app.owner);
    expect(Object.values(r.data.pushCredentials).map((c: any) => c.set)).toEqual([true, true, true]);
    const fcmHint = r.data.pushCredentials.fcm.hint;
    expect(fcmHint).toBe(`project ${account.projectId}, ${account.clientEmail}`);
    // Nothing secret in any answer, nor in the database as written.
    const text = JSON.stringify(r);
    const secretPieces = [key.p8.split('\n')[1]!, JSON.parse(account.json).private_key.split('\n')[1], account.privateKeyId];
    for (const piece of secretPieces) expect(text).not.toContain(piece);
    const rows = await t.svc.db.pushCredential.findMany({ where: { appModeId: m } });
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row.sealed).toMatch(/^v1\./);
      for (const piece of secretPieces) expect(row.sealed).not.toContain(piece);
    }
    const vapidPrivate = JSON.parse(t.svc.secrets.open(rows.find((x) => x.provider === 'web')!.sealed)).privateKey as string;
    expect(text).not.toContain(vapidPrivate);

    const cleared = await api.ok('mutation($m: ID!) { clearPushCredentials(appModeId: $m, provider: fcm) { provider set hint } }', { m });
    expect(cleared.clearPushCredentials).toEqual({ provider: 'fcm', set: false, hint: null });
    expect(await t.svc.db.pushCredential.count({ where: { appModeId: m } })).toBe(2);
  });

  it('are refused naming the field when they cannot work, and only admins and owners set them', async () => {
    const app = await staffApp(t);
    const api = staffApi(
      () => t.url,
      () => app.owner,
    );
    const m = app.modes.live;
    const bad = await api.refused(SET_APNS, { m, p8: 'not a key', k: 'short', team: key.teamId, b: 'nobundle' });
    expect(bad.code).toBe('invalid_request');
    expect(bad.errors!.map((e) => e.field)).toEqual(['keyP8', 'keyId', 'bundleId']);
    const rsa = makeServiceAccount();
    const notEc = await api.refused(SET_APNS, { m, p8: JSON.parse(rsa.json).private_key, k: key.keyId, team: key.teamId, b: BUNDLE });
    expect(notEc.errors).toEqual([{ field: 'keyP8', message: 'must be a P-256 (ES256) key, as APNs issues' }]);
    expect((await api.refused(SET_FCM, { m, sa: '{"type":"authorized_user"}' })).errors![0]!.field).toBe('serviceAccount');
    const half = await api.refused('mutation($m: ID!) { setVapidKeys(appModeId: $m, subject: "ftp://x", publicKey: "abc") { set } }', {
      m,
    });
    expect(half.errors!.map((e) => e.field).sort()).toEqual(['privateKey', 'publicKey', 'subject']);

    const agent = await memberOf(t, app.workspaceId, 'agent');
    expect((await api.refused(SET_FCM, { m, sa: account.json }, agent.token)).code).toBe('role_forbids');
    expect(await t.svc.db.pushCredential.count({ where: { appModeId: m } })).toBe(0);
  });
});

// The send is a durable process: these run on both engines, the Temporal half on a server of its own (the same clock).
sayIfTemporalSkipped('test/push.test.ts (sending)');
describe.each(ENGINES)('sending, on the $engine engine', ({ engine, skip }) => {
  describe.skipIf(skip)('', () => {
    // The Temporal half has stand-ins of its own: a provider counts its token's renewals.
    let shared: [TestServer, ApnsStandin, FcmStandin, WebPushStandin];
    beforeAll(async () => {
      if (engine === 'embedded') return;
      shared = [t, apns, fcm, web];
      await start(engine);
    });
    afterAll(async () => {
      if (engine === 'embedded') return;
      await stop();
      [t, apns, fcm, web] = shared;
    });

    it('reaches every device through its provider’s protocol, as a durable process, and each person gets a notice and a message.sent', async () => {
      const p = await pushApp();
      const ana = await p.person(['ios', 'android']);
      const ben = await p.person(['web']);
      const sent = await p.send({ topic: 'orders', a: { everyone: true } });
      expect(sent).toMatchObject({ state: 'sending', devices: 3 });
      expect(apns.received.some((r) => r.token === ana.tokens.ios[0])).toBe(false); // nothing before the process runs
      await settle();

      const a = apns.received.find((r) => r.token === ana.tokens.ios[0])!;
      expect(a.headers['apns-topic']).toBe(BUNDLE);
      expect(a.payload).toEqual({
        aps: { alert: { title: 'Your order shipped', body: 'It arrives Friday' }, sound: 'default' },
        send_id: sent.id,
        link: '/orders/12',
      });
      const f = fcm.received.find((r) => r.token === ana.tokens.android[0])!;
      expect(f.message).toMatchObject({
        notification: { title: 'Your order shipped', body: 'It arrives Friday' },
        data: { send_id: sent.id, link: '/orders/12' },
      });
      const w = web.received.find((r) => r.id === ben.tokens.web[0])!;
      expect(JSON.parse(w.payload)).toEqual({
        title: 'Your order shipped',
        body: 'It arrives Friday',
        send_id: sent.id,
        link: '/orders/12',
      });

      expect(await p.progress(sent.id)).toMatchObject({
        state: 'done',
        devices: 3,
        sent: 3,
        skipped: 0,
        gone: 0,
        failed: 0,
        people: 2,
        finishedAt: expect.any(String),
      });
      for (const who of [ana, ben]) {
        const inbox = await noticesOf(who.g);
        expect(inbox.unread).toBe(1);
        expect(inbox.notices).toEqual([
          expect.objectContaining({ title: 'Your order shipped', body: 'It arrives Friday', link: '/orders/12' }),
        ]);
      }
      const rows = await sentRows(p.m);
      expect(rows.map((r) => r.externalId).sort()).toEqual([ana.sub, ben.sub].sort());
      expect(rows[0]!.data).toEqual({ message_id: sent.id, channel: 'push' });
      expect(EMITTED_TOPICS).toContain('message.sent');
    });

    it('skips people who turned its topic off by push, or everything off, or lack consent to offers for an offers topic', async () => {
      const p = await pushApp([
        { key: 'orders', channels: ['push', 'in_app'] },
        { key: 'deals', channels: ['push'], offers: true },
      ]);
      const hears = await p.person();
      const topicOff = await p.person();
      expect(
        (
          await topicOff.g.send('PUT', '/guest/v1/preferences', {
            choices: [{ topic: 'orders', channel: 'push', subscribed: false }],
            wording: 'Order pushes',
          })
        ).status,
      ).toBe(200);
      const inAppOff = await p.person(); // off in-app only: still hears by push
      await inAppOff.g.send('PUT', '/guest/v1/preferences', { choices: [{ topic: 'orders', channel: 'in_app', subscribed: false }] });
      const allOff = await p.person();
      expect((await allOff.g.send('PUT', '/guest/v1/preferences', { all_off: true, wording: 'Nothing' })).status).toBe(200);

      const orders = await p.send({ topic: 'orders', a: { everyone: true } });
      await settle();
      const reached = (who: { tokens: { ios: string[] } }) =>
        apns.received.filter((r) => r.token === who.tokens.ios[0] && r.payload.send_id === orders.id).length;
      expect([hears, topicOff, inAppOff, allOff].map(reached)).toEqual([1, 0, 1, 0]);
      expect(await p.progress(orders.id)).toMatchObject({ state: 'done', devices: 4, sent: 2, skipped: 2, people: 2 });
      expect((await noticesOf(topicOff.g)).notices).toEqual([]);
      expect((await noticesOf(allOff.g)).notices).toEqual([]);

      // An offers topic: only who agreed to offers by push.
      expect((await hears.g.send('PUT', '/guest/v1/consent', { offers_by_push: true })).status).toBe(200);
      const deals = await p.send({ topic: 'deals', title: '20% off', a: { everyone: true } });
      await settle();
      const gotDeal = apns.received.filter((r) => r.payload.send_id === deals.id).map((r) => r.token);
      expect(gotDeal).toEqual(hears.tokens.ios);
      expect(await p.progress(deals.id)).toMatchObject({ sent: 1, skipped: 3, people: 1 });
      expect(
        (await sentRows(p.m)).filter((r) => (r.data as { message_id: string }).message_id === deals.id).map((r) => r.externalId),
      ).toEqual([hears.sub]);
    });

    it('forgets a device whose token the provider says is gone, and counts it', async () => {
      const p = await pushApp();
      const keeps = await p.person(['ios']);
      const lost = await p.person(['ios', 'android']);
      apns.tell(lost.tokens.ios[0]!, { gone: true });
      fcm.tell(lost.tokens.android[0]!, { gone: true });
      const sent = await p.send({ a: { everyone: true } });
      await settle();
      expect(await p.progress(sent.id)).toMatchObject({ state: 'done', sent: 1, gone: 2, people: 1 });
      const contact = await t.svc.db.contact.findUniqueOrThrow({
        where: { appModeId_externalId: { appModeId: p.m, externalId: lost.sub } },
      });
      expect(await t.svc.db.device.count({ where: { contactId: contact.id } })).toBe(0);
      expect(await t.svc.db.device.count({ where: { appModeId: p.m } })).toBe(1);
      expect((await noticesOf(lost.g)).notices).toEqual([]);
      expect((await noticesOf(keeps.g)).unread).toBe(1);
    });

    it('sends a throttled device again only once the Retry-After has passed, and a provider’s pause holds its other devices too', async () => {
      const p = await pushApp();
      const slow = await p.person(['android']);
      const other = await p.person(['android']);
      const apple = await p.person(['ios']);
      fcm.tell(slow.tokens.android[0]!, { throttle: 30, times: 1 });
      const sent = await p.send({ a: { everyone: true } });
      await settle();
      const fcmGot = () => fcm.received.filter((r) => r.message.data?.send_id === sent.id).map((r) => r.token);
      // FCM asked for a pause: nothing more went to FCM this step; APNs went on.
      expect(apns.received.filter((r) => r.payload.send_id === sent.id).map((r) => r.token)).toEqual(apple.tokens.ios);
      expect(await p.progress(sent.id)).toMatchObject({ state: 'sending', sent: fcmGot().length + 1 });
      const retrying = await t.svc.db.pushDelivery.findMany({ where: { sendId: sent.id, state: 'retry' } });
      expect(retrying.length).toBeGreaterThanOrEqual(1);
      expect(retrying.every((r) => r.retryAt!.getTime() === t.clock.now().getTime() + 30_000)).toBe(true);

      t.clock.advance(29_000);
      await settle();
      expect(fcmGot()).not.toContain(slow.tokens.android[0]);
      t.clock.advance(1_000);
      await settle();
      expect(fcmGot().sort()).toEqual([slow.tokens.android[0], other.tokens.android[0]].sort());
      expect(await p.progress(sent.id)).toMatchObject({ state: 'done', sent: 3, failed: 0, people: 3 });
      expect(fcm.received.filter((r) => r.token === slow.tokens.android[0])).toHaveLength(1);
    });

    it('goes to one person, or to the people an attribute filter finds', async () => {
      const p = await pushApp();
      const server = serverApi(t, p.app.live.server_key);
      const pro = await p.person();
      const free = await p.person();
      const tagged = await p.person();
      await server.identify(pro.sub, { attributes: { plan: 'pro', seats: 5 } });
      await server.identify(free.sub, { attributes: { plan: 'free', seats: 1 } });
      await server.identify(tagged.sub, { attributes: { plan: 'pro', seats: 2, labels: ['beta', 'vip'] } });

      const one = await p.send({ a: { externalId: free.sub } });
      const pros = await p.send({ a: { attributes: [{ name: 'plan', value: 'pro' }] } });
      const vips = await p.send({
        a: {
          attributes: [
            { name: 'plan', value: 'pro' },
            { name: 'labels', value: 'vip' },
          ],
        },
      });
      expect([one.devices, pros.devices, vips.devices]).toEqual([1, 2, 1]);
      await settle();
      const to = (id: string) =>
        apns.received
          .filter((r) => r.payload.send_id === id)
          .map((r) => r.token)
          .sort();
      expect(to(one.id)).toEqual(free.tokens.ios);
      expect(to(pros.id)).toEqual([...pro.tokens.ios, ...tagged.tokens.ios].sort());
      expect(to(vips.id)).toEqual(tagged.tokens.ios);

      const refused = await p.api.refused(SEND, {
        m: p.m,
        title: 'x',
        a: {
          attributes: [
            { name: 'nope', value: 1 },
            { name: 'seats', value: 'many' },
          ],
        },
      });
      expect(refused.errors).toEqual([
        { field: 'audience.attributes.0.name', message: 'is not an attribute of this app' },
        { field: 'audience.attributes.1.value', message: 'must be a number (its type is number)' },
      ]);
      expect((await p.api.refused(SEND, { m: p.m, title: 'x', a: { everyone: true, externalId: free.sub } })).errors![0]!.field).toBe(
        'audience',
      );
      expect((await p.api.refused(SEND, { m: p.m, title: 'x', a: { externalId: 'nobody' } })).code).toBe('not_found');
    });

    it('lets an agent push one person but not everyone', async () => {
      const p = await pushApp();
      const someone = await p.person();
      const agent = await memberOf(t, p.app.workspaceId, 'agent');
      expect((await p.api.ok(SEND, { m: p.m, title: 'Hi', a: { externalId: someone.sub } }, agent.token)).sendPush.devices).toBe(1);
      expect((await p.api.refused(SEND, { m: p.m, title: 'Hi', a: { everyone: true } }, agent.token)).code).toBe('role_forbids');
    });

    it('refuses a push too large for a provider, a topic that does not go by push, and an app with no credentials, naming why', async () => {
      const p = await pushApp([{ key: 'mail-only', channels: ['email'] }]);
      const big = await p.api.refused(SEND, { m: p.m, title: 'T'.repeat(200), body: 'é'.repeat(2000), a: { everyone: true } });
      expect(big.code).toBe('invalid_request');
      expect(big.errors).toEqual([
        {
          field: 'body',
          message: expect.stringMatching(
            /^makes the push too large \(4,\d{3} bytes for APNs, which takes 4,096; .*\): shorten the title, body or link$/,
          ),
        },
      ]);
      expect((await p.api.refused(SEND, { m: p.m, title: 'x', topic: 'mail-only', a: { everyone: true } })).errors).toEqual([
        { field: 'topic', message: 'does not go by push: add push to its channels to send pushes under it' },
      ]);
      expect(
        (await p.api.refused(SEND, { m: p.m, title: 'x', link: 'javascript:alert(1)', a: { everyone: true } })).errors![0]!.field,
      ).toBe('link');
      const bare = await staffApp(t);
      const none = await staffApi(
        () => t.url,
        () => bare.owner,
      ).refused(SEND, { m: bare.modes.live, title: 'x', a: { everyone: true } });
      expect(none).toMatchObject({ code: 'push_credentials_unset', status: 409 });
      expect(await t.svc.db.pushSend.count({ where: { appModeId: { in: [p.m, bare.modes.live] } } })).toBe(0);
    });

    it('counts a platform without credentials as failed, and a send’s progress is listed for staff', async () => {
      const p = await pushApp();
      await p.api.ok('mutation($m: ID!) { clearPushCredentials(appModeId: $m, provider: apns) { set } }', { m: p.m });
      await p.person(['ios']);
      await p.person(['android']);
      const sent = await p.send({ a: { everyone: true } });
      await settle();
      expect(await p.progress(sent.id)).toMatchObject({ state: 'done', sent: 1, failed: 1, people: 1 });
      const detail = await t.svc.db.pushDelivery.findFirstOrThrow({ where: { sendId: sent.id, state: 'failed' } });
      expect(detail.detail).toBe('no APNs credentials are set');
      const list = await p.api.ok('query($m: ID!) { pushSends(appModeId: $m) { edges { node { id title sent failed } } } }', { m: p.m });
      expect(list.pushSends.edges).toEqual([{ node: { id: sent.id, title: 'Your order shipped', sent: 1, failed: 1 } }]);
    });

    it('leaves nothing of an erased person in its sends: their rows go, and a send to them alone keeps no external id', async () => {
      const p = await pushApp();
      const gone = await p.person();
      const stays = await p.person();
      const alone = await p.send({ a: { externalId: gone.sub } });
      const all = await p.send({ a: { everyone: true } });
      await settle();
      const contact = await t.svc.db.contact.findUniqueOrThrow({
        where: { appModeId_externalId: { appModeId: p.m, externalId: gone.sub } },
      });
      const rowsOf = async (contactId: string) => ({
        deliveries: await t.svc.db.pushDelivery.count({ where: { contactId } }),
        recipients: await t.svc.db.pushRecipient.count({ where: { contactId } }),
      });
      expect(await rowsOf(contact.id)).toEqual({ deliveries: 2, recipients: 2 });

      const r = await call(t.url, 'DELETE', `/server/v1/contacts/${gone.sub}`, {
        headers: { Authorization: `Bearer ${p.app.live.server_key}` },
      });
      expect(r.status).toBe(202);
      await settle();
      expect(await rowsOf(contact.id)).toEqual({ deliveries: 0, recipients: 0 });
      expect((await t.svc.db.pushSend.findUniqueOrThrow({ where: { id: alone.id } })).audience).toEqual({ erased: true });
      const other = await t.svc.db.contact.findUniqueOrThrow({
        where: { appModeId_externalId: { appModeId: p.m, externalId: stays.sub } },
      });
      expect(await rowsOf(other.id)).toEqual({ deliveries: 1, recipients: 1 });
      // The counts are the send's, not the person's: they stay.
      expect(await p.progress(all.id)).toMatchObject({ sent: 2, people: 2 });
    });
  });
});
