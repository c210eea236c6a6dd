import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agents } from './support/agents.js';
import { staffApp, unique, type StaffApp } from './support/factories.js';
import { staffApi, staffSocket } from './support/graphql.js';
import { guestOf } from './support/messenger.js';
import { startTestServer, type TestServer } from './support/server.js';

// Who views a conversation and who types, as two members' consoles see it: through two servers on
// one database (each its own outbox dispatcher and LISTEN connection, as two processes), within a
// second; gone when they leave, close their socket, or stop beating; only for who may read it.

let one: TestServer;
let two: TestServer;
let app: StaffApp;
let workspaceId: string;
const clients: Client[] = [];
beforeAll(async () => {
  one = await startTestServer();
  // The same database and clock: the clock moves presence's expiry in both.
  two = await startTestServer({ dbUrl: one.dbUrl, clock: one.clock });
  app = await staffApp(one);
  workspaceId = app.workspaceId;
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await two?.close();
  await one?.close();
});

const on = (t: () => TestServer) =>
  staffApi(
    () => t().url,
    () => app.owner,
  );
const VIEW = 'mutation($id: ID!, $typing: Boolean) { viewingConversation(id: $id, typing: $typing) }';
const LEFT = 'mutation($id: ID!) { leftConversation(id: $id) }';
const PRESENCE = 'subscription($id: ID!) { conversationPresence(id: $id) { conversationId viewers { staffUserId name typing since } } }';

type Viewer = { staffUserId: string; name: string; typing: boolean; since: string };

async function started(): Promise<string> {
  const r = await guestOf(one, app.live, unique('user')).start({ text: 'Hello, my order is late' });
  expect(r.status).toBe(201);
  return r.json.id;
}

/** A console following a conversation's viewers: each list as it comes, and its error. */
function watch(t: TestServer, token: string, id: string) {
  const client = staffSocket(t.url, token);
  clients.push(client);
  const seen: Viewer[][] = [];
  const state: { error?: unknown } = {};
  client.subscribe<{ conversationPresence: { viewers: Viewer[] } }>(
    { query: PRESENCE, variables: { id } },
    {
      next: ({ data, errors }) => {
        if (errors) state.error = errors;
        if (data) seen.push(data.conversationPresence.viewers);
      },
      error: (err) => (state.error = err),
      complete: () => {},
    },
  );
  // Sorted: viewers who began in the same millisecond (the test's clock stands still) come in any order.
  const now = () => (seen.at(-1) ?? []).map((v) => `${v.name}${v.typing ? ' typing' : ''}`).sort();
  return { client, seen, state, now };
}

/** Waits, at most a second from now, for `check` to hold. */
const withinASecond = (check: () => unknown, expected: unknown) => expect.poll(check, { timeout: 1000, interval: 10 }).toEqual(expected);

