import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { openServices, type OpenServices } from '../src/services.js';
import { createTestDatabase } from './support/db.js';
import { staffApi, staffSocket } from './support/graphql.js';
import { guestOf } from './support/messenger.js';
import { freePorts, launch, ready, stopProcess, type Proc } from './support/processes.js';
import { seedApp, TEST_SECRET_KEY, testConfig, type TestServer } from './support/server.js';

// Two real server processes on one database: a change made through one reaches a subscriber of
// the other (PostgreSQL LISTEN/NOTIFY), as in a cluster behind a load balancer.

let svc: OpenServices;
let a: Proc;
let b: Proc;
const clients: Client[] = [];

/** A staff operation that must succeed, sent to one of the two servers. */
const gql = (base: string, token: string, query: string, variables: Record<string, unknown>) =>
  staffApi(
    () => base,
    () => token,
  ).ok(query, variables);

beforeAll(async () => {
  const dbUrl = await createTestDatabase();
  const [portA, portB] = await freePorts(2);
  // Both are launched before either is awaited, so afterAll stops them whatever fails next.
  a = launch(dbUrl, portA!);
  b = launch(dbUrl, portB!);
  svc = await openServices({ config: testConfig(), url: dbUrl, secretKey: TEST_SECRET_KEY });
  await Promise.all([ready(a), ready(b)]);
});
afterAll(async () => {
  await Promise.all([stopProcess(a), stopProcess(b)]);
  await Promise.all(clients.map((c) => c.dispose()));
  await svc?.close();
});

/** The owner of a new app, subscribed through process A to the app's live mode, once A is listening. */
async function subscriberOfA() {
  const app = await seedApp(svc);
  const appModeId = (await svc.db.appMode.findFirstOrThrow({ where: { appId: app.appId, mode: 'live' } })).id;
  const signedIn = await gql(a.url, '', 'mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { token } }', {
    e: app.ownerEmail,
    p: app.ownerPassword,
  });
  const token: string = signedIn.signIn.token;

  const client = createClient({
    url: `${a.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    connectionParams: { authorization: `Bearer ${token}` },
  });
  clients.push(client);
  const changes = client.iterate({
    query: 'subscription($m: ID!) { appModeChanged(appModeId: $m) { appMode { id brandName webOrigins } } }',
    variables: { m: appModeId },
  });
  // The first answer is the app-mode as it is: A is listening from then on.
  expect((await changes.next()).value).toMatchObject({ data: { appModeChanged: { appMode: { id: appModeId, brandName: 'Test app' } } } });
  return { appModeId, token, changes };
}

it('a change made through process B reaches a subscriber of process A', async () => {
  const { appModeId, token, changes } = await subscriberOfA();

  await gql(b.url, token, 'mutation($m: ID!, $i: AppSettingsInput!) { updateAppSettings(appModeId: $m, input: $i) { id } }', {
    m: appModeId,
    i: { brandName: 'Changed on B', webOrigins: ['https://b.example.com'] },
  });
  expect((await changes.next()).value).toEqual({
    data: { appModeChanged: { appMode: { id: appModeId, brandName: 'Changed on B', webOrigins: ['https://b.example.com'] } } },
  });
});

it('a member viewing and typing through process B is seen by a console following the conversation on process A', async () => {
  const app = await seedApp(svc);
  const signedIn = await gql(a.url, '', 'mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { token } }', {
    e: app.ownerEmail,
    p: app.ownerPassword,
  });
  const token: string = signedIn.signIn.token;
  const started = await guestOf({ url: b.url } as TestServer, app.live, 'presence_user').start({ text: 'Hello' });
  const id: string = started.json.id;
  const client = staffSocket(a.url, token);
  clients.push(client);
  const viewers = client.iterate<{ conversationPresence: { viewers: { typing: boolean }[] } }>({
    query: 'subscription($id: ID!) { conversationPresence(id: $id) { viewers { typing } } }',
    variables: { id },
  });
  expect((await viewers.next()).value?.data?.conversationPresence.viewers).toEqual([]);
  await gql(b.url, token, 'mutation($id: ID!) { viewingConversation(id: $id, typing: true) }', { id });
  expect((await viewers.next()).value?.data?.conversationPresence.viewers).toEqual([{ typing: true }]);
});

it('both stop cleanly on SIGTERM, a subscriber still connected to A', async () => {
  await subscriberOfA();
  const started = Date.now();
  expect(await Promise.all([stopProcess(a), stopProcess(b)])).toEqual([
    { code: 0, signal: null },
    { code: 0, signal: null },
  ]);
  expect(Date.now() - started).toBeLessThan(5000);
});
