import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApnsTokens, sendApns, type ApnsCredentials, type ProviderToken, type ProviderTokenStore } from '../src/lib/push/apns.js';
import { FcmTokens, readServiceAccount, sendFcm, type ServiceAccount } from '../src/lib/push/fcm.js';
import { Http2Client } from '../src/lib/push/h2.js';
import { newVapidKeys, readSubscription, WebPushClient, type VapidKeys } from '../src/lib/push/web-push.js';
import { ManualClock } from '../src/lib/clock.js';
import { makeTestCertificate, type TestCertificate } from './support/https-receiver.js';
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

// Each provider's protocol, spoken by src/lib/push and checked by a stand-in that verifies what the
// real provider verifies: a wrong key, team, account or VAPID key is refused by the stand-in (so its
// checks are real), a token it says is gone comes back as gone, throttling as a retry after the wait
// it asked for, and an oversized payload is refused before anything is sent.

const MIN = 60_000;
let cert: TestCertificate;
let apns: ApnsStandin;
let fcm: FcmStandin;
let web: WebPushStandin;
const clock = new ManualClock();
const key = makeApnsKey();
const account = makeServiceAccount();
let creds: ApnsCredentials;
let sa: ServiceAccount;
let client: Http2Client;
let webClient: WebPushClient;

beforeAll(async () => {
  cert = await makeTestCertificate();
  apns = await startApnsStandin(cert, { key, bundleId: 'com.example.app', now: () => clock.now() });
  fcm = await startFcmStandin(cert, { account, now: () => clock.now() });
  web = await startWebPushStandin(cert);
  const testTrust = { allow: [apns.hostPort, fcm.hostPort, web.hostPort], ca: cert.cert };
  client = new Http2Client({ testTrust });
  webClient = new WebPushClient({ testTrust });
  creds = { privateKey: key.p8, keyId: key.keyId, teamId: key.teamId, bundleId: 'com.example.app', production: true };
  sa = readServiceAccount(account.json) as ServiceAccount;
});
afterAll(async () => {
  await client?.close();
  webClient?.close();
  await Promise.all([apns?.close(), fcm?.close(), web?.close()]);
});

const alert = (title: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ aps: { alert: { title, body: 'Body' }, sound: 'default' }, ...extra });

