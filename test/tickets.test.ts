import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memberOf, staffApp, unique, type StaffApp } from './support/factories.js';
import { guestOf } from './support/messenger.js';
import { startTestServer, testConfig, type TestServer } from './support/server.js';
import { startedBy, STATES, ticketCalls, ticketsOf } from './support/tickets.js';

// Tickets, black-box: ticket types and their states on the staff API, a ticket made from a
// conversation or with one of its own, moved with a line the person sees, and the person's side
// (list, one ticket with where it has got to, writing in its conversation) over real HTTP; what
// nobody else may see or reach.

let t: TestServer;
let app: StaffApp;
let workspaceId: string;
beforeAll(async () => {
  // A long poll with nothing new answers after a few seconds, not 25: long enough for the move it
  // waits for to land on a busy machine (at 300 ms it answered empty before the move under load).
  t = await startTestServer({ config: testConfig({ conversationWaitMs: 5_000 }) });
  app = await staffApp(t);
  workspaceId = app.workspaceId;
});
afterAll(() => t?.close());

const { ok, refused, gql, addType, fromConversation, move } = ticketsOf(
  () => t,
  () => app,
);
const person = (sub = unique('user')) => guestOf(t, app.live, sub);
const TYPE = 'id name description archived states { key label final }';

describe('ticket types', () => {
  it('are added with their states in order, changed, listed by name and archived', async () => {
    const own = await staffApp(t, 'Types app');
    const as = (q: string, v: Record<string, unknown>) => ok(q, v, own.owner);
    const added = (
      await as(
        `mutation($m: ID!, $s: [TicketStateInput!]!) { addTicketType(appModeId: $m, name: " Refund ", description: "Money back", states: $s) { ${TYPE} } }`,
        { m: own.modes.live, s: STATES },
      )
    ).addTicketType;
    expect(added).toMatchObject({ name: 'Refund', description: 'Money back', archived: false, states: STATES });
    await as('mutation($m: ID!, $s: [TicketStateInput!]!) { addTicketType(appModeId: $m, name: "Bug", states: $s) { id } }', {
      m: own.modes.live,
      s: STATES.slice(0, 2),
    });

    // Labels and order change freely; a state nobody is in can go.
    const reordered = [STATES[0], { key: 'in_progress', label: 'Being looked at', final: false }, STATES[3]];
    const changed = (
      await as(`mutation($id: ID!, $s: [TicketStateInput!]) { changeTicketType(id: $id, name: "Refunds", states: $s) { ${TYPE} } }`, {
        id: added.id,
        s: reordered,
      })
    ).changeTicketType;
    expect(changed).toMatchObject({ name: 'Refunds', description: 'Money back', states: reordered });

    const list = async (args = '') =>
      (
        await as(`query($m: ID!) { ticketTypes(appModeId: $m${args}) { edges { node { name archived } } } }`, { m: own.modes.live })
      ).ticketTypes.edges.map((e: any) => e.node.name);
    expect(await list()).toEqual(['Bug', 'Refunds']);
    expect((await as('mutation($id: ID!) { archiveTicketType(id: $id) { archived } }', { id: added.id })).archiveTicketType.archived).toBe(
      true,
    );
    expect(await list()).toEqual(['Bug']);
    expect(await list(', includeArchived: true')).toEqual(['Bug', 'Refunds']);
    // The test mode has its own types.
    expect(
      (await as('query($m: ID!) { ticketTypes(appModeId: $m) { edges { node { id } } } }', { m: own.modes.test })).ticketTypes.edges,
    ).toEqual([]);
  });

  it('refuses an empty or repeated list of states, naming the field, and a name taken', async () => {
    const add = (name: string, states: unknown) =>
      refused('mutation($m: ID!, $n: String!, $s: [TicketStateInput!]!) { addTicketType(appModeId: $m, name: $n, states: $s) { id } }', {
        m: app.modes.live,
        n: name,
        s: states,
      });
    expect(await add('Empty', [])).toMatchObject({ code: 'invalid_request', errors: [{ field: 'states' }] });
    expect(await add('Twice', [STATES[0], STATES[1], { ...STATES[2], key: 'submitted' }])).toMatchObject({
      code: 'invalid_request',
      errors: [{ field: 'states.2.key' }],
    });
    expect(await add('Same label', [STATES[0], { ...STATES[1], label: 'submitted' }])).toMatchObject({
      errors: [{ field: 'states.1.label' }],
    });
    expect(await add('Bad key', [{ key: 'In Progress', label: 'In progress', final: false }])).toMatchObject({
      errors: [{ field: 'states.0.key' }],
    });
    expect(await add(' ', STATES)).toMatchObject({ errors: [{ field: 'name' }] });
    const name = unique('Taken');
    await addType(name);
    expect(await add(name.toUpperCase(), STATES)).toMatchObject({ code: 'ticket_type_name_taken' });
    const type = await addType();
    const change = await refused('mutation($id: ID!) { changeTicketType(id: $id, states: []) { id } }', { id: type });
    expect(change).toMatchObject({ code: 'invalid_request', errors: [{ field: 'states' }] });
  });

  it('keeps a state that tickets are in, and an archived type takes no new ticket', async () => {
    const type = await addType();
    const ticket = await fromConversation(await startedBy(person()), type);
    const without = STATES.filter((s) => s.key !== 'submitted');
    expect(
      await refused('mutation($id: ID!, $s: [TicketStateInput!]) { changeTicketType(id: $id, states: $s) { id } }', {
        id: type,
        s: without,
      }),
    ).toMatchObject({ code: 'ticket_state_in_use' });
    await move(ticket.id, 'in_progress');
    await ok('mutation($id: ID!, $s: [TicketStateInput!]) { changeTicketType(id: $id, states: $s) { id } }', { id: type, s: without });

    await ok('mutation($id: ID!) { archiveTicketType(id: $id) { archived } }', { id: type });
    const c = await startedBy(person());
    const r = await refused(
      'mutation($c: ID!, $t: ID!) { createTicketFromConversation(conversationId: $c, typeId: $t, title: "x") { id } }',
      { c, t: type },
    );
    expect(r).toMatchObject({ code: 'invalid_request', errors: [{ field: 'typeId' }] });
    // Its tickets still move.
    expect((await move(ticket.id, 'resolved')).state).toBe('resolved');
  });

  it('are managed by owners and admins; an agent reads them and works tickets; another workspace finds none', async () => {
    const type = await addType();
    const agent = await memberOf(t, workspaceId, 'agent');
    expect(
      await refused(
        'mutation($m: ID!, $s: [TicketStateInput!]!) { addTicketType(appModeId: $m, name: "Agent’s", states: $s) { id } }',
        { m: app.modes.live, s: STATES },
        agent.token,
      ),
    ).toMatchObject({ code: 'role_forbids' });
    expect(await refused('mutation($id: ID!) { archiveTicketType(id: $id) { id } }', { id: type }, agent.token)).toMatchObject({
      code: 'role_forbids',
    });
    expect(
      (await ok('query($m: ID!) { ticketTypes(appModeId: $m) { edges { node { id } } } }', { m: app.modes.live }, agent.token)).ticketTypes
        .edges.length,
    ).toBeGreaterThan(0);
    const ticket = await fromConversation(await startedBy(person()), type, 'By an agent', agent.token);
    expect(ticket.number).toBeGreaterThan(0);

    const stranger = await staffApp(t, 'Stranger app');
    expect(
      await refused('mutation($id: ID!) { changeTicketType(id: $id, name: "Mine") { id } }', { id: type }, stranger.owner),
    ).toMatchObject({ code: 'not_found' });
    expect(await refused('query($id: ID!) { ticket(id: $id) { id } }', { id: ticket.id }, stranger.owner)).toMatchObject({
      code: 'not_found',
    });
    expect(
      await refused('mutation($id: ID!) { moveTicket(ticketId: $id, state: "resolved") { id } }', { id: ticket.id }, stranger.owner),
    ).toMatchObject({ code: 'not_found' });
    // A type of another workspace is no type of this conversation's app.
    const strangerType = await ticketsOf(
      () => t,
      () => stranger,
    ).addType();
    const c = await startedBy(person());
    expect(
      await refused('mutation($c: ID!, $t: ID!) { createTicketFromConversation(conversationId: $c, typeId: $t, title: "x") { id } }', {
        c,
        t: strangerType,
      }),
    ).toMatchObject({ errors: [{ field: 'typeId' }] });
    expect(await t.svc.db.ticket.count({ where: { conversationId: c } })).toBe(0);
  });
});

