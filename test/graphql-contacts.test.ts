import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eraseContactData, finishErase, requestErase } from '../src/domain/contacts/erasure.js';
import { contextOf, scopeOf } from '../src/domain/context.js';
import { ingestEvents } from '../src/domain/events/ingest.js';
import { call } from './support/http.js';
import { memberOf, staffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { guestOf } from './support/messenger.js';
import { seedApp, startTestServer, type TestServer } from './support/server.js';

// The staff GraphQL surface for contacts and product events, black-box over real HTTP: data goes
// in through the server API (and domain functions where no route exists), staff read it back.

let t: TestServer;
let app: Awaited<ReturnType<typeof seedApp>>;
let owner: string;
let live: string;
let test: string;

beforeAll(async () => {
  t = await startTestServer();
});
// Each test reads and counts what an app holds (contacts, definitions, refusals, erase requests),
// so each has an app of its own, in a workspace of its own, its owner signed in.
beforeEach(async () => {
  const made = await staffApp(t);
  app = made;
  owner = made.owner;
  ({ live, test } = made.modes);
});
afterAll(() => t.close());

const { ok, refused, signIn } = staffApi(
  () => t.url,
  () => owner,
);

async function server(method: string, path: string, json: unknown, mode: 'live' | 'test' = 'live') {
  const r = await call(t.url, method, path, { headers: { Authorization: `Bearer ${app[mode].server_key}` }, json });
  expect(r.status, r.text).toBeLessThan(300);
  return r.json;
}
const identify = (externalId: string, body: unknown) => server('PUT', `/server/v1/contacts/${externalId}`, body);
const sendEvents = (events: unknown[], mode: 'live' | 'test' = 'live') => server('POST', '/server/v1/events', { events }, mode);
const at = (offsetMs: number) => new Date(t.clock.now().getTime() + offsetMs).toISOString();
const HOUR = 3_600_000;
/** The nodes of a connection's page. */
const nodes = (connection: { edges: { node: any }[] }) => connection.edges.map((e) => e.node);
/** The context of a request by one of the app-mode's server keys. */
const asServer = async (appModeId: string) =>
  contextOf(t.svc, {
    kind: 'server',
    serverKeyId: 'test',
    ...scopeOf(await t.svc.db.appMode.findUniqueOrThrow({ where: { id: appModeId } })),
  });

describe('contacts', () => {
  const people = [
    { id: 'ada', display_name: 'Ada Lovelace', email: 'ada@analytical.example' },
    { id: 'grace', display_name: 'Grace Hopper', email: 'grace@navy.example' },
    { id: 'alan', display_name: 'Alan Turing', email: 'alan@bletchley.example' },
    { id: 'user_42', display_name: 'Underscore', email: null },
    { id: 'user-42', display_name: 'Dash', email: null },
  ];
  beforeEach(async () => {
    // One second apart, so "most recently updated first" has one answer.
    for (const { id, ...fields } of people) {
      t.clock.advance(1000);
      await identify(id, fields);
    }
  });

  const list =
    'query($m: ID!, $s: String, $n: Int, $a: String) { contacts(appModeId: $m, search: $s, first: $n, after: $a) { edges { node { externalId } cursor } pageInfo { hasNextPage endCursor } } }';
  const found = async (search: string) =>
    nodes((await ok(list, { m: live, s: search })).contacts).map((c: { externalId: string }) => c.externalId);

  it('search finds text in the email, display name or external id, in any case; wildcards are plain text', async () => {
    expect(await found('NAVY.EX')).toEqual(['grace']);
    expect(await found('lovelace')).toEqual(['ada']);
    expect(await found('  turing ')).toEqual(['alan']);
    expect(await found('r_4')).toEqual(['user_42']);
    expect(await found('%')).toEqual([]);
    expect(await found('user')).toEqual(['user-42', 'user_42']);
  });

  it('lists the most recently updated first, page by page with the cursor', async () => {
    const seen: string[] = [];
    let after: string | null = null;
    let more = true;
    while (more) {
      const page: {
        edges: { node: { externalId: string }; cursor: string }[];
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
      } = (await ok(list, { m: live, n: 2, a: after })).contacts;
      expect(page.edges.length).toBeLessThanOrEqual(2);
      expect(page.pageInfo.endCursor).toBe(page.edges.at(-1)?.cursor ?? null);
      seen.push(...page.edges.map((e) => e.node.externalId));
      ({ hasNextPage: more, endCursor: after } = page.pageInfo);
    }
    expect(seen).toEqual(people.map((p) => p.id).reverse());
    // Any edge's cursor resumes the list just after it.
    const firstPage = (await ok(list, { m: live, n: 2 })).contacts;
    expect(
      nodes((await ok(list, { m: live, n: 2, a: firstPage.edges[0].cursor })).contacts).map((c: { externalId: string }) => c.externalId),
    ).toEqual(seen.slice(1, 3));

    expect(await refused(list, { m: live, a: 'not-a-cursor' })).toMatchObject({ code: 'invalid_request', errors: [{ field: 'after' }] });
    expect(await refused(list, { m: live, n: 201 })).toMatchObject({ code: 'invalid_request', errors: [{ field: 'first' }] });
  });

  it('shows one contact with typed attributes, consent and its history, and events newest first', async () => {
    await identify('ada', {
      language: 'en-GB',
      attributes: {
        plan: 'pro',
        seats: 3,
        renews_on: '2027-01-31',
        roles: ['admin', 'billing'],
        vip: true,
        last_login: '2026-01-01T10:00:00+02:00',
      },
      consent: { offers_by_email: true, changed_at: at(-2 * HOUR) },
    });
    t.clock.advance(1000);
    await identify('ada', { consent: { offers_by_email: false, offers_by_push: true, changed_at: at(-HOUR) } });
    await sendEvents([
      { id: 'ada-1', external_id: 'ada', name: 'order_paid', at: at(-3 * HOUR), props: { amount: '4250' } },
      { id: 'ada-3', external_id: 'ada', name: 'page_seen', at: at(-HOUR), props: { path: '/pricing' } },
      { id: 'ada-2', external_id: 'ada', name: 'page_seen', at: at(-2 * HOUR), props: { path: '/' } },
      { id: 'grace-1', external_id: 'grace', name: 'page_seen', at: at(-HOUR), props: { path: '/docs' } },
    ]);

    const query = `query($m: ID!, $x: String!, $b: String) { contact(appModeId: $m, externalId: $x) {
      externalId displayName email language
      attributes { name type value }
      consent { offersByEmail offersByPush changedAt }
      consentHistory { edges { node { channel value changedAt source } } }
      events(first: 2, after: $b) { edges { node { id name props occurredAt source } } pageInfo { hasNextPage endCursor } }
    } }`;
    const ada = (await ok(query, { m: live, x: 'ada' })).contact;
    expect(ada).toMatchObject({ externalId: 'ada', displayName: 'Ada Lovelace', email: 'ada@analytical.example', language: 'en-GB' });
    expect(ada.attributes).toEqual([
      { name: 'last_login', type: 'time', value: '2026-01-01T08:00:00.000Z' },
      { name: 'plan', type: 'string', value: 'pro' },
      { name: 'renews_on', type: 'date', value: '2027-01-31' },
      { name: 'roles', type: 'list', value: ['admin', 'billing'] },
      { name: 'seats', type: 'number', value: 3 },
      { name: 'vip', type: 'boolean', value: true },
    ]);
    expect(ada.consent).toEqual({ offersByEmail: false, offersByPush: true, changedAt: at(-HOUR) });
    expect(nodes(ada.consentHistory)).toEqual([
      { channel: 'email', value: false, changedAt: at(-HOUR), source: 'server' },
      { channel: 'push', value: true, changedAt: at(-HOUR), source: 'server' },
      { channel: 'email', value: true, changedAt: at(-2 * HOUR - 1000), source: 'server' },
    ]);
    expect(ada.events.pageInfo.hasNextPage).toBe(true);
    expect(nodes(ada.events)).toEqual([
      { id: 'ada-3', name: 'page_seen', props: { path: '/pricing' }, occurredAt: at(-HOUR), source: 'server' },
      { id: 'ada-2', name: 'page_seen', props: { path: '/' }, occurredAt: at(-2 * HOUR), source: 'server' },
    ]);
    const older = (await ok(query, { m: live, x: 'ada', b: ada.events.pageInfo.endCursor })).contact.events;
    expect(nodes(older)).toEqual([
      { id: 'ada-1', name: 'order_paid', props: { amount: 4250 }, occurredAt: at(-3 * HOUR), source: 'server' },
    ]);
    expect(older.pageInfo).toEqual({ hasNextPage: false, endCursor: expect.any(String) });

    // The list reads every listed person's latest events together.
    const latest = await ok(
      'query($m: ID!) { contacts(appModeId: $m, search: "a") { edges { node { externalId events(first: 1) { edges { node { id } } } } } } }',
      { m: live },
    );
    const withEvents = nodes(latest.contacts).filter((c: { events: { edges: unknown[] } }) => c.events.edges.length);
    expect(withEvents.sort((a: { externalId: string }, b: { externalId: string }) => a.externalId.localeCompare(b.externalId))).toEqual([
      { externalId: 'ada', events: { edges: [{ node: { id: 'ada-3' } }] } },
      { externalId: 'grace', events: { edges: [{ node: { id: 'grace-1' } }] } },
    ]);

    expect(await refused(query, { m: live, x: 'nobody' })).toMatchObject({ code: 'not_found', status: 404 });
  });
});

describe('attribute definitions', () => {
  const defs =
    'query($m: ID!, $r: Boolean) { attributeDefinitions(appModeId: $m, needsReview: $r) { edges { node { name type needsReview } } } }';
  const define =
    'mutation($m: ID!, $n: String!, $t: AttributeType!) { defineAttribute(appModeId: $m, name: $n, type: $t) { name type needsReview } }';

  it('lists those made on first sight for review, and marks one reviewed', async () => {
    await identify('ivy', { attributes: { team: 'core', score: 7 } });
    expect(nodes((await ok(defs, { m: live, r: true })).attributeDefinitions)).toEqual(
      expect.arrayContaining([
        { name: 'score', type: 'number', needsReview: true },
        { name: 'team', type: 'string', needsReview: true },
      ]),
    );
    const reviewed = await ok('mutation($m: ID!) { reviewAttributeDefinition(appModeId: $m, name: "team") { name needsReview } }', {
      m: live,
    });
    expect(reviewed.reviewAttributeDefinition).toEqual({ name: 'team', needsReview: false });
    expect(nodes((await ok(defs, { m: live, r: true })).attributeDefinitions).map((d: { name: string }) => d.name)).not.toContain('team');
    expect(nodes((await ok(defs, { m: live, r: false })).attributeDefinitions)).toContainEqual({
      name: 'team',
      type: 'string',
      needsReview: false,
    });
    expect(
      await refused('mutation($m: ID!) { reviewAttributeDefinition(appModeId: $m, name: "nothing") { name } }', { m: live }),
    ).toMatchObject({ code: 'not_found' });
  });

  it('defineAttribute declares ahead of data, and never changes a type', async () => {
    await identify('ivy', { attributes: { score: 7 } }); // score: a number, made on first sight
    expect((await ok(define, { m: live, n: 'region', t: 'string' })).defineAttribute).toEqual({
      name: 'region',
      type: 'string',
      needsReview: false,
    });
    expect((await ok(define, { m: live, n: 'region', t: 'string' })).defineAttribute).toEqual({
      name: 'region',
      type: 'string',
      needsReview: false,
    });
    expect(await refused(define, { m: live, n: 'region', t: 'number' })).toMatchObject({ code: 'attribute_type_fixed', status: 409 });
    expect(await refused(define, { m: live, n: 'score', t: 'string' })).toMatchObject({ code: 'attribute_type_fixed' });
    expect(await refused(define, { m: live, n: 'country', t: 'string' })).toMatchObject({
      code: 'invalid_request',
      errors: [{ field: 'name' }],
    });
    expect(await refused(define, { m: live, n: '9lives', t: 'string' })).toMatchObject({
      code: 'invalid_request',
      errors: [{ field: 'name' }],
    });
    // Identify holds values to the declared type.
    const r = await call(t.url, 'PUT', '/server/v1/contacts/ivy', {
      headers: { Authorization: `Bearer ${app.live.server_key}` },
      json: { attributes: { region: 5 } },
    });
    expect(r.status).toBe(400);
  });
});

describe('event definitions', () => {
  it('shows declared and first-sight events with daily counts per platform, web apart', async () => {
    await server('PUT', '/server/v1/event-definitions', {
      definitions: [{ name: 'plan_changed', category: 'billing', description: 'A plan moved', props: [{ key: 'to', type: 'string' }] }],
    });
    await sendEvents([
      { id: 'ps-1', external_id: 'ada', name: 'page_seen', at: at(-HOUR), props: { path: '/pricing' } }, // undeclared: made on first sight
      { id: 'pc-1', external_id: 'ada', name: 'plan_changed', at: at(0), props: { to: 'pro' } },
      { id: 'pc-2', external_id: 'grace', name: 'plan_changed', at: at(0), props: { to: 'team' } },
      { id: 'pc-old', external_id: 'grace', name: 'plan_changed', at: at(-40 * 24 * HOUR), props: { to: 'free' } },
    ]);
    const incoming = { index: 0, id: 'pc-web', externalId: 'ada', name: 'plan_changed', occurredAt: t.clock.now(), props: { to: 'team' } };
    await ingestEvents(await asServer(live), [incoming], { source: 'guest', platform: 'web', mayDefine: () => false, mayUse: () => true });

    const query = `query($m: ID!, $d: Int) { eventDefinitions(appModeId: $m) { edges { node {
      name description category source declared props { key type } dailyCounts(days: $d) { day platform count }
    } } } }`;
    const today = at(0).slice(0, 10);
    const byName = async (days?: number) =>
      new Map(nodes((await ok(query, { m: live, d: days })).eventDefinitions).map((d: { name: string }) => [d.name, d]));
    const plan: any = (await byName()).get('plan_changed');
    expect(plan).toEqual({
      name: 'plan_changed',
      description: 'A plan moved',
      category: 'billing',
      source: 'server',
      declared: true,
      props: [{ key: 'to', type: 'string' }],
      dailyCounts: [
        { day: today, platform: 'server', count: 2 },
        { day: today, platform: 'web', count: 1 },
      ],
    });
    expect(((await byName(60)).get('plan_changed') as any).dailyCounts).toHaveLength(3);
    expect((await byName()).get('page_seen')).toMatchObject({ declared: false, props: [{ key: 'path', type: 'string' }] });
    expect(await refused(query, { m: live, d: 0 })).toMatchObject({ code: 'invalid_request', errors: [{ field: 'days' }] });
  });
});

describe('refused events', () => {
  it('lists refusals newest batch first, each batch in order, page by page', async () => {
    await sendEvents(
      [
        { id: 'ok-1', external_id: 'zoe', name: 'signed_up', at: at(0), props: { amount: '12' } },
        { id: 'bad-1', external_id: 'zoe', name: 'signed_up', at: 'yesterday' },
        { id: 'bad-2', external_id: 'zoe', name: 'signed_up', at: at(0), props: { amount: 'lots' } },
      ],
      'test',
    );
    t.clock.advance(1000);
    await sendEvents([{ id: 'bad-3', external_id: 'zoe', name: 'signed_up', at: at(0), props: { amount: 'more' } }], 'test');

    const query =
      'query($m: ID!, $b: String) { refusedEvents(appModeId: $m, first: 2, after: $b) { edges { node { index eventId name externalId reason source receivedAt } } pageInfo { hasNextPage endCursor } } }';
    const first = (await ok(query, { m: test })).refusedEvents;
    expect(first.pageInfo.hasNextPage).toBe(true);
    expect(nodes(first)).toEqual([
      { index: 0, eventId: 'bad-3', name: 'signed_up', externalId: 'zoe', reason: 'invalid_prop', source: 'server', receivedAt: at(0) },
      // Unreadable events keep only their id: the rest of them cannot be trusted.
      { index: 1, eventId: 'bad-1', name: null, externalId: null, reason: 'invalid', source: 'server', receivedAt: at(-1000) },
    ]);
    const second = (await ok(query, { m: test, b: first.pageInfo.endCursor })).refusedEvents;
    expect(nodes(second)).toEqual([
      { index: 2, eventId: 'bad-2', name: 'signed_up', externalId: 'zoe', reason: 'invalid_prop', source: 'server', receivedAt: at(-1000) },
    ]);
    expect(second.pageInfo.hasNextPage).toBe(false);
  });
});

describe('erase requests', () => {
  it('lists the app’s requests newest first, with their state', async () => {
    await identify('eve', { display_name: 'Eve' });
    await identify('mallory', { display_name: 'Mallory' });
    const done = await requestErase(await asServer(live), 'mallory');
    await eraseContactData(t.ctx, done.request.id);
    await finishErase(t.ctx, done.request.id);
    t.clock.advance(1000);
    // Asked in the test mode: a request is for the whole app.
    await requestErase(await asServer(test), 'eve');

    const query =
      'query($a: ID!, $s: String) { eraseRequests(appId: $a, state: $s) { edges { node { externalId state requestedAt blockedUntil finishedAt removed } } } }';
    const all = nodes((await ok(query, { a: app.appId })).eraseRequests);
    // Once done, the request keeps only a keyed hash of the id.
    expect(all.map((r: { externalId: string | null; state: string }) => [r.externalId, r.state])).toEqual([
      ['eve', 'queued'],
      [null, 'done'],
    ]);
    expect(all[0]).toMatchObject({ finishedAt: null, removed: null, requestedAt: at(0), blockedUntil: at(30 * 24 * HOUR) });
    expect(nodes((await ok(query, { a: app.appId, s: 'done' })).eraseRequests)).toEqual([
      expect.objectContaining({
        externalId: null,
        finishedAt: at(-1000),
        removed: expect.objectContaining({
          contacts: 1,
          consentChanges: 0,
          events: 0,
          refusedEvents: 0,
          webhookDeliveries: 0,
          outboxEvents: expect.any(Number),
        }),
      }),
    ]);
    expect(await refused(query, { a: app.appId, s: 'gone' })).toMatchObject({ code: 'invalid_request', errors: [{ field: 'state' }] });
  });
});

describe('access', () => {
  const reads = [
    'query($m: ID!) { contacts(appModeId: $m) { pageInfo { endCursor } } }',
    'query($m: ID!) { contact(appModeId: $m, externalId: "ada") { externalId } }',
    'query($m: ID!) { attributeDefinitions(appModeId: $m) { edges { node { name } } } }',
    'query($m: ID!) { eventDefinitions(appModeId: $m) { edges { node { name } } } }',
    'query($m: ID!) { refusedEvents(appModeId: $m) { pageInfo { endCursor } } }',
  ];

  it('lets an agent read but not define or review attributes', async () => {
    await identify('ada', { display_name: 'Ada Lovelace' }); // the contact the reads ask for
    const { token: agent } = await memberOf(t, app.workspaceId, 'agent');
    for (const query of reads) await ok(query, { m: live }, agent);
    await ok('query($a: ID!) { eraseRequests(appId: $a) { edges { node { id } } } }', { a: app.appId }, agent);
    const forbidden = { code: 'role_forbids', status: 403 };
    expect(
      await refused('mutation($m: ID!) { defineAttribute(appModeId: $m, name: "nope", type: string) { name } }', { m: live }, agent),
    ).toMatchObject(forbidden);
    expect(
      await refused('mutation($m: ID!) { reviewAttributeDefinition(appModeId: $m, name: "score") { name } }', { m: live }, agent),
    ).toMatchObject(forbidden);
  });

  it('answers a member of another workspace exactly as an unknown id: not found', async () => {
    const other = await seedApp(t.svc, 'Other');
    const stranger = await signIn(other.ownerEmail, other.ownerPassword);
    const unknown = '00000000-0000-4000-8000-000000000000';
    const mutations = [
      'mutation($m: ID!) { defineAttribute(appModeId: $m, name: "x", type: string) { name } }',
      'mutation($m: ID!) { reviewAttributeDefinition(appModeId: $m, name: "score") { name } }',
    ];
    for (const query of [...reads, ...mutations]) {
      const foreign = await refused(query, { m: live }, stranger);
      expect(foreign).toMatchObject({ code: 'not_found', status: 404 });
      expect(await refused(query, { m: unknown }, stranger)).toEqual(foreign);
    }
    const erase = 'query($a: ID!) { eraseRequests(appId: $a) { edges { node { id } } } }';
    expect(await refused(erase, { a: app.appId }, stranger)).toEqual(await refused(erase, { a: 'no-such-app' }, stranger));
  });
});

describe('a person’s conversations and erasing them by staff', () => {
  const person =
    'query($m: ID!, $id: ID!, $a: String) { contact(appModeId: $m, id: $id) { externalId conversations(first: 1, after: $a) { edges { node { id preview } } pageInfo { hasNextPage endCursor } } } }';
  const erase = 'mutation($m: ID!, $id: ID!) { eraseContact(appModeId: $m, id: $id) { id state externalId } }';

  it('lists a contact’s conversations by their id, latest activity first, paged; another mode’s or app’s contact is not found', async () => {
    await identify('ada', { display_name: 'Ada Lovelace' });
    const ada = guestOf(t, app.live, 'ada');
    const first = await ada.start({ text: 'The first question' });
    expect(first.status, first.text).toBe(201);
    t.clock.advance(1000);
    const second = await ada.start({ text: 'The second question' });
    expect(second.status, second.text).toBe(201);
    const { id } = (await ok('query($m: ID!) { contact(appModeId: $m, externalId: "ada") { id } }', { m: live })).contact;

    const page1 = (await ok(person, { m: live, id })).contact;
    expect(page1.externalId).toBe('ada');
    expect(nodes(page1.conversations)).toEqual([{ id: second.json.id, preview: 'The second question' }]);
    expect(page1.conversations.pageInfo.hasNextPage).toBe(true);
    const page2 = (await ok(person, { m: live, id, a: page1.conversations.pageInfo.endCursor })).contact.conversations;
    expect(nodes(page2)).toEqual([{ id: first.json.id, preview: 'The first question' }]);
    expect(page2.pageInfo.hasNextPage).toBe(false);

    // The same id asked in the test mode, or from another app the member owns, is not found.
    expect(await refused(person, { m: test, id })).toMatchObject({ code: 'not_found', status: 404 });
    const other = await staffApp(t, 'Other');
    const stranger = { m: other.modes.live, id };
    expect(await refused(person, stranger, other.owner)).toMatchObject({ code: 'not_found', status: 404 });
    expect(await refused(person, { m: live, id }, other.owner)).toMatchObject({ code: 'not_found', status: 404 });
    expect(
      await refused('query($m: ID!, $id: ID!) { contact(appModeId: $m, id: $id, externalId: "ada") { id } }', { m: live, id }),
    ).toMatchObject({ code: 'invalid_request' });
  });

  it('erases a contact for owners and admins (agents refused), once however often asked, in both modes', async () => {
    await identify('eve', { display_name: 'Eve', email: 'eve@example.com' });
    await server('PUT', '/server/v1/contacts/eve', { display_name: 'Eve' }, 'test');
    const { id } = (await ok('query($m: ID!) { contact(appModeId: $m, externalId: "eve") { id } }', { m: live })).contact;
    const { token: agent } = await memberOf(t, app.workspaceId, 'agent');
    expect(await refused(erase, { m: live, id }, agent)).toMatchObject({ code: 'role_forbids', status: 403 });
    // The live contact's id named in the test mode: not found there.
    expect(await refused(erase, { m: test, id })).toMatchObject({ code: 'not_found', status: 404 });
    const other = await staffApp(t, 'Other');
    expect(await refused(erase, { m: live, id }, other.owner)).toMatchObject({ code: 'not_found', status: 404 });

    const { token: admin } = await memberOf(t, app.workspaceId, 'admin');
    const asked = (await ok(erase, { m: live, id }, admin)).eraseContact;
    expect(asked).toMatchObject({ state: 'queued', externalId: 'eve' });
    expect((await ok(erase, { m: live, id })).eraseContact.id).toBe(asked.id);
    // From then on the person is as gone to staff.
    expect(await refused(person, { m: live, id })).toMatchObject({ code: 'not_found' });

    await t.engine.runDue();
    const requests = nodes(
      (await ok('query($a: ID!) { eraseRequests(appId: $a) { edges { node { id state removed } } } }', { a: app.appId })).eraseRequests,
    );
    expect(requests).toEqual([{ id: asked.id, state: 'done', removed: expect.objectContaining({ contacts: 2 }) }]);
    expect(await t.svc.db.contact.count({ where: { externalId: 'eve', appModeId: { in: [live, test] } } })).toBe(0);
  });
});