describe('APNs', () => {
  // One set of provider tokens, as the service keeps: APNs (and its stand-in) refuses a key's new token within 20 minutes of the last.
  const tokens = new ApnsTokens();

  it('sends over one HTTP/2 connection with a provider token APNs accepts, reused until it is 50 minutes old and never renewed within 20', async () => {
    const devices = Array.from({ length: 20 }, apnsToken);
    const before = apns.connections();
    const outcomes = await Promise.all(
      devices.map((d) => sendApns(client, tokens, creds, apns.origin, { deviceToken: d, payload: alert('Hi') }, clock.now())),
    );
    expect(outcomes.every((o) => o.kind === 'sent')).toBe(true);
    expect(apns.connections() - before).toBeLessThanOrEqual(1);
    const got = apns.received.filter((r) => devices.includes(r.token));
    expect(got).toHaveLength(20);
    expect(got[0]!.headers['apns-topic']).toBe('com.example.app');
    expect(got[0]!.headers['apns-push-type']).toBe('alert');
    expect(got[0]!.payload.aps.alert.title).toBe('Hi');
    expect(new Set(got.map((r) => r.jwt)).size).toBe(1);

    const first = got[0]!.jwt;
    clock.advance(30 * MIN);
    const d2 = apnsToken();
    expect((await sendApns(client, tokens, creds, apns.origin, { deviceToken: d2, payload: alert('Later') }, clock.now())).kind).toBe(
      'sent',
    );
    expect(apns.received.find((r) => r.token === d2)!.jwt).toBe(first);

    clock.advance(21 * MIN); // 51 minutes after the first: a new token, which APNs takes (over 20 minutes since the last)
    const d3 = apnsToken();
    expect((await sendApns(client, tokens, creds, apns.origin, { deviceToken: d3, payload: alert('Renewed') }, clock.now())).kind).toBe(
      'sent',
    );
    expect(apns.received.find((r) => r.token === d3)!.jwt).not.toBe(first);
  });

  it('shares one token between processes through a store, so a second process (or one started again) renews nothing', async () => {
    const kept = new Map<string, ProviderToken>();
    const store: ProviderTokenStore = {
      load: async (name) => kept.get(name),
      save: async (name, token, replacing) => {
        const now = kept.get(name);
        if (now && now.madeAt !== replacing) return now;
        kept.set(name, token);
        return token;
      },
    };
    const other = makeApnsKey('SHARED1234', key.teamId);
    const shared = { ...creds, privateKey: other.p8, keyId: 'SHARED1234' };
    const first = new ApnsTokens(store);
    const second = new ApnsTokens(store);
    const a = await first.tokenFor(shared, clock.now());
    clock.advance(MIN);
    expect(await second.tokenFor(shared, clock.now())).toBe(a);
    clock.advance(50 * MIN);
    const renewed = await second.tokenFor(shared, clock.now());
    expect(renewed).not.toBe(a);
    expect(await first.tokenFor(shared, clock.now())).toBe(renewed);
  });

  it('answers retry, not a failure of the key, when the token store cannot be read (the database away), and makes one once it can', async () => {
    let away = true;
    const store: ProviderTokenStore = {
      load: async () => {
        if (away) throw new Error('terminating connection due to administrator command');
        return undefined;
      },
      save: async (_name, token) => token,
    };
    const other = makeApnsKey('STORE12345', key.teamId);
    const own = { ...creds, privateKey: other.p8, keyId: 'STORE12345' };
    const sharing = new ApnsTokens(store);
    const d = apnsToken();
    const o = await sendApns(client, sharing, own, apns.origin, { deviceToken: d, payload: alert('x') }, clock.now());
    expect(o).toMatchObject({ kind: 'retry', provider: false });
    expect(o).not.toHaveProperty('systemic');
    away = false;
    expect(await sharing.tokenFor(own, clock.now())).toMatch(/^ey/);
  });

  it('is refused by the stand-in when the token is signed with another key, or names another team or key id', async () => {
    const other = makeApnsKey(key.keyId, key.teamId);
    for (const wrong of [
      { ...creds, privateKey: other.p8 },
      { ...creds, teamId: 'OTHERTEAM1' },
      { ...creds, keyId: 'ZZZ999ZZZZ' },
    ]) {
      const o = await sendApns(
        client,
        new ApnsTokens(),
        wrong,
        apns.origin,
        { deviceToken: apnsToken(), payload: alert('x') },
        clock.now(),
      );
      expect(o).toMatchObject({ kind: 'failed', reason: 'APNs 403 InvalidProviderToken', systemic: true });
    }
  });

  it('is refused by the stand-in for another app’s topic, and for a token more than an hour old by its clock', async () => {
    const o = await sendApns(
      client,
      tokens,
      { ...creds, bundleId: 'com.example.other' },
      apns.origin,
      { deviceToken: apnsToken(), payload: alert('x') },
      clock.now(),
    );
    expect(o).toMatchObject({ kind: 'failed', reason: 'APNs 400 TopicDisallowed', systemic: true });
    // This server's clock an hour behind APNs': its new token is expired there, and renewing it at once would be refused too, so it says so.
    const behind = new Date(clock.now().getTime() - 61 * MIN);
    expect(
      await sendApns(client, new ApnsTokens(), creds, apns.origin, { deviceToken: apnsToken(), payload: alert('x') }, behind),
    ).toMatchObject({
      kind: 'failed',
      reason: expect.stringMatching(/^APNs 403 ExpiredProviderToken: the token is younger than 20 minutes/),
      systemic: true,
    });
  });

  it('answers gone for a token APNs says is unregistered, with since when', async () => {
    const d = apnsToken();
    apns.tell(d, { gone: true });
    const o = await sendApns(client, tokens, creds, apns.origin, { deviceToken: d, payload: alert('x') }, clock.now());
    expect(o).toMatchObject({ kind: 'gone', reason: 'APNs 410 Unregistered' });
    expect(o.kind === 'gone' && o.since?.getTime()).toBe(clock.now().getTime());
  });

  it('answers retry after the Retry-After APNs gave; 503 pauses the provider, 429 only the token', async () => {
    const d = apnsToken();
    apns.tell(d, { throttle: 7, times: 1 });
    expect(await sendApns(client, tokens, creds, apns.origin, { deviceToken: d, payload: alert('x') }, clock.now())).toEqual({
      kind: 'retry',
      reason: 'APNs 429 TooManyRequests',
      afterMs: 7000,
      provider: false,
    });
    const e = apnsToken();
    apns.tell(e, { throttle: 3, times: 1, status: 503 });
    expect(await sendApns(client, tokens, creds, apns.origin, { deviceToken: e, payload: alert('x') }, clock.now())).toMatchObject({
      kind: 'retry',
      afterMs: 3000,
      provider: true,
    });
  });

  it('refuses a payload over 4 KB before sending; the stand-in refuses one that reaches it', async () => {
    const d = apnsToken();
    const big = alert('x', { pad: 'é'.repeat(2100) });
    const o = await sendApns(client, tokens, creds, apns.origin, { deviceToken: d, payload: big }, clock.now());
    expect(o).toMatchObject({
      kind: 'failed',
      reason: expect.stringMatching(/^payload_too_large: the APNs payload is 4,2\d\d bytes, above the 4,096 APNs takes$/),
    });
    expect(apns.received.some((r) => r.token === d)).toBe(false);
    // Not a payload with an aps dictionary: the stand-in's shape check is real too.
    expect(await sendApns(client, tokens, creds, apns.origin, { deviceToken: d, payload: '{"alert":"x"}' }, clock.now())).toMatchObject({
      kind: 'failed',
      reason: 'APNs 400 BadPayload',
    });
  });

  it('reaches a private address only when the test setting names it', async () => {
    const plain = new Http2Client();
    const o = await sendApns(plain, new ApnsTokens(), creds, apns.origin, { deviceToken: apnsToken(), payload: alert('x') }, clock.now());
    expect(o).toMatchObject({ kind: 'failed', reason: expect.stringContaining('refused_address: 127.0.0.1 is loopback'), systemic: true });
    await plain.close();
  });
});