describe('a ticket from a conversation', () => {
  it('starts in the first state with a short number, and a line the person sees', async () => {
    const own = await staffApp(t, 'Numbers app');
    const g = guestOf(t, own.live, unique('user'));
    const type = await ticketsOf(
      () => t,
      () => own,
    ).addType();
    const c = await startedBy(g);
    const ticket = await ticketsOf(
      () => t,
      () => own,
    ).fromConversation(c, type);
    expect(ticket).toMatchObject({
      number: 1,
      title: 'Refund for order 1234',
      description: 'The parcel never came',
      state: 'submitted',
      currentState: STATES[0],
      contact: { externalId: g.sub },
      conversation: { id: c },
      history: [{ seq: 1, from: null, to: 'submitted' }],
    });
    const seen = await g.get(c);
    expect(seen.json.parts.map((p: any) => p.event ?? p.kind)).toEqual(['message', 'ticket_created']);
    expect(seen.json.parts[1]).toMatchObject({
      kind: 'event',
      author: { kind: 'teammate' },
      blocks: [{ type: 'paragraph', spans: [{ text: expect.stringContaining('opened ticket #1: Refund for order 1234') }] }],
    });
    // The next ticket of the app-mode is #2; the test mode counts its own.
    expect(
      (
        await ticketsOf(
          () => t,
          () => own,
        ).fromConversation(await startedBy(g), type)
      ).number,
    ).toBe(2);
    const testType = await ticketsOf(
      () => t,
      () => own,
    ).addType('Test type', own.modes.test);
    expect(
      (
        await ticketsOf(
          () => t,
          () => own,
        ).fromConversation(await startedBy(guestOf(t, own.test, g.sub)), testType)
      ).number,
    ).toBe(1);
  });

  it('is one per conversation, also when asked 10 times at once; numbers of tickets made at once are all different', async () => {
    const type = await addType();
    const c = await startedBy(person());
    const query =
      'mutation($c: ID!, $t: ID!) { createTicketFromConversation(conversationId: $c, typeId: $t, title: "At once") { number } }';
    const answers = await Promise.all(Array.from({ length: 10 }, () => gql(query, { c, t: type }, app.owner)));
    expect(answers.filter((a) => a.data?.createTicketFromConversation)).toHaveLength(1);
    expect(answers.filter((a) => a.errors?.[0]?.extensions.code === 'conversation_has_ticket')).toHaveLength(9);
    expect(await t.svc.db.ticket.count({ where: { conversationId: c } })).toBe(1);

    const conversations = await Promise.all(Array.from({ length: 10 }, () => startedBy(person())));
    const made = await Promise.all(conversations.map((id) => fromConversation(id, type)));
    expect(new Set(made.map((m) => m.number)).size).toBe(10);
  });

  it('refuses a blank or huge title naming it, and an unknown conversation', async () => {
    const type = await addType();
    const c = await startedBy(person());
    const make = (title: string, conversationId = c) =>
      refused(
        'mutation($c: ID!, $t: ID!, $title: String!) { createTicketFromConversation(conversationId: $c, typeId: $t, title: $title) { id } }',
        { c: conversationId, t: type, title },
      );
    expect(await make('  ')).toMatchObject({ code: 'invalid_request', errors: [{ field: 'title' }] });
    expect(await make('x'.repeat(201))).toMatchObject({ errors: [{ field: 'title' }] });
    expect(await make('Fine', randomUUID())).toMatchObject({ code: 'not_found' });
  });
});