describe('presence between two members on two servers', () => {
  it('shows who views and who types within a second, and drops them when they leave or close their socket', async () => {
    const id = await started();
    const [a, b] = await agents(one, workspaceId, 2);
    const console = watch(one, b!.token, id);
    await expect.poll(() => console.seen.length).toBe(1);
    expect(console.now()).toEqual([]);

    expect((await on(() => two).ok(VIEW, { id }, a!.token)).viewingConversation).toBe(true);
    await withinASecond(console.now, ['Agent 1']);
    const viewer = console.seen.at(-1)![0]!;
    expect(viewer.staffUserId).toBe(a!.id);
    expect(new Date(viewer.since).getTime()).toBe(one.clock.now().getTime());
    await on(() => two).ok(VIEW, { id, typing: true }, a!.token);
    await withinASecond(console.now, ['Agent 1 typing']);
    await on(() => one).ok(VIEW, { id, typing: false }, a!.token);
    await withinASecond(console.now, ['Agent 1']);
    // A heartbeat that changes nothing tells nobody.
    const answers = console.seen.length;
    await on(() => two).ok(VIEW, { id }, a!.token);
    await on(() => one).ok(VIEW, { id, typing: true }, b!.token);
    await withinASecond(console.now, ['Agent 1', 'Agent 2 typing']);
    expect(console.seen.length).toBe(answers + 1);

    await on(() => two).ok(LEFT, { id }, a!.token);
    await withinASecond(console.now, ['Agent 2 typing']);

    // A's console on server two, closed: A has left.
    const aConsole = watch(two, a!.token, id);
    await expect.poll(() => aConsole.seen.length).toBe(1);
    await on(() => two).ok(VIEW, { id }, a!.token);
    await withinASecond(console.now, ['Agent 1', 'Agent 2 typing']);
    await aConsole.client.dispose();
    await withinASecond(console.now, ['Agent 2 typing']);
  });

  it('ends typing 5 seconds and viewing 15 seconds after the last heartbeat', async () => {
    const id = await started();
    const [a] = await agents(one, workspaceId, 1);
    const console = watch(two, app.owner, id);
    await expect.poll(() => console.seen.length).toBe(1);
    await on(() => one).ok(VIEW, { id, typing: true }, a!.token);
    await withinASecond(console.now, ['Agent 1 typing']);
    one.clock.advance(4_000);
    await on(() => one).ok(VIEW, { id, typing: true }, a!.token);
    one.clock.advance(4_000);
    // 8 seconds after the first, 4 after the last: still typing.
    await new Promise((r) => setTimeout(r, 300));
    expect(console.now()).toEqual(['Agent 1 typing']);
    one.clock.advance(1_001);
    await withinASecond(console.now, ['Agent 1']);
    one.clock.advance(10_000);
    await withinASecond(console.now, []);
  });
});

describe('who may see it', () => {
  it('refuses a member of another workspace, ends a removed member’s presence, and limits heartbeats', async () => {
    const id = await started();
    const other = await staffApp(one);
    expect(await on(() => one).refused(VIEW, { id }, other.owner)).toMatchObject({ code: 'not_found' });
    const outsider = watch(one, other.owner, id);
    await expect.poll(() => outsider.state.error).toMatchObject([{ extensions: { code: 'not_found' } }]);
    expect(outsider.seen).toEqual([]);

    const [a] = await agents(one, workspaceId, 1);
    const theirs = watch(two, a!.token, id);
    const owners = watch(one, app.owner, id);
    await expect.poll(() => theirs.seen.length + owners.seen.length).toBe(2);
    await on(() => one).ok(VIEW, { id }, a!.token);
    await withinASecond(owners.now, ['Agent 1']);
    await on(() => one).ok('mutation($w: ID!, $u: ID!) { removeMember(workspaceId: $w, staffUserId: $u) }', { w: workspaceId, u: a!.id });
    await expect.poll(() => theirs.state.error, { timeout: 1000 }).toMatchObject([{ extensions: { code: 'not_found' } }]);
    await withinASecond(owners.now, []);
    expect(await on(() => one).refused(VIEW, { id }, a!.token)).toMatchObject({ code: 'not_found' });

    // 20 heartbeats in 10 seconds per session, in each server.
    const [c] = await agents(one, workspaceId, 1);
    for (let i = 0; i < 19; i++) await on(() => one).ok(VIEW, { id }, c!.token);
    await on(() => one).ok(LEFT, { id }, c!.token);
    expect(await on(() => one).refused(VIEW, { id }, c!.token)).toMatchObject({ code: 'rate_limited', status: 429, retryAfter: 10 });
    one.clock.advance(10_000);
    await on(() => one).ok(VIEW, { id }, c!.token);
  });

  it('shows at most 25 viewers of a conversation', async () => {
    const id = await started();
    const members = await agents(one, workspaceId, 26);
    const console = watch(one, app.owner, id);
    await expect.poll(() => console.seen.length).toBe(1);
    const answers = [];
    // One at a time: each is heard before the next asks for room.
    for (const m of members) {
      answers.push((await on(() => one).ok(VIEW, { id }, m.token)).viewingConversation);
      await expect.poll(() => console.now().length).toBe(Math.min(answers.length, 25));
    }
    expect(answers).toEqual([...Array(25).fill(true), false]);
  });
});
