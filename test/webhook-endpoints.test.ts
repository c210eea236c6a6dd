import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_WEBHOOK_ENDPOINTS } from '../src/domain/webhooks/endpoints.js';
import { WEBHOOK_TOPICS } from '../src/domain/webhooks/topics.js';
import { memberOf, staffApp, type StaffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { startTestServer, type TestServer } from './support/server.js';

// Webhook endpoints as staff keep them: an https address and topics, at most 20 per app (both
// modes together), a secret shown once and renewed at will, switched on and off.

let t: TestServer;
let app: StaffApp;
beforeAll(async () => {
  t = await startTestServer();
  app = await staffApp(t);
});
afterAll(() => t?.close());

const { ok, refused } = staffApi(
  () => t.url,
  () => app.owner,
);

const ADD =
  'mutation($m: ID!, $u: String!, $t: [String!]!, $d: String) { addWebhookEndpoint(appModeId: $m, url: $u, topics: $t, description: $d) { secret endpoint { id url topics secretHint enabled } } }';
const add = (appModeId: string, url = 'https://hooks.example.com/crm', topics = ['contact.created'], token = app.owner) =>
  ok(ADD, { m: appModeId, u: url, t: topics }, token).then((d) => d.addWebhookEndpoint);

describe('adding an endpoint', () => {
  it('shows its whsec_ secret once, keeps it sealed, and lists the endpoint with a hint only', async () => {
    const own = await staffApp(t);
    const { secret, endpoint } = await ok(
      ADD,
      { m: own.modes.live, u: 'https://hooks.example.com/a', t: ['contact.created', 'contact.updated', 'contact.created'] },
      own.owner,
    ).then((d) => d.addWebhookEndpoint);
    expect(secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    expect(endpoint).toMatchObject({
      url: 'https://hooks.example.com/a',
      topics: ['contact.created', 'contact.updated'],
      secretHint: `whsec_…${secret.slice(-4)}`,
      enabled: true,
    });
    const row = await t.svc.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } });
    expect(row.secretEnc).not.toContain(secret.slice(6));
    expect(t.svc.secrets.open(row.secretEnc)).toBe(secret);
    const listed = await ok(
      'query($m: ID!) { webhookEndpoints(appModeId: $m) { edges { node { id secretHint } } } }',
      { m: own.modes.live },
      own.owner,
    );
    expect(JSON.stringify(listed)).not.toContain(secret);
    expect(listed.webhookEndpoints.edges.map((e: { node: { id: string } }) => e.node.id)).toEqual([endpoint.id]);
  });

  it('refuses what is not an https address or not a topic, naming the member', async () => {
    for (const [url, message] of [
      ['http://hooks.example.com/x', 'must be an https address'],
      ['https://user:pw@hooks.example.com/x', 'must not carry a user name or password'],
      ['not a url', 'must be an https address such as https://example.com/hooks/crm'],
    ]) {
      const r = await refused(ADD, { m: app.modes.live, u: url, t: ['contact.created'] });
      expect(r).toMatchObject({ code: 'invalid_request', errors: [{ field: 'url', message }] });
    }
    const r = await refused(ADD, { m: app.modes.live, u: 'https://hooks.example.com/x', t: ['contact.created', 'contact.deleted'] });
    expect(r).toMatchObject({ code: 'invalid_request', errors: [{ field: 'topics.1' }] });
    expect((await refused(ADD, { m: app.modes.live, u: 'https://hooks.example.com/x', t: [] })).errors).toEqual([
      { field: 'topics', message: 'name at least one topic' },
    ]);
  });

  it('lists every topic of the spec, and says which are posted yet', async () => {
    const { webhookTopics } = await ok('{ webhookTopics { name emitted } }');
    expect(webhookTopics.map((x: { name: string }) => x.name)).toEqual([...WEBHOOK_TOPICS]);
    expect(webhookTopics.filter((x: { emitted: boolean }) => x.emitted).map((x: { name: string }) => x.name)).toEqual([
      'contact.created',
      'contact.updated',
      'contact.unsubscribed',
      'conversation.started',
      'conversation.replied',
      'conversation.closed',
      'conversation.rated',
      'ticket.created',
      'ticket.changed',
      'message.sent',
      'message.opened',
      'message.clicked',
      'survey.completed',
      'goal.reached',
    ]);
  });

  it('allows 20 per app, both modes together, even when 25 are added at once', async () => {
    const own = await staffApp(t);
    const attempts = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        staffApi(
          () => t.url,
          () => own.owner,
        ).gql(ADD, { m: i % 2 ? own.modes.test : own.modes.live, u: `https://hooks.example.com/${i}`, t: ['contact.created'] }, own.owner),
      ),
    );
    expect(attempts.filter((r) => r.data?.addWebhookEndpoint).length).toBe(MAX_WEBHOOK_ENDPOINTS);
    const codes = attempts.flatMap((r) => r.errors ?? []).map((e) => e.extensions.code);
    expect(codes).toEqual(Array(25 - MAX_WEBHOOK_ENDPOINTS).fill('webhook_endpoint_limit'));
  });

  it('is for admins and owners: an agent reads endpoints but may not add one, and another workspace’s endpoint is unknown', async () => {
    const workspaceId = app.workspaceId;
    const agent = await memberOf(t, workspaceId, 'agent');
    expect((await refused(ADD, { m: app.modes.live, u: 'https://hooks.example.com/x', t: ['contact.created'] }, agent.token)).code).toBe(
      'role_forbids',
    );
    await ok('query($m: ID!) { webhookEndpoints(appModeId: $m) { edges { node { id } } } }', { m: app.modes.live }, agent.token);

    const other = await staffApp(t);
    const theirs = await add(other.modes.live, undefined, undefined, other.owner);
    for (const mutation of [
      'mutation($id: ID!) { removeWebhookEndpoint(id: $id) }',
      'mutation($id: ID!) { renewWebhookSecret(id: $id) { secret } }',
      'mutation($id: ID!) { switchWebhookEndpoint(id: $id, on: false) { id } }',
    ])
      expect((await refused(mutation, { id: theirs.endpoint.id })).code).toBe('not_found');
  });
});