describe('a ticket with a conversation of its own', () => {
  it('is made for a contact of the type’s app-mode, whose new conversation opens with the line', async () => {
    const type = await addType();
    const g = person();
    await startedBy(g, 'Earlier');
    // The contact's id as a staff tool reads it, from the API itself.
    const { contact } = await ok('query($m: ID!, $e: String!) { contact(appModeId: $m, externalId: $e) { id externalId } }', {
      m: app.modes.live,
      e: g.sub,
    });
    expect(contact.id).toBe((await t.svc.db.contact.findFirstOrThrow({ where: { appModeId: app.modes.live, externalId: g.sub } })).id);
    t.clock.advance(1000); // the test's clock stands still unless moved
    const made = (
      await ok(
        'mutation($c: ID!, $t: ID!) { createTicket(contactId: $c, typeId: $t, title: "Replace my card") { number state conversation { id } } }',
        { c: contact.id, t: type },
      )
    ).createTicket;
    expect(made.state).toBe('submitted');
    const list = (await g.list()).json.items;
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({
      id: made.conversation.id,
      preview: expect.stringContaining(`opened ticket #${made.number}: Replace my card`),
    });

    // A contact of the test mode is not one of the live type's app-mode.
    const other = guestOf(t, app.test, unique('user'));
    await startedBy(other);
    const stranger = await t.svc.db.contact.findFirstOrThrow({ where: { appModeId: app.modes.test, externalId: other.sub } });
    expect(
      await refused('mutation($c: ID!, $t: ID!) { createTicket(contactId: $c, typeId: $t, title: "Nope") { id } }', {
        c: stranger.id,
        t: type,
      }),
    ).toMatchObject({ errors: [{ field: 'contactId' }] });
  });
});