describe('FCM HTTP v1', () => {
  const urls = () => ({ fcmUrl: fcm.origin, tokenUrl: fcm.tokenUrl });
  const content = { notification: { title: 'Hello', body: 'There' }, data: { link: '/orders/1' } };

  it('exchanges a signed assertion for an access token once, sends with it, and fetches a new one shortly before it expires', async () => {
    const tokens = new FcmTokens();
    const before = fcm.tokenRequests.length;
    const devices = Array.from({ length: 10 }, fcmToken);
    const outcomes = await Promise.all(devices.map((d) => sendFcm(client, tokens, sa, urls(), d, content, clock.now())));
    expect(outcomes.every((o) => o.kind === 'sent')).toBe(true);
    expect(fcm.tokenRequests.slice(before)).toEqual([{ ok: true }]);
    const got = fcm.received.find((r) => r.token === devices[0]);
    expect(got!.message).toMatchObject({ token: devices[0], notification: { title: 'Hello', body: 'There' }, data: { link: '/orders/1' } });

    clock.advance(50 * MIN);
    await sendFcm(client, tokens, sa, urls(), fcmToken(), content, clock.now());
    expect(fcm.tokenRequests.length - before).toBe(1);
    clock.advance(6 * MIN); // 56 minutes: within five minutes of the hour
    expect((await sendFcm(client, tokens, sa, urls(), fcmToken(), content, clock.now())).kind).toBe('sent');
    expect(fcm.tokenRequests.length - before).toBe(2);
  });

  it('is refused by the stand-in when the assertion is signed with another key', async () => {
    const other = readServiceAccount(makeServiceAccount(account.projectId).json) as ServiceAccount;
    const forged = { ...sa, privateKey: other.privateKey };
    const o = await sendFcm(client, new FcmTokens(), forged, urls(), fcmToken(), content, clock.now());
    expect(o).toMatchObject({
      kind: 'failed',
      reason: 'the service account was refused: token endpoint 400 invalid_grant: Invalid JWT Signature.',
      systemic: true,
    });
  });

  it('answers gone for UNREGISTERED, and retry after the Retry-After of QUOTA_EXCEEDED', async () => {
    const tokens = new FcmTokens();
    const d = fcmToken();
    fcm.tell(d, { gone: true });
    expect(await sendFcm(client, tokens, sa, urls(), d, content, clock.now())).toEqual({ kind: 'gone', reason: 'FCM 404 UNREGISTERED' });
    const e = fcmToken();
    fcm.tell(e, { throttle: 3, times: 1 });
    expect(await sendFcm(client, tokens, sa, urls(), e, content, clock.now())).toEqual({
      kind: 'retry',
      reason: 'FCM 429 QUOTA_EXCEEDED',
      afterMs: 3000,
      provider: true,
    });
  });

  it('refuses a message over 4 KB before sending', async () => {
    const before = fcm.received.length;
    const o = await sendFcm(
      client,
      new FcmTokens(),
      sa,
      urls(),
      fcmToken(),
      { notification: { title: 'x', body: 'y'.repeat(4100) } },
      clock.now(),
    );
    expect(o).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/^payload_too_large: the FCM payload/) });
    expect(fcm.received.length).toBe(before);
  });
});

