import { setTimeout as sleep } from 'node:timers/promises';
import { createClient, type Client } from 'graphql-ws';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { updateSettings } from '../src/domain/apps/settings.js';
import { systemContext } from '../src/domain/context.js';
import { randomToken, sha256 } from '../src/lib/secrets.js';
import { OUTBOX_KEEP_DAYS } from '../src/domain/outbox.js';
import { openServices, type OpenServices } from '../src/services.js';
import { createTestDatabase, queriesDuring } from './support/db.js';
import { memberOf, signedIn, staffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { freePorts, launch, ready, stopProcess, type Proc } from './support/processes.js';
import { seedApp, startTestServer, TEST_SECRET_KEY, testConfig, type TestServer } from './support/server.js';

// Live updates as a staff tool sees them: every change once and in order, resumed after its
// server was killed and restarted, ended within a second when the right to see it goes.

const SUBSCRIPTION =
  'subscription($m: ID!, $after: String) { appModeChanged(appModeId: $m, after: $after) { version reload appMode { brandName } } }';

const clients: Client[] = [];
afterAll(() => Promise.all(clients.map((c) => c.dispose())));

/** A staff tool's connection: it reconnects for ever, with a backoff capped short for the test. */
function toolClient(url: string, token: string, retry = true): Client {
  const client = createClient({
    url: `${url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${token}` },
    ...(retry
      ? { retryAttempts: Infinity, shouldRetry: () => true, retryWait: (n: number) => sleep(Math.min(50 * 2 ** n, 500)) }
      : { retryAttempts: 0 }),
  });
  clients.push(client);
  return client;
}

interface Seen {
  version: string;
  reload: boolean;
  brandName: string;
}

/** Follows an app-mode as a tool does: each answer's version becomes `after`, so a reconnect resumes there. */
function follow(client: Client, appModeId: string, after: string | null = null, query = SUBSCRIPTION) {
  const seen: Seen[] = [];
  const state: { error?: unknown; done: boolean } = { done: false };
  // The client sends this same object again on each reconnect.
  const variables = { m: appModeId, after };
  client.subscribe<{ appModeChanged: { version: string; reload: boolean; appMode: { brandName: string } } }>(
    { query, variables },
    {
      next: ({ data, errors }) => {
        if (errors) state.error = errors;
        if (!data) return;
        const { version, reload, appMode } = data.appModeChanged;
        seen.push({ version, reload, brandName: appMode.brandName });
        variables.after = version;
      },
      error: (err) => (state.error = err),
      complete: () => (state.done = true),
    },
  );
  return { seen, state, names: () => seen.map((s) => s.brandName) };
}

const increasing = (seen: Seen[]) => seen.every((s, i) => i === 0 || s.version > seen[i - 1]!.version);

describe('a subscriber of a server that is killed and restarted', () => {
  let svc: OpenServices;
  let proc: Proc | undefined;
  let dbUrl: string;
  let port: number;

  beforeAll(async () => {
    dbUrl = await createTestDatabase();
    [port] = (await freePorts(1)) as [number];
    proc = launch(dbUrl, port);
    svc = await openServices({ config: testConfig(), url: dbUrl, secretKey: TEST_SECRET_KEY });
    await ready(proc);
  });
  afterAll(async () => {
    await stopProcess(proc);
    await svc?.close();
  });

  it('gets every change made meanwhile once and in order, then goes on live', async () => {
    const app = await seedApp(svc);
    const appModeId = (await svc.db.appMode.findFirstOrThrow({ where: { appId: app.appId, mode: 'live' } })).id;
    const token = await signedIn({ url: proc!.url } as TestServer, app.ownerEmail, app.ownerPassword);
    const client = toolClient(proc!.url, token);
    const tool = follow(client, appModeId);
    await expect.poll(() => tool.names()).toEqual(['Test app']);

    const change = (brandName: string) => updateSettings(systemContext(svc, 'test'), appModeId, { brandName });
    for (const n of [1, 2, 3]) await change(`before ${n}`);
    await expect.poll(() => tool.seen.length).toBe(4);

    expect(await stopProcess(proc, 'SIGKILL')).toEqual({ code: null, signal: 'SIGKILL' });
    for (const n of [1, 2, 3, 4, 5]) await change(`while down ${n}`);
    proc = launch(dbUrl, port);
    await ready(proc);
    await expect.poll(() => tool.seen.length, { timeout: 10_000 }).toBe(9);
    await change('after restart');
    await expect.poll(() => tool.seen.length).toBe(10);

    expect(tool.names()).toEqual([
      'Test app',
      'before 1',
      'before 2',
      'before 3',
      ...[1, 2, 3, 4, 5].map((n) => `while down ${n}`),
      'after restart',
    ]);
    expect(tool.seen.map((s) => s.reload)).toEqual([true, ...Array(9).fill(false)]);
    expect(increasing(tool.seen)).toBe(true);
    expect(tool.state.error).toBeUndefined();
    await client.dispose();
  });
});