describe('moving a ticket', () => {
  it('adds a line the person sees, wakes their long poll, and keeps the history', async () => {
    const type = await addType();
    const g = person();
    const c = await startedBy(g);
    const ticket = await fromConversation(c, type);
    const lastSeq = (await g.get(c)).json.last_seq;
    const waiting = g.wait(c, lastSeq);
    const moved = await move(ticket.id, 'in_progress');
    expect(moved).toMatchObject({
      state: 'in_progress',
      currentState: STATES[1],
      history: [
        { from: null, to: 'submitted' },
        { seq: 2, from: 'submitted', to: 'in_progress' },
      ],
    });
    const woken = await waiting;
    expect(woken.json.parts).toEqual([
      expect.objectContaining({
        kind: 'event',
        event: 'ticket_moved',
        blocks: [{ type: 'paragraph', spans: [{ text: expect.stringContaining(`moved ticket #${ticket.number} to In progress`) }] }],
      }),
    ]);
    // Back as well as on; to the state it is in, nothing changes.
    await move(ticket.id, 'submitted');
    await move(ticket.id, 'submitted');
    const parts = (await g.get(c)).json.parts.map((p: any) => p.event ?? p.kind);
    expect(parts).toEqual(['message', 'ticket_created', 'ticket_moved', 'ticket_moved']);
  });

  it('refuses a state the type does not have, naming state', async () => {
    const type = await addType();
    const ticket = await fromConversation(await startedBy(person()), type);
    expect(await refused('mutation($id: ID!) { moveTicket(ticketId: $id, state: "lost") { id } }', { id: ticket.id })).toMatchObject({
      code: 'invalid_request',
      errors: [{ field: 'state' }],
    });
  });
});