describe('Web Push with VAPID', () => {
  const vapid: VapidKeys = { ...newVapidKeys(), subject: 'mailto:push@example.com' };

  it('posts the payload encrypted for the subscription, signed with the VAPID keys; the stand-in decrypts it', async () => {
    const { id, token } = web.subscribe(vapid.publicKey);
    const o = await webClient.send(readSubscription(token)!, '{"title":"Hi","body":"There"}', vapid, clock.now());
    expect(o.kind).toBe('sent');
    const got = web.received.find((r) => r.id === id)!;
    expect(got.payload).toBe('{"title":"Hi","body":"There"}');
    expect(got.headers['content-encoding']).toBe('aes128gcm');
    expect(got.headers.authorization).toMatch(/^vapid t=[^,]+, k=[A-Za-z0-9_-]+$/);
  });

  it('is refused by the stand-in when signed with keys other than those the browser subscribed with', async () => {
    const { token } = web.subscribe(vapid.publicKey);
    const other: VapidKeys = { ...newVapidKeys(), subject: vapid.subject };
    expect(await webClient.send(readSubscription(token)!, '{}', other, clock.now())).toEqual({
      kind: 'failed',
      reason: 'push service 403',
    });
  });

  it('answers gone for 410, and retry after the Retry-After of 429', async () => {
    const a = web.subscribe(vapid.publicKey);
    web.tell(a.id, { gone: true });
    expect(await webClient.send(readSubscription(a.token)!, '{}', vapid, clock.now())).toEqual({
      kind: 'gone',
      reason: 'push service 410',
    });
    const b = web.subscribe(vapid.publicKey);
    web.tell(b.id, { throttle: 4, times: 1 });
    expect(await webClient.send(readSubscription(b.token)!, '{}', vapid, clock.now())).toEqual({
      kind: 'retry',
      reason: 'push service 429',
      afterMs: 4000,
      provider: true,
    });
  });

  it('refuses a payload the push service would not take, before encrypting it', async () => {
    const { id, token } = web.subscribe(vapid.publicKey);
    const o = await webClient.send(readSubscription(token)!, 'x'.repeat(4000), vapid, clock.now());
    expect(o).toMatchObject({
      kind: 'failed',
      reason: 'payload_too_large: the Web Push payload is 4,000 bytes, above the 3,993 Web Push takes',
    });
    expect(web.received.some((r) => r.id === id)).toBe(false);
  });

  it('never posts to a private endpoint the test setting does not name', async () => {
    const plain = new WebPushClient();
    const { token } = web.subscribe(vapid.publicKey);
    expect(await plain.send(readSubscription(token)!, '{}', vapid, clock.now())).toEqual({
      kind: 'failed',
      reason: 'endpoint refused: 127.0.0.1 is loopback',
    });
    plain.close();
  });
});
