import { setTimeout as sleep } from 'node:timers/promises';
import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { WebhookTry } from '../src/generated/prisma/client.js';
import { RETRY_WAITS_MS } from '../src/domain/webhooks/schedule.js';
import { logPage } from '../src/domain/webhooks/tries-live.js';
import { memberOf, serverApi, staffApp, type StaffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { makeTestCertificate, startReceiver, type Receiver } from './support/https-receiver.js';
import { startTestServer, testConfig, type TestServer } from './support/server.js';

// An endpoint's tries, live, as a staff tool subscribed over graphql-ws sees them: each try as it is
// logged (status, response code, duration, time; never a body), from a delivery run by another
// server than the one the tool is connected to, only its own endpoint's, resumed after a reconnect,
// and only for staff who may read the endpoint's app.

let a: TestServer;
let b: TestServer;
let receiver: Receiver;
let app: StaffApp;
const clients: Client[] = [];
/** Deliveries the receiver has refused once (it answers 503 to each delivery's first try, then 200). */
const refusedOnce = new Set<string>();

beforeAll(async () => {
  const cert = await makeTestCertificate();
  receiver = await startReceiver(cert, {
    handler: (req, res) => {
      const delivery = String(req.headers['x-crm-delivery']);
      const first = req.path.startsWith('/flaky') && !refusedOnce.has(delivery);
      refusedOnce.add(delivery);
      res.writeHead(first ? 503 : 200).end();
    },
  });
  // A posts (its engine is driven by the test); B, a second server on the same database, starts
  // nothing and posts nothing: its subscribers hear of A's tries through PostgreSQL alone.
  a = await startTestServer({ config: testConfig({ outboundTestTrust: { allow: [receiver.hostPort], ca: cert.cert } }) });
  b = await startTestServer({ dbUrl: a.dbUrl, startProcesses: false });
  app = await staffApp(a);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await b?.close();
  await a?.close();
  await receiver?.close();
});

const { ok } = staffApi(
  () => a.url,
  () => app.owner,
);
const ADD = 'mutation($m: ID!, $u: String!, $t: [String!]!) { addWebhookEndpoint(appModeId: $m, url: $u, topics: $t) { endpoint { id } } }';
const TRY = 'deliveryId topic attempt delivered statusCode failure durationMs at';
const TRIES = `subscription($e: ID!, $after: String) { webhookTries(endpointId: $e, after: $after) { version reload log(first: 50) { edges { node { ${TRY} } } } try { ${TRY} } } }`;

interface Try {
  deliveryId: string;
  topic: string;
  attempt: number;
  delivered: boolean;
  statusCode: number | null;
  failure: string | null;
  durationMs: number;
  at: string;
}
interface Step {
  version: string;
  reload: boolean;
  tries: Try[];
}

const endpoint = async (path: string, owner = app) =>
  (await ok(ADD, { m: owner.modes.live, u: `${receiver.origin}/${path}`, t: ['contact.created', 'contact.updated'] }, owner.owner))
    .addWebhookEndpoint.endpoint.id as string;

/** A staff tool subscribed to an endpoint's tries on server `on`: its answers in order, and its errors. */
function watch(on: TestServer, token: string, endpointId: string, after: string | null = null) {
  const client = createClient({
    url: `${on.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    connectionParams: { authorization: `Bearer ${token}` },
  });
  clients.push(client);
  const steps: Step[] = [];
  const errors: { extensions?: { code?: string } }[] = [];
  type Answer = { version: string; reload: boolean; log: { edges: { node: Try }[] } | null; try: Try | null };
  client.subscribe<{ webhookTries: Answer }>(
    { query: TRIES, variables: { e: endpointId, after } },
    {
      next: (r) => {
        if (!r.data) return void errors.push(...((r.errors ?? []) as never[]));
        const { version, reload, log, try: tried } = r.data.webhookTries;
        // The log on reload (and no try), else the one try (and no log).
        expect(reload ? [!!log, tried] : [log, !!tried]).toEqual(reload ? [true, null] : [null, true]);
        steps.push({ version, reload, tries: reload ? log!.edges.map((e) => e.node) : [tried!] });
      },
      error: (e) => errors.push(e as never),
      complete: () => {},
    },
  );
  return { client, steps, errors };
}

/** Waits until `check` holds (the subscription's answers arrive by themselves), at most 5 s. */
async function until(check: () => boolean, what: string) {
  for (let i = 0; i < 100 && !check(); i++) await sleep(50);
  expect(check(), what).toBe(true);
}

async function settle() {
  for (let i = 0; i < 3; i++) await a.engine.runDue();
}

describe('webhookTries', () => {
  it("shows a delivery's tries on another server as they are logged: the failed one, then the one delivered, never a body", async () => {
    const id = await endpoint('flaky/live');
    const tool = watch(b, app.owner, id);
    await until(() => tool.steps.length === 1, 'the log first');
    expect(tool.steps[0]).toMatchObject({ reload: true, tries: [] });

    await serverApi(a, app.live.server_key).identify('ada', { display_name: 'Ada' });
    await settle();
    await until(() => tool.steps.length === 2, 'the first try');
    const [first] = tool.steps[1]!.tries;
    expect(tool.steps[1]!.reload).toBe(false);
    expect(first).toEqual({
      deliveryId: expect.stringMatching(/^dlv_/),
      topic: 'contact.created',
      attempt: 1,
      delivered: false,
      statusCode: 503,
      failure: null,
      durationMs: expect.any(Number),
      at: a.clock.now().toISOString(),
    });

    a.clock.advance(RETRY_WAITS_MS[0]!);
    await settle();
    await until(() => tool.steps.length === 3, 'the second try');
    expect(tool.steps[2]!.tries).toEqual([
      { ...first, attempt: 2, delivered: true, statusCode: 200, durationMs: expect.any(Number), at: a.clock.now().toISOString() },
    ]);
    expect(tool.steps.map((s) => s.version)).toEqual([...tool.steps.map((s) => s.version)].sort());

    // What a try is, as the schema offers it: no body of the post or of the answer.
    const { __type } = await ok('{ __type(name: "WebhookTry") { fields { name } } }');
    expect(__type.fields.map((f: { name: string }) => f.name).filter((n: string) => /body|payload|response/i.test(n))).toEqual([]);
  });

  it("keeps to its endpoint: another endpoint's tries, in the same app-mode or another workspace, are not shown", async () => {
    const mine = await endpoint('live/mine');
    const neighbour = await endpoint('live/neighbour');
    const other = await staffApp(a);
    const theirs = await endpoint('live/theirs', other);
    const tool = watch(b, app.owner, mine);
    await until(() => tool.steps.length === 1, 'the log first');

    const ping = (endpointId: string, token = app.owner) =>
      ok('mutation($id: ID!) { sendWebhookTest(id: $id) { deliveryId } }', { id: endpointId }, token);
    await ping(neighbour);
    await ping(theirs, other.owner);
    const { sendWebhookTest } = await ping(mine);
    await until(() => tool.steps.length === 2, 'the ping to its endpoint');
    await sleep(200);
    expect(tool.steps.slice(1).map((s) => s.tries.map((x) => [x.deliveryId, x.topic]))).toEqual([
      [[sendWebhookTest.deliveryId, 'webhook.test']],
    ]);
  });

  it('resumes after a reconnect with the tries it missed, then goes on live', async () => {
    const id = await endpoint('live/resume');
    const ping = async () => {
      a.clock.advance(1000); // the log is newest first by time
      return (await ok('mutation($id: ID!) { sendWebhookTest(id: $id) { deliveryId } }', { id })).sendWebhookTest.deliveryId as string;
    };
    const first = watch(b, app.owner, id);
    await until(() => first.steps.length === 1, 'the log first');
    const seen = await ping();
    await until(() => first.steps.length === 2, 'the first ping');
    await first.client.dispose();

    const missed = [await ping(), await ping()];
    const again = watch(b, app.owner, id, first.steps[1]!.version);
    await until(() => again.steps.length === 2, 'what it missed');
    expect(again.steps.every((s) => !s.reload)).toBe(true);
    expect(again.steps.flatMap((s) => s.tries.map((x) => x.deliveryId))).toEqual(missed);
    const later = await ping();
    await until(() => again.steps.length === 3, 'the next one live');
    expect(again.steps[2]!.tries[0]!.deliveryId).toBe(later);
    expect(again.steps.flatMap((s) => s.tries.map((x) => x.deliveryId))).not.toContain(seen);

    // Without `after`: the log as it is, newest first.
    const fresh = watch(b, app.owner, id);
    await until(() => fresh.steps.length === 1, 'the log');
    expect(fresh.steps[0]!.tries.map((x) => x.deliveryId)).toEqual([later, ...[...missed].reverse(), seen]);
  });

  it("is for staff who may read the endpoint's app: an agent may watch, another workspace's owner finds no such endpoint", async () => {
    const id = await endpoint('live/who');
    const workspaceId = app.workspaceId;
    const agent = await memberOf(a, workspaceId, 'agent');
    const agentTool = watch(b, agent.token, id);
    await until(() => agentTool.steps.length === 1, "the agent's first answer");
    expect(agentTool.errors).toEqual([]);

    const stranger = await staffApp(a);
    const strangerTool = watch(b, stranger.owner, id);
    await until(() => strangerTool.errors.length > 0, "the stranger's refusal");
    expect(strangerTool.steps).toEqual([]);
    expect(strangerTool.errors[0]!.extensions?.code).toBe('not_found');
  });
});

describe("a reload's log", () => {
  it('pages with first and after over the tries as read, newest first, and refuses a made-up cursor', () => {
    const log = Array.from({ length: 5 }, (_, i) => ({ id: `try-${i}`, at: new Date(Date.UTC(2026, 0, 1, 0, 0, 10 - i)) }) as WebhookTry);
    const first = logPage(log, { first: 2 });
    expect(first.items.map((t) => t.id)).toEqual(['try-0', 'try-1']);
    const second = logPage(log, { first: 2, after: first.nextCursor });
    expect(second.items.map((t) => t.id)).toEqual(['try-2', 'try-3']);
    const last = logPage(log, { first: 2, after: second.nextCursor });
    expect([last.items.map((t) => t.id), last.nextCursor]).toEqual([['try-4'], null]);
    expect(() => logPage(log, { after: 'not-a-cursor' })).toThrow(
      expect.objectContaining({ code: 'invalid_request', errors: [{ field: 'after', message: expect.any(String) }] }),
    );
    expect(() => logPage(log, { first: 0 })).toThrow(expect.objectContaining({ code: 'invalid_request' }));
  });
});