describe('the person’s tickets', () => {
  it('lists them newest first in pages, and shows one with where it has got to and its conversation', async () => {
    const type = await addType('Delivery ' + unique('t'));
    const g = person();
    const tick = () => t.clock.advance(1000);
    const made = [];
    for (const title of ['First', 'Second', 'Third']) {
      tick();
      made.push(await fromConversation(await startedBy(g, `About ${title}`), type, title));
    }
    tick();
    await move(made[0].id, 'in_progress');
    tick();
    await move(made[0].id, 'waiting_on_you');

    const tickets = ticketCalls(g);
    const first = await tickets.list('?limit=2');
    expect(first.status).toBe(200);
    expect(first.json.items.map((i: any) => i.title)).toEqual(['Third', 'Second']);
    expect(first.json.items[0]).toMatchObject({
      id: made[2].id,
      number: made[2].number,
      type: { id: type },
      state: { key: 'submitted', label: 'Submitted', final: false },
      conversation_id: made[2].conversation.id,
    });
    const next = await tickets.list(`?limit=2&before=${first.json.next_before}`);
    expect(next.json.items.map((i: any) => i.title)).toEqual(['First']);
    expect(next.json.next_before).toBeNull();

    const one = await tickets.get(made[0].id);
    expect(one.status).toBe(200);
    expect(one.json).toMatchObject({
      id: made[0].id,
      title: 'First',
      description: 'The parcel never came',
      state: { key: 'waiting_on_you', label: 'Waiting on you' },
    });
    expect(one.json.states).toEqual(STATES.map((s) => ({ ...s, current: s.key === 'waiting_on_you' })));
    expect(one.json.history.map((h: any) => [h.from, h.to, h.label])).toEqual([
      [null, 'submitted', 'Submitted'],
      ['submitted', 'in_progress', 'In progress'],
      ['in_progress', 'waiting_on_you', 'Waiting on you'],
    ]);
    expect(one.json.conversation.id).toBe(made[0].conversation.id);
    expect(one.json.conversation.parts.map((p: any) => p.event ?? p.kind)).toEqual([
      'message',
      'ticket_created',
      'ticket_moved',
      'ticket_moved',
    ]);
    // Bad pages are refused naming the parameter.
    expect((await tickets.list('?limit=0')).json.errors[0].field).toBe('limit');
    expect((await tickets.list('?before=nonsense')).json.errors[0].field).toBe('before');
  });

  it('takes a message into the ticket’s conversation, which the team sees', async () => {
    const type = await addType();
    const g = person();
    const c = await startedBy(g);
    const ticket = await fromConversation(c, type);
    const r = await ticketCalls(g).message(ticket.id, { text: 'Any news?' });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({
      kind: 'message',
      author: { kind: 'user' },
      blocks: [{ type: 'paragraph', spans: [{ text: 'Any news?' }] }],
    });
    const staffView = (
      await ok('query($id: ID!) { ticket(id: $id) { conversation { parts { edges { node { id text } } } } } }', { id: ticket.id })
    ).ticket;
    expect(staffView.conversation.parts.edges.at(-1).node).toEqual({ id: r.json.id, text: 'Any news?' });
    expect((await ticketCalls(g).message(ticket.id, { text: '  ' })).json.errors[0].field).toBe('text');
  });

  it('makes one part of 50 identical messages sent at once with one Idempotency-Key', async () => {
    const type = await addType();
    const g = person();
    const c = await startedBy(g);
    const ticket = await fromConversation(c, type);
    const key = randomUUID();
    await g.headers();
    const answers = await Promise.all(Array.from({ length: 50 }, () => ticketCalls(g).message(ticket.id, { text: 'Once only' }, key)));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(201));
    expect(new Set(answers.map((a) => a.json.id)).size).toBe(1);
    expect(await t.svc.db.conversationPart.count({ where: { conversationId: c, text: 'Once only' } })).toBe(1);
    const reused = await ticketCalls(g).message(ticket.id, { text: 'Something else' }, key);
    expect(reused.status).toBe(422);
    expect(reused.json).toMatchObject({ code: 'idempotency_key_reused', errors: [{ field: 'Idempotency-Key' }] });
  });

  it('are not found for another person, another mode, or an unknown id, and nothing is written', async () => {
    const type = await addType();
    const owner = person();
    const c = await startedBy(owner);
    const ticket = await fromConversation(c, type);
    for (const other of [person(), guestOf(t, app.test, owner.sub)]) {
      const calls = ticketCalls(other);
      expect((await calls.get(ticket.id)).status).toBe(404);
      const write = await calls.message(ticket.id, { text: 'Let me in' });
      expect(write.status).toBe(404);
      expect(write.json.code).toBe('not_found');
      expect((await calls.list()).json.items).toEqual([]);
    }
    expect((await ticketCalls(owner).get(randomUUID())).status).toBe(404);
    expect(await t.svc.db.conversationPart.count({ where: { conversationId: c } })).toBe(2);
  });

  it('every ticket route is 404 while the messenger is switched off', async () => {
    const own = await staffApp(t, 'Messenger off');
    const g = guestOf(t, own.live, unique('user'));
    const type = await ticketsOf(
      () => t,
      () => own,
    ).addType();
    const c = await startedBy(g);
    const ticket = await ticketsOf(
      () => t,
      () => own,
    ).fromConversation(c, type);
    await t.svc.db.appMode.update({ where: { id: own.modes.live }, data: { messengerOn: false } });
    // The credential cache hears of the change (a NOTIFY at commit); give it a moment.
    await new Promise((r) => setTimeout(r, 200));
    const calls = ticketCalls(g);
    const answers = [await calls.list(), await calls.get(ticket.id), await calls.message(ticket.id, { text: 'Hi' })];
    expect(answers.map((a) => a.status)).toEqual([404, 404, 404]);
    expect(answers.map((a) => a.json.code)).toEqual(['not_found', 'not_found', 'not_found']);
    expect(await t.svc.db.conversationPart.count({ where: { conversationId: c } })).toBe(2);
  });
});
