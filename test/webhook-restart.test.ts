import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Stripe from 'stripe';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openServices, type OpenServices } from '../src/services.js';
import { call } from './support/http.js';
import { createTestDatabase } from './support/db.js';
import { staffApi } from './support/graphql.js';
import { makeTestCertificate, startReceiver, type Receiver } from './support/https-receiver.js';
import { freePorts, launch, ready, stopProcess, type Proc } from './support/processes.js';
import { seedApp, TEST_SECRET_KEY, testConfig } from './support/server.js';

// A server process killed (SIGKILL) while its deliveries wait to be tried again, and a new one
// started on the same database: every due try happens, with the same X-CRM-Delivery, each event is
// delivered (2xx) once, and nothing is lost.

const EVENTS = 5;

let dir: string;
let dbUrl: string;
let svc: OpenServices;
let receiver: Receiver;
let first: Proc | undefined;
let second: Proc | undefined;
/** Deliveries the receiver has refused once: it answers 503 to each delivery's first try, then 200. */
const refusedOnce = new Set<string>();

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'crm-webhook-restart-'));
  const cert = await makeTestCertificate();
  await writeFile(path.join(dir, 'ca.pem'), cert.cert);
  receiver = await startReceiver(cert, {
    handler: (req, res) => {
      const delivery = String(req.headers['x-crm-delivery']);
      const firstTry = !refusedOnce.has(delivery);
      refusedOnce.add(delivery);
      res.writeHead(firstTry ? 503 : 200).end();
    },
  });
  dbUrl = await createTestDatabase();
  svc = await openServices({ config: testConfig(), url: dbUrl, secretKey: TEST_SECRET_KEY });
});
afterAll(async () => {
  await stopProcess(first);
  await stopProcess(second);
  await svc?.close();
  await receiver?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/**
 * A real server process on the test database, allowed to post to the local receiver. Its deliveries
 * wait 3 s between tries rather than the schedule's first 5 s (WEBHOOK_TEST_RETRY_WAIT_MS): still
 * seconds more than the kill takes once every first try is logged (were the first server to try
 * again before it, the test fails: it counts the posts made before the kill).
 */
function serverProcess(port: number): Proc {
  return launch(dbUrl, port, {
    OUTBOUND_TEST_TRUST: `allow=${receiver.hostPort};ca=${path.join(dir, 'ca.pem')}`,
    WEBHOOK_TEST_RETRY_WAIT_MS: '3000',
  });
}

async function until(check: () => Promise<boolean>, what: string, ms: number) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not in time: ${what}`);
    await sleep(100);
  }
}

it(
  'delivers every event once after a kill and a restart in the middle of the retries, with the same X-CRM-Delivery on every try',
  { timeout: 60_000 },
  async () => {
    const [portA, portB] = await freePorts(2);
    first = serverProcess(portA!);
    // The app is seeded while the server starts.
    const [app] = await Promise.all([seedApp(svc), ready(first)]);
    const api = staffApi(
      () => first!.url,
      () => '',
    );
    const owner = await api.signIn(app.ownerEmail, app.ownerPassword);
    const appModeId = (await svc.db.appMode.findUniqueOrThrow({ where: { appKey: app.live.app_key } })).id;
    const { addWebhookEndpoint } = await api.ok(
      'mutation($m: ID!, $u: String!) { addWebhookEndpoint(appModeId: $m, url: $u, topics: ["contact.created"]) { secret endpoint { id } } }',
      { m: appModeId, u: `${receiver.origin}/restart` },
      owner,
    );
    for (let i = 0; i < EVENTS; i++) {
      const r = await call(first.url, 'PUT', `/server/v1/contacts/person-${i}`, {
        headers: { Authorization: `Bearer ${app.live.server_key}` },
        json: { display_name: `Person ${i}` },
      });
      expect(r.status).toBe(200);
    }

    // Each delivery's first try failed and is logged; its run waits 3 s for the next. Then the kill.
    const runs = () => svc.db.workflowRun.findMany({ where: { process: 'webhook' } });
    await until(
      async () => (await runs()).filter((r) => r.status === 'waiting').length === EVENTS,
      'every first try failed and logged',
      15_000,
    );
    expect(await stopProcess(first, 'SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    const postedBeforeKill = receiver.received.length;
    expect(postedBeforeKill).toBe(EVENTS);

    second = serverProcess(portB!);
    await ready(second);
    await until(
      async () => (await svc.db.webhookDelivery.count({ where: { state: 'delivered' } })) === EVENTS,
      'every delivery delivered by the new process',
      20_000,
    );
    await until(async () => (await runs()).every((r) => r.status === 'ended'), 'every run ended', 5_000);
    await sleep(500); // anything posted twice would have come by now

    const posts = receiver.received;
    expect(posts).toHaveLength(2 * EVENTS);
    const byDelivery = new Map<string, typeof posts>();
    for (const post of posts) {
      const delivery = String(post.headers['x-crm-delivery']);
      byDelivery.set(delivery, [...(byDelivery.get(delivery) ?? []), post]);
    }
    expect(byDelivery.size).toBe(EVENTS);
    const stripe = new Stripe('sk_test_unused');
    const people = new Set<string>();
    for (const [delivery, tries] of byDelivery) {
      expect(delivery).toMatch(/^dlv_[0-9a-f]{24}$/);
      // One refused before the kill, one delivered after it: the same post, signed afresh.
      expect(tries).toHaveLength(2);
      expect(tries[1]!.body).toBe(tries[0]!.body);
      for (const t of tries) stripe.webhooks.constructEvent(t.body, String(t.headers['x-crm-signature']), addWebhookEndpoint.secret);
      people.add(JSON.parse(tries[0]!.body).contact.external_id);
    }
    expect([...people].sort()).toEqual(Array.from({ length: EVENTS }, (_, i) => `person-${i}`));

    const deliveries = await svc.db.webhookDelivery.findMany({ where: { endpointId: addWebhookEndpoint.endpoint.id } });
    expect(deliveries.map((d) => [d.state, d.tries])).toEqual(Array(EVENTS).fill(['delivered', 2]));
    const log = await svc.db.webhookTry.findMany({ where: { endpointId: addWebhookEndpoint.endpoint.id }, orderBy: [{ attempt: 'asc' }] });
    expect(log.map((t) => [t.attempt, t.statusCode])).toEqual([...Array(EVENTS).fill([1, 503]), ...Array(EVENTS).fill([2, 200])]);
  },
);