describe('keeping an endpoint', () => {
  it('renews the secret (the old one is gone), changes only what is given, and switches off and on with a fresh count', async () => {
    const { endpoint, secret } = await add(app.modes.live, 'https://hooks.example.com/keep', ['contact.created']);
    const renewed = (await ok('mutation($id: ID!) { renewWebhookSecret(id: $id) { secret endpoint { secretHint } } }', { id: endpoint.id }))
      .renewWebhookSecret;
    expect(renewed.secret).not.toBe(secret);
    expect(renewed.endpoint.secretHint).toBe(`whsec_…${renewed.secret.slice(-4)}`);
    expect(t.svc.secrets.open((await t.svc.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpoint.id } })).secretEnc)).toBe(
      renewed.secret,
    );

    const changed = await ok(
      'mutation($id: ID!, $i: WebhookEndpointInput!) { changeWebhookEndpoint(id: $id, input: $i) { url topics description } }',
      {
        id: endpoint.id,
        i: { topics: ['contact.updated'], description: 'CRM sync' },
      },
    );
    expect(changed.changeWebhookEndpoint).toEqual({
      url: 'https://hooks.example.com/keep',
      topics: ['contact.updated'],
      description: 'CRM sync',
    });

    await t.svc.db.webhookEndpoint.update({ where: { id: endpoint.id }, data: { failures: 7, failingSince: t.clock.now() } });
    const SWITCH = 'mutation($id: ID!, $on: Boolean!) { switchWebhookEndpoint(id: $id, on: $on) { enabled failures failingSince } }';
    expect((await ok(SWITCH, { id: endpoint.id, on: false })).switchWebhookEndpoint).toEqual({
      enabled: false,
      failures: 7,
      failingSince: expect.any(String),
    });
    expect((await ok(SWITCH, { id: endpoint.id, on: true })).switchWebhookEndpoint).toEqual({
      enabled: true,
      failures: 0,
      failingSince: null,
    });

    expect((await ok('mutation($id: ID!) { removeWebhookEndpoint(id: $id) }', { id: endpoint.id })).removeWebhookEndpoint).toBe(true);
    expect((await refused('mutation($id: ID!) { removeWebhookEndpoint(id: $id) }', { id: endpoint.id })).code).toBe('not_found');
  });
});