describe('in one server', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t?.close());
  const { ok } = staffApi(
    () => t.url,
    () => '',
  );

  it('every subscriber sees every one of concurrent changes, in the same order, ending at the stored state', async () => {
    const app = await staffApp(t);
    const tools = [0, 1, 2].map(() => follow(toolClient(t.url, app.owner, false), app.modes.live));
    for (const tool of tools) await expect.poll(() => tool.seen.length).toBe(1);

    const names = Array.from({ length: 30 }, (_, i) => `concurrent ${i}`);
    await Promise.all(names.map((brandName) => updateSettings(t.ctx, app.modes.live, { brandName })));
    for (const tool of tools) await expect.poll(() => tool.seen.length).toBe(31);

    const stored = (await t.svc.db.appMode.findUniqueOrThrow({ where: { id: app.modes.live } })).brandName;
    for (const tool of tools) {
      expect(tool.names().slice(1).sort()).toEqual([...names].sort());
      expect(tool.names()).toEqual(tools[0]!.names());
      expect(increasing(tool.seen)).toBe(true);
      expect(tool.names().at(-1)).toBe(stored);
    }
  });

  it('ends a signed-out session’s subscription within a second, with unauthenticated', async () => {
    const app = await staffApp(t);
    const token = await signedIn(t, app.ownerEmail, app.ownerPassword);
    const tool = follow(toolClient(t.url, token, false), app.modes.live);
    await expect.poll(() => tool.seen.length).toBe(1);
    await ok('mutation { signOut }', {}, token);
    const signedOut = Date.now();
    await expect.poll(() => tool.state.error, { timeout: 1000, interval: 10 }).toMatchObject([{ extensions: { code: 'unauthenticated' } }]);
    expect(Date.now() - signedOut).toBeLessThan(1000);
    // The owner's other session goes on.
    const other = follow(toolClient(t.url, app.owner, false), app.modes.live);
    await expect.poll(() => other.seen.length).toBe(1);
  });

  it('ends the subscription of a session that reaches its expiry, with unauthenticated', async () => {
    const app = await staffApp(t);
    const owner = await t.svc.db.staffUser.findUniqueOrThrow({ where: { email: app.ownerEmail } });
    // A session a second and a half from its end, as after 30 days of use.
    const token = `crm_st_${randomToken(40)}`;
    await t.svc.db.staffSession.create({
      data: {
        id: randomUUID(),
        staffUserId: owner.id,
        tokenHash: sha256(token),
        createdAt: t.clock.now(),
        expiresAt: new Date(t.clock.now().getTime() + 1500),
      },
    });
    const tool = follow(toolClient(t.url, token, false), app.modes.live);
    await expect.poll(() => tool.seen.length).toBe(1);
    expect(tool.state.error).toBeUndefined();
    await expect.poll(() => tool.state.error, { timeout: 5000, interval: 20 }).toMatchObject([{ extensions: { code: 'unauthenticated' } }]);
  });

  it('ends a removed member’s subscription within a second, with not_found; a new role that still allows reading keeps it', async () => {
    const app = await staffApp(t);
    const workspaceId = app.workspaceId;
    const agent = await memberOf(t, workspaceId, 'agent');
    const staffUserId = (await t.svc.db.staffUser.findUniqueOrThrow({ where: { email: agent.email } })).id;
    const tool = follow(toolClient(t.url, agent.token, false), app.modes.live);
    await expect.poll(() => tool.seen.length).toBe(1);

    const member = 'mutation($w: ID!, $u: ID!, $r: StaffRole!) { setMemberRole(workspaceId: $w, staffUserId: $u, role: $r) { role } }';
    await ok(member, { w: workspaceId, u: staffUserId, r: 'admin' }, app.owner);
    await updateSettings(t.ctx, app.modes.live, { brandName: 'Still seen' });
    await expect.poll(() => tool.names()).toEqual(['Test app', 'Still seen']);

    await ok(
      'mutation($w: ID!, $u: ID!) { removeMember(workspaceId: $w, staffUserId: $u) }',
      { w: workspaceId, u: staffUserId },
      app.owner,
    );
    const removed = Date.now();
    await expect.poll(() => tool.state.error, { timeout: 1000, interval: 10 }).toMatchObject([{ extensions: { code: 'not_found' } }]);
    expect(Date.now() - removed).toBeLessThan(1000);
  });

  it(`resumes from a version, and asks for a reload when it is older than the outbox keeps (${OUTBOX_KEEP_DAYS} days)`, async () => {
    const app = await staffApp(t);
    const first = follow(toolClient(t.url, app.owner, false), app.modes.test);
    await expect.poll(() => first.seen.length).toBe(1);
    await updateSettings(t.ctx, app.modes.test, { brandName: 'One' });
    await expect.poll(() => first.seen.length).toBe(2);
    await updateSettings(t.ctx, app.modes.test, { brandName: 'Two' });
    await expect.poll(() => first.seen.length).toBe(3);

    const resumed = follow(toolClient(t.url, app.owner, false), app.modes.test, first.seen[1]!.version);
    await expect.poll(() => resumed.seen).toEqual([first.seen[2]]);

    t.clock.advance(OUTBOX_KEEP_DAYS * 86_400_000);
    const late = follow(toolClient(t.url, app.owner, false), app.modes.test, first.seen[1]!.version);
    await expect.poll(() => late.seen.length).toBe(1);
    expect(late.seen[0]).toMatchObject({ reload: true, brandName: 'Two' });
    expect(late.seen[0]!.version > first.seen[2]!.version).toBe(true);

    const bad = follow(toolClient(t.url, app.owner, false), app.modes.test, 'yesterday');
    await expect.poll(() => bad.state.error).toMatchObject([{ extensions: { code: 'invalid_request' } }]);
  });

  it('answers fields beyond the settings (the app, its keys) as a query would', async () => {
    const app = await staffApp(t);
    const changes = toolClient(t.url, app.owner, false).iterate({
      query:
        'subscription($m: ID!) { appModeChanged(appModeId: $m) { appMode { brandName app { name } serverKeys(first: 1) { edges { node { id } } } } } }',
      variables: { m: app.modes.live },
    });
    expect((await changes.next()).value.data.appModeChanged.appMode).toMatchObject({
      brandName: 'Test app',
      app: { name: 'Test app' },
      serverKeys: { edges: [{ node: {} }] },
    });
    await updateSettings(t.ctx, app.modes.live, { brandName: 'With its app' });
    expect((await changes.next()).value.data.appModeChanged.appMode).toMatchObject({
      brandName: 'With its app',
      app: { name: 'Test app' },
    });
    await changes.return!();
  });

  it('costs the change the same whatever the number of subscribers: no query per subscriber', async () => {
    const queriesForOneChange = async (subscribers: number) => {
      const app = await staffApp(t);
      const tools = Array.from({ length: subscribers }, () => follow(toolClient(t.url, app.owner, false), app.modes.live));
      for (const tool of tools) await expect.poll(() => tool.seen.length).toBe(1);
      return queriesDuring(async () => {
        await updateSettings(t.ctx, app.modes.live, { brandName: 'Counted' });
        for (const tool of tools) await expect.poll(() => tool.seen.length, { interval: 5 }).toBe(2);
      });
    };
    const one = await queriesForOneChange(1);
    const forty = await queriesForOneChange(40);
    // Beside the change's own statements, the dispatcher's read of the row (and a pass of its own now and then).
    expect(forty - one).toBeLessThan(10);
  });

  it('answers each change once for the subscribers who asked the same with the same rights, resumed or not, and apart for other rights', async () => {
    const app = await staffApp(t);
    const workspaceId = app.workspaceId;
    const agent = await memberOf(t, workspaceId, 'agent');
    const withApp =
      'subscription($m: ID!, $after: String) { appModeChanged(appModeId: $m, after: $after) { version reload appMode { brandName app { name } } } }';
    const owners = Array.from({ length: 20 }, () => follow(toolClient(t.url, app.owner, false), app.modes.live, null, withApp));
    for (const tool of owners) await expect.poll(() => tool.seen.length).toBe(1);
    await updateSettings(t.ctx, app.modes.live, { brandName: 'First' });
    for (const tool of owners) await expect.poll(() => tool.names()).toEqual(['Test app', 'First']);
    // Resumed from a version: another `after`, the same answer to share.
    const resumed = follow(toolClient(t.url, app.owner, false), app.modes.live, owners[0]!.seen[0]!.version, withApp);
    const agents = [follow(toolClient(t.url, agent.token, false), app.modes.live, null, withApp)];
    for (const tool of [resumed, ...agents]) await expect.poll(() => tool.names().at(-1)).toBe('First');

    const before = await liveAnswers(t.url);
    await updateSettings(t.ctx, app.modes.live, { brandName: 'Second' });
    for (const tool of [...owners, resumed, ...agents]) await expect.poll(() => tool.names().at(-1), { interval: 5 }).toBe('Second');
    const after = await liveAnswers(t.url);
    // One answer made and serialized for the 21 owners' tools and handed to 20 more, one made and serialized for the agent's.
    expect({
      made: after.made - before.made,
      serialized: after.serialized - before.serialized,
      shared: after.shared - before.shared,
    }).toEqual({
      made: 2,
      serialized: 2,
      shared: 20,
    });
    expect(resumed.names()).toEqual(['First', 'Second']);
  });
});

/** The server's count of answers to live subscribers, made and shared (from /metrics). */
async function liveAnswers(url: string): Promise<{ made: number; serialized: number; shared: number }> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const count = (how: string) => Number(new RegExp(`^crm_live_answers_total\\{how="${how}"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
  return { made: count('made'), serialized: count('serialized'), shared: count('shared') };
}
