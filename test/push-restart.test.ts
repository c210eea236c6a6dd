import { afterAll, beforeAll, expect, it } from 'vitest';
import { ManualClock } from '../src/lib/clock.js';
import { buildActivities } from '../workflows/processes/activities.js';
import { pushSendActivities } from '../workflows/processes/push-send/activities.js';
import { INTERRUPTED } from '../src/domain/push/record.js';
import { createTestDatabase } from './support/db.js';
import { staffApi } from './support/graphql.js';
import { makeTestCertificate, type TestCertificate } from './support/https-receiver.js';
import { guestOf } from './support/messenger.js';
import { apnsToken, makeApnsKey, startApnsStandin, type ApnsStandin } from './support/push-standins.js';
import { seedApp, startTestServer, testConfig, type TestServer } from './support/server.js';
import { modeIds, signedIn, unique } from './support/factories.js';
import type { OpenServices } from '../src/services.js';

// A send that survives its server stopping between steps and in the middle of one: the next server
// on the same database takes the send up where it was, and no device gets the push twice. Steps of
// 4 devices, so 10 people make 3 steps.

const PEOPLE = 10;
const STEP = 4;
const BUNDLE = 'com.example.restart';
const key = makeApnsKey();
const clock = new ManualClock();
let cert: TestCertificate;
let apns: ApnsStandin;
let dbUrl: string;
let servers: TestServer[] = [];

beforeAll(async () => {
  cert = await makeTestCertificate();
  apns = await startApnsStandin(cert, { key, bundleId: BUNDLE, now: () => clock.now() });
  dbUrl = await createTestDatabase();
});
afterAll(async () => {
  for (const s of servers) await s.close().catch(() => undefined);
  await apns?.close();
});

const config = () =>
  testConfig({
    outboundTestTrust: { allow: [apns.hostPort], ca: cert.cert },
    push: { apnsUrl: apns.origin, apnsSandboxUrl: apns.origin, fcmUrl: apns.origin, fcmTokenUrl: `${apns.origin}/token` },
  });

/** A server process on the shared database whose sends take steps of STEP devices; `step` may wrap each step. */
async function server(step?: (real: () => Promise<unknown>, call: number) => Promise<unknown>): Promise<TestServer> {
  const s = await startTestServer({
    dbUrl,
    clock,
    config: config(),
    activities: (svc: OpenServices) => {
      const acts = { ...buildActivities(svc), ...pushSendActivities(svc, { batchSize: STEP }) };
      let calls = 0;
      const real = acts.sendPushBatch;
      if (step) acts.sendPushBatch = (input) => step(() => real(input), ++calls) as ReturnType<typeof real>;
      return acts;
    },
  });
  servers.push(s);
  return s;
}

/** An app with APNs credentials and PEOPLE people with one iPhone each; the send to everyone, made on `s`. */
async function sendToEveryone(s: TestServer) {
  const app = await seedApp(s.svc);
  const owner = await signedIn(s, app.ownerEmail, app.ownerPassword);
  const m = (await modeIds(s, app)).live;
  const api = staffApi(
    () => s.url,
    () => owner,
  );
  await api.ok(
    'mutation($m: ID!, $p8: String!, $k: String!, $team: String!) { setApnsCredentials(appModeId: $m, keyP8: $p8, keyId: $k, teamId: $team, bundleId: "com.example.restart", production: true) { set } }',
    {
      m,
      p8: key.p8,
      k: key.keyId,
      team: key.teamId,
    },
  );
  const tokens: string[] = [];
  for (let i = 0; i < PEOPLE; i++) {
    const token = apnsToken();
    tokens.push(token);
    expect((await guestOf(s, app.live, unique('p')).send('PUT', '/guest/v1/devices', { platform: 'ios', token })).status).toBe(204);
  }
  const { sendPush } = await api.ok(
    'mutation($m: ID!) { sendPush(appModeId: $m, title: "Back in stock", audience: { everyone: true }) { id devices } }',
    { m },
  );
  expect(sendPush.devices).toBe(PEOPLE);
  return { m, tokens, sendId: sendPush.id as string };
}

