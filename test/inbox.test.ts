import { createClient, type Client } from 'graphql-ws';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { notBackground, queriesDuring } from './support/db.js';
import { memberOf, staffApp, unique, type StaffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { guestOf } from './support/messenger.js';
import { ENGINES, sayIfTemporalSkipped, startTestServer, testConfig, type TestServer } from './support/server.js';

// The staff inbox on GraphQL, black-box: replies, notes, close, snooze (woken by its durable
// timer), assignment to members and teams, the list by state, assignee and team with its
// statement count, and the changes live over graphql-ws.

let t: TestServer;
let app: StaffApp;
let workspaceId: string;
const clients: Client[] = [];
// A long poll with nothing new answers after a moment, not 25 seconds.
const config = () => testConfig({ conversationWaitMs: 300 });
beforeAll(async () => {
  t = await startTestServer({ config: config() });
  app = await staffApp(t);
  workspaceId = app.workspaceId;
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await t?.close();
});

const { ok, refused } = staffApi(
  () => t.url,
  () => app.owner,
);
const person = (sub = unique('user')) => guestOf(t, app.live, sub);

/** A conversation a new person started; its id. */
async function started(text = 'Hello, my order is late'): Promise<{ id: string; guest: ReturnType<typeof person> }> {
  const guest = person();
  const r = await guest.start({ text });
  expect(r.status).toBe(201);
  return { id: r.json.id, guest };
}

const PARTS = 'parts { edges { node { seq kind internal text event author { kind name } } } }';
const conversation = async (id: string) =>
  (await ok(`query($id: ID!) { conversation(id: $id) { id state snoozedUntil assignee { id } team { id name } ${PARTS} } }`, { id }))
    .conversation;
const kinds = (c: { parts: { edges: { node: { kind: string; event: string | null } }[] } }) =>
  c.parts.edges.map((e) => e.node.event ?? e.node.kind);

describe('replying', () => {
  it('reaches the person as the replier; a reply to a closed conversation opens it again with a line by the replier', async () => {
    const { id, guest } = await started();
    const reply = await ok(
      'mutation($id: ID!, $text: String!) { replyToConversation(id: $id, text: $text) { seq kind author { kind name } } }',
      { id, text: 'Let me look' },
    );
    expect(reply.replyToConversation).toMatchObject({ seq: 2, kind: 'message', author: { kind: 'staff' } });
    const seen = await guest.get(id);
    expect(seen.json.parts.map((p: { text?: string; blocks: unknown[] }) => p.blocks)).toHaveLength(2);
    expect(seen.json.unread).toBe(1);

    const closed = await ok('mutation($id: ID!) { closeConversation(id: $id, askRating: true) { state } }', { id });
    expect(closed.closeConversation.state).toBe('closed');
    await ok('mutation($id: ID!, $text: String!) { replyToConversation(id: $id, text: $text) { seq } }', { id, text: 'One more thing' });
    const after = await conversation(id);
    expect(after.state).toBe('open');
    expect(kinds(after)).toEqual(['message', 'message', 'closed', 'reopened', 'message']);
    const owner = await t.svc.db.staffUser.findUniqueOrThrow({ where: { email: app.ownerEmail } });
    expect(after.parts.edges[3].node).toMatchObject({
      text: `${owner.name} reopened the conversation`,
      author: { kind: 'staff', name: owner.name },
      internal: false,
    });
    // conversation.replied for each reply, with the ids a webhook carries.
    const rows = await t.svc.db.outboxEvent.findMany({ where: { topic: 'conversation.replied', externalId: guest.sub } });
    expect(rows).toHaveLength(2);
  });

  it('keeps internal notes from the person', async () => {
    const { id, guest } = await started();
    await ok('mutation($id: ID!, $text: String!) { addConversationNote(id: $id, text: $text) { internal } }', { id, text: 'VIP customer' });
    expect(kinds(await conversation(id))).toEqual(['message', 'note']);
    const seen = await guest.get(id);
    expect(JSON.stringify(seen.json)).not.toContain('VIP customer');
    expect((await guest.wait(id, 1)).json.parts).toEqual([]);
  });

  it('reads the latest parts first, each next page older, without a gap or a repeat (what a long conversation opens at)', async () => {
    const { id } = await started('one');
    for (const text of ['two', 'three', 'four', 'five'])
      await ok('mutation($id: ID!, $text: String!) { addConversationNote(id: $id, text: $text) { seq } }', { id, text });
    const page = async (after: string | null) =>
      (
        await ok(
          'query($id: ID!, $a: String) { conversation(id: $id) { latestParts(first: 2, after: $a) { edges { node { seq text } } pageInfo { hasNextPage endCursor } } } }',
          { id, a: after },
        )
      ).conversation.latestParts;
    const seen: string[] = [];
    let after: string | null = null;
    for (let more = true; more;) {
      const p = await page(after);
      seen.push(...p.edges.map((e: { node: { text: string } }) => e.node.text));
      ({ hasNextPage: more, endCursor: after } = p.pageInfo);
    }
    expect(seen).toEqual(['five', 'four', 'three', 'two', 'one']);
  });

  it('refuses a blank or huge reply naming text, and adds nothing', async () => {
    const { id } = await started();
    for (const text of ['   ', 'x'.repeat(10_001)]) {
      const r = await refused('mutation($id: ID!, $text: String!) { replyToConversation(id: $id, text: $text) { seq } }', { id, text });
      expect(r).toMatchObject({ code: 'invalid_request', errors: [{ field: 'text' }] });
    }
    expect(kinds(await conversation(id))).toEqual(['message']);
  });

  it('answers another workspace’s conversation as not found, and lets an agent reply but not manage teams', async () => {
    const { id } = await started();
    const stranger = await staffApp(t, 'Another app');
    const r = await refused('mutation($id: ID!) { replyToConversation(id: $id, text: "hi") { seq } }', { id }, stranger.owner);
    expect(r.code).toBe('not_found');
    expect((await refused('query($id: ID!) { conversation(id: $id) { id } }', { id }, stranger.owner)).code).toBe('not_found');
    const agent = await memberOf(t, workspaceId, 'agent');
    await ok('mutation($id: ID!) { replyToConversation(id: $id, text: "hi") { seq } }', { id }, agent.token);
    expect(
      (await refused('mutation($w: ID!) { createTeam(workspaceId: $w, name: "Nope") { id } }', { w: workspaceId }, agent.token)).code,
    ).toBe('role_forbids');
  });
});

describe('read marks', () => {
  const MARKS = 'query($ids: [ID!]!) { conversationReadMarks(ids: $ids) { conversationId readSeq } }';
  const MARK = 'mutation($id: ID!, $seq: Int!) { markConversationRead(id: $id, seq: $seq) }';

  it('keeps each member’s own mark: forward only, never past the last part, unseen by others and by strangers', async () => {
    const { id } = await started();
    await ok('mutation($id: ID!) { addConversationNote(id: $id, text: "checking") { seq } }', { id });
    const agent = await memberOf(t, workspaceId, 'agent');
    // Writing the note marked the owner's read to it; the agent has never read it: no mark.
    expect((await ok(MARKS, { ids: [id] })).conversationReadMarks).toEqual([{ conversationId: id, readSeq: 2 }]);
    expect((await ok(MARKS, { ids: [id] }, agent.token)).conversationReadMarks).toEqual([]);
    const mark = async (seq: number) => (await ok(MARK, { id, seq }, agent.token)).markConversationRead;
    expect([await mark(1), await mark(0), await mark(99)]).toEqual([1, 1, 2]);
    expect((await ok(MARKS, { ids: [id] }, agent.token)).conversationReadMarks).toEqual([{ conversationId: id, readSeq: 2 }]);
    // A stranger can neither mark it nor learn of it.
    const stranger = await staffApp(t, 'Marks elsewhere');
    expect((await refused(MARK, { id, seq: 1 }, stranger.owner)).code).toBe('not_found');
    expect((await ok(MARKS, { ids: [id] }, stranger.owner)).conversationReadMarks).toEqual([]);
    // Bad input names its field.
    expect(await refused(MARK, { id, seq: -1 })).toMatchObject({ code: 'invalid_request', errors: [{ field: 'seq' }] });
    const many = Array.from({ length: 201 }, (_, i) => `c${i}`);
    expect(await refused(MARKS, { ids: many })).toMatchObject({ code: 'invalid_request', errors: [{ field: 'ids' }] });
  });
});

// The snooze's wake is a durable process: these run on both engines, the Temporal half on a server of its own.
sayIfTemporalSkipped('test/inbox.test.ts (snoozing)');
describe.each(ENGINES)('snoozing, on the $engine engine', ({ engine, skip }) => {
  describe.skipIf(skip)('', () => {
    let shared: { t: TestServer; app: StaffApp };
    beforeAll(async () => {
      if (engine === 'embedded') return;
      shared = { t, app };
      t = await startTestServer({ engine, config: config() });
      app = await staffApp(t);
    });
    afterAll(async () => {
      if (engine === 'embedded') return;
      await t.close();
      ({ t, app } = shared);
    });

    // The clock moves on here; each test puts it back, so the people's tokens of later tests still work.
    let startedAt: Date;
    beforeEach(() => void (startedAt = t.clock.now()));
    afterEach(() => t.clock.set(startedAt));

    it('puts a conversation aside until its time, when its durable timer wakes it with a line for the team', async () => {
      const { id } = await started();
      const until = new Date(t.clock.now().getTime() + 3_600_000).toISOString();
      const snoozed = await ok(
        'mutation($id: ID!, $until: DateTime!) { snoozeConversation(id: $id, until: $until) { state snoozedUntil } }',
        { id, until },
      );
      expect(snoozed.snoozeConversation).toEqual({ state: 'snoozed', snoozedUntil: until });
      await t.engine.runDue();
      expect((await conversation(id)).state).toBe('snoozed');
      t.clock.advance(3_600_001);
      await t.engine.runDue();
      const woken = await conversation(id);
      expect(woken).toMatchObject({ state: 'open', snoozedUntil: null });
      expect(kinds(woken)).toEqual(['message', 'snoozed', 'woke']);
    });

    it('wakes at once on a reply; the timer then finds it awake and does nothing', async () => {
      const { id } = await started();
      const until = new Date(t.clock.now().getTime() + 60_000).toISOString();
      await ok('mutation($id: ID!, $until: DateTime!) { snoozeConversation(id: $id, until: $until) { state } }', { id, until });
      await ok('mutation($id: ID!) { replyToConversation(id: $id, text: "Back to you") { seq } }', { id });
      expect((await conversation(id)).state).toBe('open');
      t.clock.advance(60_001);
      await t.engine.runDue();
      expect(kinds(await conversation(id))).toEqual(['message', 'snoozed', 'message']);
    });

    it('refuses a time gone by, naming until', async () => {
      const { id } = await started();
      const r = await refused('mutation($id: ID!, $until: DateTime!) { snoozeConversation(id: $id, until: $until) { state } }', {
        id,
        until: new Date(t.clock.now().getTime() - 1000).toISOString(),
      });
      expect(r).toMatchObject({ code: 'invalid_request', errors: [{ field: 'until' }] });
    });
  });
});

describe('assigning and the inbox list', () => {
  it('assigns to members and teams of the workspace only, and lists by state, assignee and team, the latest activity first', async () => {
    const own = await staffApp(t, 'Inbox app');
    const guest = (sub = unique('user')) => guestOf(t, own.live, sub);
    const ids: string[] = [];
    // The test's clock stands still unless moved: a second between changes orders them.
    const tick = () => t.clock.advance(1000);
    for (const text of ['first', 'second', 'third']) {
      tick();
      ids.push((await guest().start({ text })).json.id);
    }
    const ownWorkspace = (await t.svc.db.app.findUniqueOrThrow({ where: { id: own.appId } })).workspaceId;
    const ownerId = (await t.svc.db.staffUser.findUniqueOrThrow({ where: { email: own.ownerEmail } })).id;
    const as = (q: string, v: Record<string, unknown>) => ok(q, v, own.owner);
    const team = (
      await as(
        'mutation($w: ID!, $m: [ID!]) { createTeam(workspaceId: $w, name: "Billing", memberIds: $m) { id members { edges { node { staffUser { id } } } } } }',
        { w: ownWorkspace, m: [ownerId] },
      )
    ).createTeam;
    expect(team.members.edges).toEqual([{ node: { staffUser: { id: ownerId } } }]);

    tick();
    await as('mutation($id: ID!, $a: ID) { assignConversation(id: $id, assigneeId: $a) { id } }', { id: ids[0], a: ownerId });
    tick();
    await as('mutation($id: ID!, $team: ID) { assignConversation(id: $id, teamId: $team) { id } }', { id: ids[1], team: team.id });
    tick();
    await as('mutation($id: ID!) { closeConversation(id: $id) { id } }', { id: ids[2] });
    // A stranger to the workspace, and another workspace's team, are refused by name.
    const stranger = (await t.svc.db.staffUser.findUniqueOrThrow({ where: { email: app.ownerEmail } })).id;
    expect(
      await refused(
        'mutation($id: ID!, $a: ID) { assignConversation(id: $id, assigneeId: $a) { id } }',
        { id: ids[0], a: stranger },
        own.owner,
      ),
    ).toMatchObject({
      code: 'invalid_request',
      errors: [{ field: 'assigneeId' }],
    });

    const list = async (args: string) =>
      (
        await as(`query($m: ID!) { conversations(appModeId: $m${args}) { edges { node { id } } } }`, { m: own.modes.live })
      ).conversations.edges.map((e: { node: { id: string } }) => e.node.id);
    // Every change moved its conversation up: closed last, then assigned to the team, then to the owner.
    expect(await list('')).toEqual([ids[2], ids[1], ids[0]]);
    expect(await list(', state: open')).toEqual([ids[1], ids[0]]);
    expect(await list(', state: closed')).toEqual([ids[2]]);
    expect(await list(`, assigneeId: "${ownerId}"`)).toEqual([ids[0]]);
    expect(await list(`, teamId: "${team.id}"`)).toEqual([ids[1]]);
    expect(await list(', unassigned: true, state: open')).toEqual([ids[1]]);
    // The assignment is a line for the team, never shown to the person.
    const assigned = (await as(`query($id: ID!) { conversation(id: $id) { assignee { id } ${PARTS} } }`, { id: ids[0] })).conversation;
    expect(assigned.assignee).toEqual({ id: ownerId });
    expect(assigned.parts.edges[1].node).toMatchObject({ event: 'assigned', internal: true });
  });

  it('keeps teams to members of the workspace: a stranger is refused by name, and a member who leaves leaves its teams', async () => {
    const agent = await memberOf(t, workspaceId, 'agent');
    const agentId = (await t.svc.db.staffUser.findUniqueOrThrow({ where: { email: agent.email } })).id;
    const team = (
      await ok(
        'mutation($w: ID!, $m: [ID!]) { createTeam(workspaceId: $w, name: "Returns", memberIds: $m) { id members { edges { node { staffUser { id } } } } } }',
        { w: workspaceId, m: [agentId] },
      )
    ).createTeam;
    expect(team.members.edges).toEqual([{ node: { staffUser: { id: agentId } } }]);
    const stranger = await staffApp(t, 'Stranger app');
    const strangerId = (await t.svc.db.staffUser.findUniqueOrThrow({ where: { email: stranger.ownerEmail } })).id;
    expect(
      await refused('mutation($w: ID!, $team: ID!, $add: [ID!]) { changeTeamMembers(workspaceId: $w, teamId: $team, add: $add) { id } }', {
        w: workspaceId,
        team: team.id,
        add: [strangerId],
      }),
    ).toMatchObject({
      code: 'invalid_request',
      errors: [{ field: 'add.0' }],
    });
    expect((await refused('mutation($w: ID!) { createTeam(workspaceId: $w, name: "Returns") { id } }', { w: workspaceId })).code).toBe(
      'team_name_taken',
    );
    await ok('mutation($w: ID!, $u: ID!) { removeMember(workspaceId: $w, staffUserId: $u) }', { w: workspaceId, u: agentId });
    const teams = (
      await ok('query($w: ID!) { teams(workspaceId: $w) { edges { node { id members { edges { node { addedAt } } } } } } }', {
        w: workspaceId,
      })
    ).teams;
    expect(teams.edges.find((e: { node: { id: string } }) => e.node.id === team.id).node.members.edges).toEqual([]);
  });

  it('reads a page of 50 conversations with their last part, contact, assignee and team in a handful of statements', async () => {
    const own = await staffApp(t, 'Busy app');
    const ownerId = (await t.svc.db.staffUser.findUniqueOrThrow({ where: { email: own.ownerEmail } })).id;
    const ownWorkspace = (await t.svc.db.app.findUniqueOrThrow({ where: { id: own.appId } })).workspaceId;
    const team = (await ok('mutation($w: ID!) { createTeam(workspaceId: $w, name: "Support") { id } }', { w: ownWorkspace }, own.owner))
      .createTeam;
    for (let i = 0; i < 50; i += 10)
      await Promise.all(
        Array.from({ length: 10 }, async (_, j) => {
          const { json } = await guestOf(t, own.live, unique('busy')).start({ text: `Question ${i + j}` });
          if ((i + j) % 2)
            await ok(
              'mutation($id: ID!, $a: ID, $team: ID) { assignConversation(id: $id, assigneeId: $a, teamId: $team) { id } }',
              { id: json.id, a: ownerId, team: team.id },
              own.owner,
            );
        }),
      );
    const query = `query($m: ID!, $first: Int) { conversations(appModeId: $m, first: $first) { edges { node { id state preview lastActivityAt
      lastPart { seq kind text author { name } } contact { externalId displayName email } assignee { id name } team { id name } } } pageInfo { hasNextPage } } }`;
    let page: any;
    // The request's statements, once the outbox's consumers have caught up (their passes and the engine's polls are not counted).
    const statementsFor = (first: number) =>
      t.svc.outbox
        .drain()
        .then(() => queriesDuring(async () => void (page = await ok(query, { m: own.modes.live, first }, own.owner)), notBackground));
    // The fewest of five: the process's own background passes (sweeps, the engine's claims) may run
    // beside some of them on a busy machine (three were once not enough).
    const fewest = async (first: number) => {
      const counts: number[] = [];
      for (let i = 0; i < 5; i++) counts.push(await statementsFor(first));
      return Math.min(...counts);
    };
    const forFive = await fewest(5);
    const forFifty = await fewest(50);
    expect(page.conversations.edges).toHaveLength(50);
    expect(page.conversations.edges.filter((e: any) => e.node.assignee?.id === ownerId && e.node.team?.id === team.id)).toHaveLength(25);
    expect(page.conversations.edges.every((e: any) => e.node.lastPart && e.node.contact.externalId)).toBe(true);
    // No statement per conversation: the session and the access (read once per request), then the
    // page, its last parts, its contacts, its assignees and its teams, one statement each.
    expect(forFifty).toBe(forFive);
    expect(forFifty).toBeLessThanOrEqual(14);
  });
});

describe('live', () => {
  it('shows a graphql-ws subscriber the person’s message and the team’s note as they commit, in order', async () => {
    const { id, guest } = await started('First words');
    const client = createClient({
      url: `${t.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${app.owner}` },
      retryAttempts: 0,
    });
    clients.push(client);
    const seen: {
      reload: boolean;
      part: { kind: string; text: string; internal: boolean } | null;
      conversation: { id: string; state: string } | null;
    }[] = [];
    const stop = client.subscribe<any>(
      {
        query:
          'subscription($m: ID!) { inboxChanged(appModeId: $m) { version reload conversation { id state lastSeq } part { kind text internal } } }',
        variables: { m: app.modes.live },
      },
      { next: ({ data }) => data && seen.push(data.inboxChanged), error: () => {}, complete: () => {} },
    );
    await expect.poll(() => seen.length).toBe(1);
    expect(seen[0]!.reload).toBe(true);
    expect((await guest.message(id, { text: 'Are you there?' })).status).toBe(201);
    await ok('mutation($id: ID!) { addConversationNote(id: $id, text: "Checking the order") { seq } }', { id });
    await expect.poll(() => seen.filter((s) => s.conversation?.id === id).length).toBe(2);
    const mine = seen.filter((s) => s.conversation?.id === id);
    expect(mine.map((s) => s.part)).toEqual([
      { kind: 'message', text: 'Are you there?', internal: false },
      { kind: 'note', text: 'Checking the order', internal: true },
    ]);
    expect(mine[1]!.conversation).toMatchObject({ state: 'open', lastSeq: 3 });
    stop();
  });
});
