import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_PAGE, MAX_PAGE } from '../src/domain/paging.js';
import { builder } from '../src/graphql/builder.js';
import { memberOf, staffApp, type StaffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { startTestServer, type TestServer } from './support/server.js';

// One page type for every staff list: a Relay connection read forwards with first and after,
// keyset cursors, MAX_PAGE at most. Black-box over real HTTP on real PostgreSQL.

let t: TestServer;
let app: StaffApp;

beforeAll(async () => {
  t = await startTestServer();
  app = await staffApp(t);
});
afterAll(() => t.close());

const { ok, refused } = staffApi(
  () => t.url,
  () => app.owner,
);

type Field = {
  name: string;
  args: { name: string }[];
  type: { kind: string; name: string | null; ofType: { name: string | null } | null };
};
const typeName = (f: Field) => f.type.name ?? f.type.ofType?.name ?? '';

describe('the shape', () => {
  it('makes every list a connection of edges and pageInfo, paged with first and after only', async () => {
    const { __schema } = await ok('{ __schema { types { name kind fields { name args { name } type { kind name ofType { name } } } } } }');
    const types: { name: string; kind: string; fields: Field[] | null }[] = __schema.types.filter(
      (x: { name: string }) => !x.name.startsWith('__'),
    );
    const connections = types.filter((x) => x.name.endsWith('Connection'));
    expect(connections.length).toBeGreaterThanOrEqual(12);
    for (const c of connections) expect(c.fields!.map((f) => f.name).sort(), c.name).toEqual(['edges', 'pageInfo']);

    const fields = types.flatMap((x) => (x.kind === 'OBJECT' ? x.fields!.map((f) => ({ ...f, on: x.name })) : []));
    const paged = fields.filter((f) => typeName(f).endsWith('Connection'));
    for (const f of paged) {
      const args = f.args.map((a) => a.name);
      expect(args, `${f.on}.${f.name}`).toEqual(expect.arrayContaining(['first', 'after']));
      expect(args, `${f.on}.${f.name}`).not.toContain('last');
      expect(args, `${f.on}.${f.name}`).not.toContain('before');
    }
    // The lists of rows are all connections; the lists left are values of one object, or as long as
    // the ids the asker names (conversationReadMarks: at most 200), or one a variant (surveyResults and its live
    // SurveyResultsEvent: at most 5), or bounded by the service (a move's runs that stay: at most 50 pairs).
    const lists = fields
      .filter((f) => f.type.kind === 'LIST' || (f.type.kind === 'NON_NULL' && f.type.ofType?.name === null))
      .map((f) => `${f.on}.${f.name}`);
    expect(lists.filter((f) => !/Connection\.edges$/.test(f)).sort()).toEqual([
      'AppLinkSet.appVersions',
      'AppLinkSet.links',
      'AppMode.languages',
      'AppMode.webOrigins',
      'BotOpening.buttons',
      'BotStep.buttons',
      'Contact.attributes',
      'ContactPreferences.topics',
      'ConversationPart.pictures',
      'ConversationPresence.viewers',
      'EmailStatistics.skipped',
      'EventDefinition.dailyCounts',
      'EventDefinition.props',
      'HelpArticle.stats',
      'HelpCollection.texts',
      'InAppCountsEvent.counts',
      'InAppMessage.screens',
      'InAppMessage.variants',
      'InAppSendingWindow.days',
      'InAppStats.days',
      'InAppStats.variants',
      'InAppStatsEvent.counts',
      'InAppVariant.unknownWords',
      'InboundEmail.to',
      'MessengerSettings.cards',
      'MessengerSettings.faces',
      'OutgoingMail.headers',
      'OutgoingMail.to',
      'PersonRun.steps',
      'PreferenceTopic.channels',
      'Query.conversationReadMarks',
      'Query.surveyResults',
      'Query.webhookTopics',
      'Subscription.workflowStatisticsChanged',
      'SurveyQuestionResults.distribution',
      'SurveyResultsEvent.results',
      'SurveyVariantResults.questions',
      'TicketType.states',
      'TopicPreference.channels',
      'WebhookEndpoint.topics',
      'Workflow.statistics',
      'WorkflowRunsMove.stayingAt',
      'WorkflowStepStatistics.outcomes',
    ]);
  });
});

describe('a plain list', () => {
  it('pages with first and after, each edge’s cursor resuming just after it, and a row removed meanwhile changes nothing else', async () => {
    const added = [];
    for (let i = 0; i < 4; i++) added.push(await memberOf(t, app.workspaceId, 'agent'));
    const members =
      'query($w: ID!, $n: Int, $a: String) { members(workspaceId: $w, first: $n, after: $a) { edges { node { staffUser { email } } cursor } pageInfo { hasNextPage endCursor } } }';
    const emails: string[] = [];
    let after: string | null = null;
    let more = true;
    while (more) {
      const page: any = (await ok(members, { w: app.workspaceId, n: 2, a: after })).members;
      expect(page.edges.length).toBeLessThanOrEqual(2);
      emails.push(...page.edges.map((e: any) => e.node.staffUser.email));
      ({ hasNextPage: more, endCursor: after } = page.pageInfo);
    }
    expect(emails).toEqual([app.ownerEmail, ...added.map((m) => m.email)]);

    const first: any = (await ok(members, { w: app.workspaceId, n: 2 })).members;
    const rest = async () =>
      (await ok(members, { w: app.workspaceId, a: first.edges[0].cursor })).members.edges.map((e: any) => e.node.staffUser.email);
    expect(await rest()).toEqual(emails.slice(1));
    // A new member joins at the end; removing another member leaves the rest as they were.
    const late = await memberOf(t, app.workspaceId, 'agent');
    await t.svc.db.membership.deleteMany({ where: { workspaceId: app.workspaceId, staffUser: { email: emails[2] } } });
    expect(await rest()).toEqual([emails[1], ...emails.slice(3), late.email]);
  });

  it(`reads ${DEFAULT_PAGE} rows when first is left out, and refuses first outside 1 to ${MAX_PAGE} and a made-up cursor on every kind of list`, async () => {
    const pages = [
      'query($n: Int, $a: String) { workspaces(first: $n, after: $a) { edges { cursor } } }',
      `query($n: Int, $a: String) { members(workspaceId: "${app.workspaceId}", first: $n, after: $a) { edges { cursor } } }`,
      `query($n: Int, $a: String) { workspace(id: "${app.workspaceId}") { apps(first: $n, after: $a) { edges { cursor } } } }`,
      `query($n: Int, $a: String) { workspace(id: "${app.workspaceId}") { members(first: $n, after: $a) { edges { cursor } } } }`,
      `query($n: Int, $a: String) { contacts(appModeId: "${app.modes.live}", first: $n, after: $a) { edges { cursor } } }`,
      `query($n: Int, $a: String) { refusedEvents(appModeId: "${app.modes.live}", first: $n, after: $a) { edges { cursor } } }`,
    ];
    for (const query of pages) {
      await ok(query, { n: MAX_PAGE });
      await ok(query, {});
      for (const n of [0, -1, MAX_PAGE + 1])
        expect(await refused(query, { n }), `${query} ${n}`).toMatchObject({
          code: 'invalid_request',
          status: 400,
          errors: [{ field: 'first' }],
        });
      for (const a of ['not-a-cursor', Buffer.from('["x"]').toString('base64url')]) {
        expect(await refused(query, { a }), `${query} ${a}`).toMatchObject({
          code: 'invalid_request',
          status: 400,
          errors: [{ field: 'after' }],
        });
      }
    }
    const invitations = 'query($w: ID!, $n: Int) { invitations(workspaceId: $w, first: $n) { edges { cursor } pageInfo { hasNextPage } } }';
    await Promise.all(
      Array.from({ length: DEFAULT_PAGE + 1 }, (_, i) =>
        ok('mutation($w: ID!, $e: String!) { inviteMember(workspaceId: $w, email: $e, role: agent) { id } }', {
          w: app.workspaceId,
          e: `page-${i}@example.com`,
        }),
      ),
    );
    const page = (await ok(invitations, { w: app.workspaceId })).invitations;
    expect(page.edges).toHaveLength(DEFAULT_PAGE);
    expect(page.pageInfo.hasNextPage).toBe(true);
  });

  it('counts the page sizes of nested lists in the cost', async () => {
    const nested = (n: number) =>
      `{ workspaces(first: ${n}) { edges { node { members(first: ${n}) { edges { node { staffUser { memberships(first: ${n}) { edges { node { role } } } } } } } } } } }`;
    await ok(nested(20));
    expect(await refused(nested(200))).toMatchObject({ code: 'query_too_complex', status: 400 });
    // A negative page, refused anyway, takes nothing off a costly sibling.
    expect(
      await refused(`{ cheap: workspaces(first: -1000000) { edges { node { id } } } costly: ${nested(200).slice(1, -1)} }`),
    ).toMatchObject({ code: 'query_too_complex' });
  });
});

describe('planned reads', () => {
  // Each Prisma field below selects a relation: a query with nothing in it cannot go unused.
  it('warns of a Prisma query left unused outside production, and no field leaves one', async () => {
    expect(builder.options.prisma.onUnusedQuery).toBe(process.env.NODE_ENV === 'production' ? null : 'warn');
    const warn = vi.spyOn(console, 'warn');
    await ok(
      `query($w: ID!, $a: ID!, $m: ID!) {
        viewer { id memberships(first: 3) { edges { node { role workspace { id } } } } invitations(first: 3) { edges { node { id workspace { name } } } } }
        workspaces(first: 3) { edges { node { id apps(first: 3) { edges { node { id live { id serverKeys(first: 3) { edges { node { hint } } } } test { id app { name } } } } }
          members(first: 3) { edges { node { role staffUser { email memberships(first: 3) { edges { node { role } } } } } } } } } }
        workspace(id: $w) { id apps(first: 3) { edges { node { name } } } }
        members(workspaceId: $w, first: 3) { edges { node { role staffUser { email } } } }
        invitations(workspaceId: $w, first: 3) { edges { node { id email } } }
        app(id: $a) { id workspace { name } }
        contacts(appModeId: $m, first: 3) { edges { node { externalId consentHistory(first: 3) { edges { node { channel } } } events(first: 3) { edges { node { id } } } } } }
        attributeDefinitions(appModeId: $m, first: 3) { edges { node { name } } }
        eventDefinitions(appModeId: $m, first: 3) { edges { node { name dailyCounts(days: 3) { count } } } }
        eraseRequests(appId: $a, first: 3) { edges { node { id } } }
        refusedEvents(appModeId: $m, first: 3) { edges { node { reason } } }
      }`,
      { w: app.workspaceId, a: app.appId, m: app.modes.live },
    );
    await ok(
      `mutation($m: ID!, $w: ID!) {
        defineAttribute(appModeId: $m, name: "plan", type: string) { name }
        reviewAttributeDefinition(appModeId: $m, name: "plan") { needsReview }
        inviteMember(workspaceId: $w, email: "planned@example.com", role: agent) { workspace { name } }
        createApp(workspaceId: $w, name: "Planned") { app { workspace { name } live { serverKeys(first: 3) { edges { node { hint } } } } } }
      }`,
      { m: app.modes.live, w: app.workspaceId },
    );
    expect(warn.mock.calls.filter(([message]) => /Prisma query was unused/.test(String(message)))).toEqual([]);
    warn.mockRestore();
  });
});