async function settle(s: TestServer) {
  for (let i = 0; i < 20; i++) if (!(await s.engine.runDue())) return;
}

const pushesTo = (tokens: string[]) => tokens.map((token) => apns.received.filter((r) => r.token === token).length);

async function outcome(s: TestServer, m: string, sendId: string) {
  const send = await s.svc.db.pushSend.findUniqueOrThrow({ where: { id: sendId } });
  const notices = await s.svc.db.notice.count({ where: { appModeId: m, sendKey: sendId } });
  const sent = await s.svc.db.outboxEvent.findMany({ where: { appModeId: m, topic: 'message.sent' } });
  return {
    state: send.state,
    sent: send.sent,
    failed: send.failed,
    people: send.people,
    notices,
    messageSent: new Set(sent.map((r) => r.externalId)).size,
    messageSentRows: sent.length,
  };
}

it('takes a send up again after the server stopped before its step was saved, sending nothing twice', async () => {
  // The first server runs step 1, then step 2, and stops before the engine saves step 2's result.
  const first = await server(async (real, call) => {
    const result = await real();
    if (call === 2) throw new Error('the server stopped before the step was saved');
    return result;
  });
  const { m, tokens, sendId } = await sendToEveryone(first);
  await settle(first);
  expect(pushesTo(tokens).filter((n) => n === 1)).toHaveLength(2 * STEP);
  await first.close();
  servers = servers.filter((s) => s !== first);

  const second = await server();
  clock.advance(2_000); // the engine's pause before it tries a failed step again
  await settle(second);
  expect(pushesTo(tokens)).toEqual(Array(PEOPLE).fill(1));
  expect(await outcome(second, m, sendId)).toEqual({
    state: 'done',
    sent: PEOPLE,
    failed: 0,
    people: PEOPLE,
    notices: PEOPLE,
    messageSent: PEOPLE,
    messageSentRows: PEOPLE,
  });
  expect(await second.engine.describe(sendId)).toMatchObject({ state: 'ended', outcome: { finished: true } });
});

it('after a server stopped in the middle of a step, never sends again to the devices that step had claimed, and counts them as reached', async () => {
  // The first server's step 2 is in flight (APNs holds its answers) when the server stops.
  const first = await server();
  const { m, tokens, sendId } = await sendToEveryone(first);
  const sorted = await first.svc.db.device.findMany({
    where: { appModeId: m },
    orderBy: { contactId: 'asc' },
    select: { tokenSealed: true },
  });
  const stepTwo = sorted.slice(STEP, 2 * STEP).map((d) => first.svc.secrets.open(d.tokenSealed));
  for (const token of stepTwo) apns.tell(token, { hold: 1_500 });
  const running = settle(first).catch(() => undefined);
  const deadline = Date.now() + 10_000;
  while (!stepTwo.every((token) => apns.arrived.includes(token)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  await first.close();
  servers = servers.filter((s) => s !== first);
  await running;

  const second = await server();
  clock.advance(3 * 60_000); // the stopped server's lease on the step runs out: the engine tries the step again after its pause
  await settle(second);
  clock.advance(2_000);
  await settle(second);
  // Step 2's devices got the push once (sent by the first server); nobody got it twice.
  expect(pushesTo(tokens).every((n) => n <= 1)).toBe(true);
  expect(apns.arrived.filter((t) => tokens.includes(t))).toHaveLength(PEOPLE);
  const done = await outcome(second, m, sendId);
  // The held pushes went out (the provider took them) though their answers were never written: a
  // device claimed by a step that stopped counts as sent, with its person's notice and message.sent.
  expect(done).toMatchObject({
    state: 'done',
    sent: PEOPLE,
    failed: 0,
    people: PEOPLE,
    notices: PEOPLE,
    messageSent: PEOPLE,
    messageSentRows: PEOPLE,
  });
  const settled = await second.svc.db.pushDelivery.findMany({ where: { sendId, detail: INTERRUPTED } });
  expect(settled.map((d) => d.state)).toEqual(Array(STEP).fill('sent'));
});
