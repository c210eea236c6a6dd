import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openServices, type OpenServices } from '../src/services.js';
import { createTestDatabase } from './support/db.js';
import { staffApi } from './support/graphql.js';
import { call, userToken } from './support/http.js';
import { makeTestCertificate, startReceiver, type Receiver } from './support/https-receiver.js';
import { freePorts, launch, ready, stopProcess, type Proc } from './support/processes.js';
import { seedApp, TEST_SECRET_KEY, testConfig, type SeededApp } from './support/server.js';

// The flood, on a real server process with its background worker: tenant A adds 16
// webhook endpoints at a receiver that takes the post and never answers (each post holds its slot
// for the 10 s outbound timeout), then makes 10 Identify calls: 160 slow deliveries. Meanwhile
// tenant B's deliveries arrive within 2 s (p99) and B's 5-second snooze wakes within 1 s of its time.

const A_ENDPOINTS = 16;
const A_IDENTIFIES = 10;
const B_DELIVERIES = 12;
const SNOOZE_MS = 5_000;

let dir: string;
let dbUrl: string;
let svc: OpenServices;
let receiver: Receiver;
let proc: Proc | undefined;
/** Posts held unanswered, closed at the end. */
const held: ServerResponse[] = [];
/** When each of B's posts arrived, by the person it names. */
const arrivedB = new Map<string, number>();

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'crm-fairness-flood-'));
  const cert = await makeTestCertificate();
  await writeFile(path.join(dir, 'ca.pem'), cert.cert);
  receiver = await startReceiver(cert, {
    handler: (req, res) => {
      if (req.path.startsWith('/slow')) return void held.push(res);
      arrivedB.set(JSON.parse(req.body).contact.external_id, Date.now());
      res.writeHead(200).end();
    },
  });
  dbUrl = await createTestDatabase();
  svc = await openServices({ config: testConfig(), url: dbUrl, secretKey: TEST_SECRET_KEY });
  const [port] = await freePorts(1);
  process.env.OUTBOUND_TEST_TRUST = `allow=${receiver.hostPort};ca=${path.join(dir, 'ca.pem')}`;
  try {
    proc = launch(dbUrl, port!);
  } finally {
    delete process.env.OUTBOUND_TEST_TRUST;
  }
  await ready(proc);
}, 60_000);
afterAll(async () => {
  await stopProcess(proc);
  for (const res of held) res.destroy();
  await receiver?.close();
  await svc?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(0.99 * xs.length) - 1]!;

it('keeps tenant B served within seconds while tenant A floods the worker with slow deliveries', { timeout: 60_000 }, async () => {
  const api = staffApi(
    () => proc!.url,
    () => '',
  );
  const tenant = async (app: SeededApp) => ({
    app,
    owner: await api.signIn(app.ownerEmail, app.ownerPassword),
    mode: (await svc.db.appMode.findUniqueOrThrow({ where: { appKey: app.live.app_key } })).id,
  });
  const [a, b] = [await tenant(await seedApp(svc, 'A')), await tenant(await seedApp(svc, 'B'))];
  const endpoint = (t: typeof a, url: string) =>
    api.ok(
      'mutation($m: ID!, $u: String!) { addWebhookEndpoint(appModeId: $m, url: $u, topics: ["contact.created"]) { endpoint { id } } }',
      { m: t.mode, u: url },
      t.owner,
    );
  const identify = (t: typeof a, id: string) =>
    call(proc!.url, 'PUT', `/server/v1/contacts/${id}`, { headers: { Authorization: `Bearer ${t.app.live.server_key}` }, json: {} });

  for (let i = 0; i < A_ENDPOINTS; i++) await endpoint(a, `${receiver.origin}/slow/${i}`);
  await endpoint(b, `${receiver.origin}/b`);
  // B's conversation, to snooze once the flood is on.
  const guest = {
    'X-CRM-App-Key': b.app.live.app_key,
    Authorization: `Bearer ${await userToken(b.app.live.identity_secret, { sub: 'b-guest' })}`,
  };
  const started = await call(proc!.url, 'POST', '/guest/v1/conversations', { headers: guest, json: { text: 'Hello' } });
  expect(started.status).toBe(201);

  // The flood: 160 deliveries, each holding a slot 10 s.
  for (let i = 0; i < A_IDENTIFIES; i++) expect((await identify(a, `a-${i}`)).status).toBe(200);
  const flooding = () => receiver.received.filter((r) => r.path.startsWith('/slow')).length;
  const deadline = Date.now() + 10_000;
  while (flooding() < 4 && Date.now() < deadline) await sleep(50);
  expect(flooding()).toBeGreaterThanOrEqual(4);

  const until = new Date(Date.now() + SNOOZE_MS);
  await api.ok(
    'mutation($id: ID!, $u: DateTime!) { snoozeConversation(id: $id, until: $u) { id } }',
    { id: started.json.id, u: until.toISOString() },
    b.owner,
  );

  const sentAt = new Map<string, number>();
  for (let i = 0; i < B_DELIVERIES; i++) {
    const id = `b-${i}`;
    expect((await identify(b, id)).status).toBe(200);
    sentAt.set(id, Date.now());
    await sleep(250);
  }
  const woke = async () =>
    svc.db.conversationPart.findFirst({ where: { conversationId: started.json.id, authorKind: 'system' }, orderBy: { seq: 'desc' } });
  const end = Date.now() + 10_000;
  while ((arrivedB.size < B_DELIVERIES || !(await woke())) && Date.now() < end) await sleep(50);

  const waits = [...sentAt].map(([id, at]) => (arrivedB.get(id) ?? Infinity) - at);
  const lateness = ((await woke())?.createdAt.getTime() ?? Infinity) - until.getTime();
  console.log(
    `fairness flood: A ${flooding()} slow posts held; B deliveries p99 ${p99(waits)} ms (max ${Math.max(...waits)} ms); B snooze woke ${lateness} ms after its time`,
  );
  expect(p99(waits)).toBeLessThan(2_000);
  expect(lateness).toBeLessThan(1_000);
  // A's flood was still on: its slow posts held their slots all along.
  expect(held.filter((res) => !res.destroyed).length).toBeGreaterThan(0);
});
