import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import * as appAccess from '../src/domain/app-access.js';
import { ACTIONS, roleAllows, type Role } from '../src/domain/staff/roles.js';
import { memberOf, staffApp, type StaffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { startTestServer, type TestServer } from './support/server.js';

// Who may do what in the staff API, black-box over real HTTP and graphql-ws: each field declares
// its action and takes the target from its own arguments; the viewer's membership behind a target
// is read once per request. The server runs in this process, so the membership reads are counted.

vi.mock('../src/domain/app-access.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/domain/app-access.js')>();
  return { ...real, accessTo: vi.fn(real.accessTo) };
});
const accessTo = vi.mocked(appAccess.accessTo);

let t: TestServer;
let app: StaffApp;
const clients: Client[] = [];

beforeAll(async () => {
  t = await startTestServer();
});
beforeEach(async () => {
  app = await staffApp(t);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await t.close();
});

const { ok, refused } = staffApi(
  () => t.url,
  () => app.owner,
);
const forbidden = { code: 'role_forbids', status: 403 };

describe('roles', () => {
  it('lets owners do everything, admins everything but members, agents read, reply and assign', () => {
    const allowed = (role: Role) => ACTIONS.filter((a) => roleAllows(role, a));
    expect(allowed('owner')).toEqual(['read', 'reply', 'assign', 'manage_settings', 'manage_keys', 'manage_members']);
    expect(allowed('admin')).toEqual(['read', 'reply', 'assign', 'manage_settings', 'manage_keys']);
    expect(allowed('agent')).toEqual(['read', 'reply', 'assign']);
  });

  it('holds each field to its action, whatever the kind of its target', async () => {
    const { token: admin } = await memberOf(t, app.workspaceId, 'admin');
    const { token: agent } = await memberOf(t, app.workspaceId, 'agent');
    const [keyId] = (await t.svc.db.serverKey.findMany({ where: { appModeId: app.modes.live }, select: { id: true } })).map((k) => k.id);
    const { id: invitationId } = (
      await ok('mutation($w: ID!) { inviteMember(workspaceId: $w, email: "someone@example.com", role: agent) { id } }', {
        w: app.workspaceId,
      })
    ).inviteMember;
    const fields: [action: string, query: string, variables: Record<string, unknown>][] = [
      ['read', 'query($a: ID!) { app(id: $a) { id } }', { a: app.appId }],
      ['read', 'query($w: ID!) { members(workspaceId: $w) { edges { node { role } } } }', { w: app.workspaceId }],
      [
        'manage_settings',
        'mutation($m: ID!) { updateAppSettings(appModeId: $m, input: { brandName: "Renamed" }) { id } }',
        { m: app.modes.live },
      ],
      ['manage_settings', 'mutation($w: ID!) { createApp(workspaceId: $w, name: "Another") { app { id } } }', { w: app.workspaceId }],
      ['manage_settings', 'mutation($a: ID!) { renameApp(id: $a, name: "Renamed") { id } }', { a: app.appId }],
      ['manage_keys', 'mutation($m: ID!) { createServerKey(appModeId: $m) { id } }', { m: app.modes.test }],
      ['manage_keys', 'mutation($k: ID!) { revokeServerKey(id: $k) { id } }', { k: keyId }],
      ['manage_members', 'query($w: ID!) { invitations(workspaceId: $w) { edges { node { id } } } }', { w: app.workspaceId }],
      ['manage_members', 'mutation($i: ID!) { cancelInvitation(id: $i) }', { i: invitationId }],
    ];
    const tokens: Record<Role, string> = { owner: app.owner, admin, agent };
    // Owners last: cancelling the invitation makes it unknown.
    for (const role of ['agent', 'admin', 'owner'] as const) {
      for (const [action, query, variables] of fields) {
        if (roleAllows(role, action as (typeof ACTIONS)[number])) await ok(query, variables, tokens[role]);
        else
          expect(await refused(query, variables, tokens[role]), `${role} ${action}`).toMatchObject({
            ...forbidden,
            message: `A workspace ${role} may not do this.`,
          });
      }
    }
  });

  it('refuses every field without a session as unauthenticated, before any target is read', async () => {
    accessTo.mockClear();
    for (const query of [
      '{ viewer { id } }',
      `{ app(id: "${app.appId}") { id } }`,
      `mutation { createServerKey(appModeId: "${app.modes.live}") { id } }`,
      'mutation { signOut }',
    ]) {
      expect(await refused(query, {}, '')).toMatchObject({ code: 'unauthenticated', status: 401 });
    }
    expect(accessTo).not.toHaveBeenCalled();
  });

  it('answers an id from another workspace exactly as an unknown one, for every kind of target', async () => {
    const other = await staffApp(t, 'Elsewhere');
    const [otherKey] = await t.svc.db.serverKey.findMany({ where: { appModeId: other.modes.live } });
    const { id: otherInvitation } = (
      await ok(
        'mutation($w: ID!) { inviteMember(workspaceId: $w, email: "x@example.com", role: agent) { id } }',
        { w: other.workspaceId },
        other.owner,
      )
    ).inviteMember;
    const unknown = '00000000-0000-4000-8000-000000000000';
    const targets: [query: string, foreign: string][] = [
      ['query($x: ID!) { workspace(id: $x) { id } }', other.workspaceId],
      ['query($x: ID!) { app(id: $x) { id } }', other.appId],
      ['query($x: ID!) { contacts(appModeId: $x) { pageInfo { hasNextPage } } }', other.modes.live],
      ['mutation($x: ID!) { revokeServerKey(id: $x) { id } }', otherKey!.id],
      ['mutation($x: ID!) { cancelInvitation(id: $x) }', otherInvitation],
    ];
    for (const [query, foreign] of targets) {
      const refusal = await refused(query, { x: foreign });
      expect(refusal).toMatchObject({ code: 'not_found', status: 404 });
      expect(await refused(query, { x: unknown })).toEqual(refusal);
    }
    expect(await t.svc.db.serverKey.findUniqueOrThrow({ where: { id: otherKey!.id } })).toMatchObject({ revokedAt: null });
  });
});

