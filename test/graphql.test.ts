import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { authenticateServer } from '../src/domain/access/server.js';
import { appModeChanges } from '../src/domain/apps/app-mode-changes.js';
import { createServerKey, MAX_SERVER_KEYS } from '../src/domain/apps/server-keys.js';
import { abortable } from '../src/graphql/abortable.js';
import { call } from './support/http.js';
import { staffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { seedApp, startTestServer, testConfig, type TestServer } from './support/server.js';

// The staff GraphQL API, black-box: real HTTP, the official graphql-ws client, real PostgreSQL.

const CONSOLE_ORIGIN = 'https://console.example.com';

let t: TestServer;
let app: Awaited<ReturnType<typeof seedApp>>;
let owner: string;
const clients: Client[] = [];

beforeAll(async () => {
  t = await startTestServer({ config: testConfig({ staffConsoleOrigins: [CONSOLE_ORIGIN] }) });
  app = await seedApp(t.svc);
  owner = await signIn(app.ownerEmail, app.ownerPassword);
});
let closed = false;
afterAll(async () => {
  if (!closed) await t.close();
  await Promise.all(clients.map((c) => c.dispose()));
});

const { ok, refused, signIn } = staffApi(
  () => t.url,
  () => owner,
);

/** The nodes of a connection's page. */
const nodes = (connection: { edges: { node: any }[] }) => connection.edges.map((e) => e.node);

const appModeIds = async (appId = app.appId) => {
  const rows = await t.svc.db.appMode.findMany({ where: { appId } });
  return { live: rows.find((m) => m.mode === 'live')!.id, test: rows.find((m) => m.mode === 'test')!.id };
};

function wsClient(authorization: unknown, impl: unknown = WebSocket, options: { lazy?: boolean } = {}): Client {
  const client = createClient({
    url: `${t.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: impl,
    retryAttempts: 0,
    connectionParams: { authorization },
    ...options,
  });
  clients.push(client);
  return client;
}

describe('GraphiQL', () => {
  it('is served from the package itself, with no script from another host', async () => {
    const res = await fetch(`${t.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    const page = await res.text();
    expect(page).toContain('<title>Staff API</title>');
    expect(page).not.toMatch(/<script[^>]+src=["']https?:/i);
  });
});

describe('signing in', () => {
  it('gives a session token and the viewer', async () => {
    const data = await ok(
      'mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { token expiresAt viewer { email memberships { edges { node { role } } } } } }',
      {
        e: app.ownerEmail.toUpperCase(),
        p: app.ownerPassword,
      },
      '',
    );
    expect(data.signIn.token).toMatch(/^crm_st_/);
    expect(new Date(data.signIn.expiresAt).getTime()).toBeGreaterThan(t.clock.now().getTime());
    expect(data.signIn.viewer).toEqual({ email: app.ownerEmail, memberships: { edges: [{ node: { role: 'owner' } }] } });
  });

  it('refuses a wrong password', async () => {
    const e = await refused('mutation { signIn(email: "' + app.ownerEmail + '", password: "not the password") { token } }', {}, '');
    expect(e).toMatchObject({ code: 'unauthorized', status: 401 });
  });

  it('answers unauthenticated without a token, or with a made-up one', async () => {
    expect(await refused('{ viewer { id } }', {}, '')).toMatchObject({ code: 'unauthenticated' });
    expect(await refused('{ workspaces { edges { node { id } } } }', {}, 'crm_st_madeup')).toMatchObject({ code: 'unauthenticated' });
  });

  it('signOut makes the token stop working', async () => {
    const token = await signIn(app.ownerEmail, app.ownerPassword);
    expect((await ok('{ viewer { email } }', {}, token)).viewer.email).toBe(app.ownerEmail);
    expect((await ok('mutation { signOut }', {}, token)).signOut).toBe(true);
    expect(await refused('{ viewer { email } }', {}, token)).toMatchObject({ code: 'unauthenticated' });
  });
});

describe('workspaces and apps', () => {
  it('lists the viewer, their workspaces and the apps with both modes', async () => {
    const app = await staffApp(t); // a workspace of its own: other tests add apps to the shared one
    const data = await ok(
      `{
      viewer { email memberships { edges { node { role workspace { id } } } } }
      workspaces { edges { node { id name apps { edges { node { id name live { mode appKey } test { mode appKey } } } } } } }
    }`,
      {},
      app.owner,
    );
    expect(nodes(data.viewer.memberships)).toEqual([{ role: 'owner', workspace: { id: app.workspaceId } }]);
    expect(nodes(data.workspaces).map((w: any) => ({ ...w, apps: nodes(w.apps) }))).toEqual([
      {
        id: app.workspaceId,
        name: 'Test app workspace',
        apps: [
          {
            id: app.appId,
            name: 'Test app',
            live: { mode: 'live', appKey: app.live.app_key },
            test: { mode: 'test', appKey: app.test.app_key },
          },
        ],
      },
    ]);
  });

  it('shows one app with its settings and key hints, never its secrets', async () => {
    const app = await staffApp(t); // an app of its own: other tests add keys to the shared one
    const data = await ok(
      'query($id: ID!) { app(id: $id) { workspace { id } live { id webOrigins brandName serverKeys { edges { node { hint revokedAt } } } } test { appKey } } }',
      { id: app.appId },
      app.owner,
    );
    expect(data.app.workspace.id).toBe(app.workspaceId);
    expect(nodes(data.app.live.serverKeys)).toEqual([{ hint: `crm_sk_…${app.live.server_key.slice(-4)}`, revokedAt: null }]);
    const fields = await ok('{ __type(name: "AppMode") { fields { name } } }');
    const names: string[] = fields.__type.fields.map((f: { name: string }) => f.name);
    expect(names).toContain('brandName');
    expect(names.filter((n) => /secret|hash|enc$/i.test(n))).toEqual([]);
  });

  it('answers an unknown app and another workspace’s app alike: not found', async () => {
    const other = await seedApp(t.svc, 'Other app');
    const foreign = await refused('query($id: ID!) { app(id: $id) { id } }', { id: other.appId });
    const unknown = await refused('query($id: ID!) { app(id: $id) { id } }', { id: 'no-such-app' });
    expect(foreign).toEqual(unknown);
    expect(foreign).toMatchObject({ code: 'not_found', status: 404 });
    expect(await refused('query($id: ID!) { workspace(id: $id) { id } }', { id: other.workspaceId })).toMatchObject({ code: 'not_found' });
  });

  it('createApp shows each mode’s credentials once, and they work', async () => {
    const data = await ok(
      `mutation($w: ID!) { createApp(workspaceId: $w, name: "Second") {
        app { id name live { id appKey } test { appKey } }
        live { appKey serverKey identitySecret inboundSecret }
        test { appKey serverKey identitySecret inboundSecret }
      } }`,
      { w: app.workspaceId },
    );
    const made = data.createApp;
    expect(made.app.live.appKey).toBe(made.live.appKey);
    expect(made.test.serverKey).toMatch(/^crm_sk_test_/);
    expect((await authenticateServer(t.svc, `Bearer ${made.live.serverKey}`)).appId).toBe(made.app.id);

    const everything = JSON.stringify(
      await ok(
        'query($id: ID!) { app(id: $id) { live { ...M } test { ...M } } } fragment M on AppMode { id appKey webOrigins serverKeys { edges { node { id hint } } } }',
        { id: made.app.id },
      ),
    );
    for (const mode of [made.live, made.test]) {
      for (const secret of [mode.serverKey, mode.identitySecret, mode.inboundSecret]) expect(everything).not.toContain(secret);
    }
  });
});

describe('server keys', () => {
  it('makes a key shown once, then revokes it: the key stops opening the server API', async () => {
    const { live } = await appModeIds();
    const made = (await ok('mutation($m: ID!) { createServerKey(appModeId: $m) { id serverKey hint } }', { m: live })).createServerKey;
    expect(made.hint).toBe(`crm_sk_…${made.serverKey.slice(-4)}`);
    expect((await authenticateServer(t.svc, `Bearer ${made.serverKey}`)).serverKeyId).toBe(made.id);

    const revoked = (await ok('mutation($id: ID!) { revokeServerKey(id: $id) { id revokedAt } }', { id: made.id })).revokeServerKey;
    expect(revoked.revokedAt).toBe(t.clock.now().toISOString());
    await expect(authenticateServer(t.svc, `Bearer ${made.serverKey}`)).rejects.toMatchObject({
      status: 401,
      detail: 'This server key has been revoked.',
    });
  });

  it('refuses the 21st live key of a mode', async () => {
    const { test } = await appModeIds();
    const live = await t.svc.db.serverKey.count({ where: { appModeId: test, revokedAt: null } });
    for (let i = live; i < MAX_SERVER_KEYS; i++) await createServerKey(t.ctx, test);
    expect(await refused('mutation($m: ID!) { createServerKey(appModeId: $m) { id } }', { m: test })).toMatchObject({
      code: 'server_key_limit',
      status: 409,
    });
  });
});

describe('app settings', () => {
  it('changes what is given and returns the app-mode', async () => {
    const { live } = await appModeIds();
    const data = await ok(
      'mutation($m: ID!, $i: AppSettingsInput!) { updateAppSettings(appModeId: $m, input: $i) { webOrigins brandColor helpOn } }',
      {
        m: live,
        i: { webOrigins: ['https://shop.example.com'], brandColor: '#112233', helpOn: false },
      },
    );
    expect(data.updateAppSettings).toEqual({ webOrigins: ['https://shop.example.com'], brandColor: '#112233', helpOn: false });
  });

  it('refuses a bad origin, naming the field', async () => {
    const { live } = await appModeIds();
    const e = await refused('mutation($m: ID!, $i: AppSettingsInput!) { updateAppSettings(appModeId: $m, input: $i) { id } }', {
      m: live,
      i: { webOrigins: ['https://ok.example.com', 'http://shop.example.com/path'] },
    });
    expect(e).toMatchObject({ code: 'invalid_request', status: 400 });
    expect(e.errors?.map((f) => f.field)).toEqual(['webOrigins.1']);
  });
});

describe('HTTP transport', () => {
  it('answers GET queries and keeps yoga’s status when there is no body', async () => {
    const r = await call(t.url, 'GET', `/graphql?query=${encodeURIComponent('{ viewer { email } }')}`, {
      headers: { Authorization: `Bearer ${owner}` },
    });
    expect(r.json).toEqual({ data: { viewer: { email: app.ownerEmail } } });
    // GraphiQL for a browser, served whole from the package: no script from another host.
    const page = await call(t.url, 'GET', '/graphql', { headers: { Accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.text).toContain('GraphiQL');
    expect(page.text).not.toMatch(/<script[^>]+src="https?:/);
  });
});

describe('live changes over graphql-ws', () => {
  const subscription = 'subscription($m: ID!) { appModeChanged(appModeId: $m) { reload appMode { id brandName } } }';

  it('sends the app-mode, then each change made through updateAppSettings', async () => {
    const { live } = await appModeIds();
    const changes = wsClient(`Bearer ${owner}`).iterate({ query: subscription, variables: { m: live } });
    const first = await changes.next();
    expect(first.value.data.appModeChanged).toMatchObject({ reload: true, appMode: { id: live } });

    await ok('mutation($m: ID!) { updateAppSettings(appModeId: $m, input: { brandName: "Renamed live" }) { id } }', { m: live });
    expect((await changes.next()).value).toEqual({
      data: { appModeChanged: { reload: false, appMode: { id: live, brandName: 'Renamed live' } } },
    });
    await changes.return!();
  });

  it('refuses a subscription to another workspace’s app-mode as not found', async () => {
    const other = await seedApp(t.svc, 'Elsewhere');
    const { live } = await appModeIds(other.appId);
    const changes = wsClient(`Bearer ${owner}`).iterate({ query: subscription, variables: { m: live } });
    const r = await changes.next();
    expect(r.value.errors[0].extensions).toMatchObject({ code: 'not_found' });
  });

  it('ends the watch at once when the subscriber stops, without waiting for a change', async () => {
    const { test } = await appModeIds();
    const changes = abortable((signal) => appModeChanges(t.ctx, test, { signal }));
    expect((await changes.next()).value?.appMode.id).toBe(test);
    const waiting = changes.next();
    await changes.return!();
    expect(await waiting).toEqual({ done: true, value: undefined });
  });

  it('checks the session again for each operation on an open socket', async () => {
    const token = await signIn(app.ownerEmail, app.ownerPassword);
    // Not lazy: the one socket stays open between operations; the client would otherwise reconnect.
    const client = wsClient(`Bearer ${token}`, WebSocket, { lazy: false });
    const held = client.iterate({ query: subscription, variables: { m: (await appModeIds()).live } });
    await held.next();
    const viewer = () => client.iterate({ query: '{ viewer { email } }' }).next();
    expect((await viewer()).value).toEqual({ data: { viewer: { email: app.ownerEmail } } });
    await ok('mutation { signOut }', {}, token);
    expect((await viewer()).value.errors[0].extensions).toMatchObject({ code: 'unauthenticated' });
    // The subscription already running ends on the sign-out's notice, with no change needed.
    await expect(held.next()).rejects.toMatchObject([{ extensions: { code: 'unauthenticated' } }]);
  });

  it('closes with 4401 on a bad token', async () => {
    const closed = await new Promise<{ code: number }>((resolve) => {
      wsClient('Bearer crm_st_madeup').subscribe(
        { query: '{ viewer { id } }' },
        { next: () => {}, error: (e) => resolve(e as { code: number }), complete: () => resolve({ code: 0 }) },
      );
    });
    expect(closed.code).toBe(4401);
  });

  it('refuses a browser from a foreign origin and takes one from the staff console', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(`${t.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws', { origin: 'https://evil.example' });
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => reject(new Error('opened')));
    });
    expect(status).toBe(403);

    class ConsolePage extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, { origin: CONSOLE_ORIGIN });
      }
    }
    const viewer = await wsClient(`Bearer ${owner}`, ConsolePage).iterate({ query: '{ viewer { email } }' }).next();
    expect(viewer.value).toEqual({ data: { viewer: { email: app.ownerEmail } } });
  });
});

describe('shutdown', () => {
  it('close() ends open subscriptions and sockets promptly', async () => {
    const { live } = await appModeIds();
    const changes = wsClient(`Bearer ${owner}`).iterate({
      query: 'subscription($m: ID!) { appModeChanged(appModeId: $m) { version } }',
      variables: { m: live },
    });
    await changes.next();
    const waiting = changes.next().catch((closeEvent: { code: number }) => closeEvent);
    const started = Date.now();
    closed = true;
    await t.close();
    expect(Date.now() - started).toBeLessThan(1500);
    expect(await waiting).toMatchObject({ code: 1001 });
  });
});