describe('checks in one request', () => {
  it('reads the membership once for many fields, and targets of one kind together', async () => {
    accessTo.mockClear();
    const data = await ok(
      `query($live: ID!, $test: ID!, $a: ID!) {
        a: contacts(appModeId: $live) { pageInfo { hasNextPage } }
        b: attributeDefinitions(appModeId: $live) { pageInfo { hasNextPage } }
        c: refusedEvents(appModeId: $test) { pageInfo { hasNextPage } }
        d: eventDefinitions(appModeId: $test) { pageInfo { hasNextPage } }
        e: contacts(appModeId: $test, search: "x") { pageInfo { hasNextPage } }
        f: app(id: $a) { id }
      }`,
      { live: app.modes.live, test: app.modes.test, a: app.appId },
    );
    expect(data.f.id).toBe(app.appId);
    expect(accessTo.mock.calls.map(([, kind, ids]) => [kind, [...ids].sort()])).toEqual(
      expect.arrayContaining([
        ['appModeId', [app.modes.live, app.modes.test].sort()],
        ['appId', [app.appId]],
      ]),
    );
    expect(accessTo).toHaveBeenCalledTimes(2);
  });

  it('reads it once for several actions on one target across a mutation', async () => {
    accessTo.mockClear();
    await ok(
      `mutation($m: ID!) {
        key: createServerKey(appModeId: $m) { id }
        settings: updateAppSettings(appModeId: $m, input: { brandName: "Twice" }) { id }
        again: updateAppSettings(appModeId: $m, input: { brandColor: "#123456" }) { brandName brandColor }
      }`,
      { m: app.modes.live },
    );
    expect(accessTo).toHaveBeenCalledTimes(1);
  });
});

describe('live changes', () => {
  const subscription = 'subscription($m: ID!) { appModeChanged(appModeId: $m) { appMode { id brandName } } }';
  const ws = (token: string) => {
    const client = createClient({
      url: `${t.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${token}` },
    });
    clients.push(client);
    return client;
  };

  it('lets an agent watch an app-mode until they are removed from the workspace', async () => {
    const agent = await memberOf(t, app.workspaceId, 'agent');
    const changes = ws(agent.token).iterate({ query: subscription, variables: { m: app.modes.live } });
    expect((await changes.next()).value.data.appModeChanged.appMode.id).toBe(app.modes.live);

    await ok('mutation($m: ID!) { updateAppSettings(appModeId: $m, input: { brandName: "Seen" }) { id } }', { m: app.modes.live });
    expect((await changes.next()).value.data.appModeChanged.appMode.brandName).toBe('Seen');

    const { id: agentId } = await t.svc.db.staffUser.findUniqueOrThrow({ where: { email: agent.email } });
    await ok('mutation($w: ID!, $u: ID!) { removeMember(workspaceId: $w, staffUserId: $u) }', { w: app.workspaceId, u: agentId });
    // Ended by the removal's notice, as a new request would be refused.
    await expect(changes.next()).rejects.toMatchObject([{ extensions: { code: 'not_found' } }]);
  });

  it('refuses to start a watch the viewer may not read, as for an unknown app-mode', async () => {
    const other = await staffApp(t, 'Elsewhere');
    const first = await ws(app.owner)
      .iterate({ query: subscription, variables: { m: other.modes.live } })
      .next();
    expect(first.value.errors[0].extensions).toMatchObject({ code: 'not_found', status: 404 });
  });
});
