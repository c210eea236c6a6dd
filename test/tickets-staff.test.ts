import { createClient, type Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { notBackground, queriesDuring } from './support/db.js';
import { staffApp, unique, type StaffApp } from './support/factories.js';
import { guestOf } from './support/messenger.js';
import { startTestServer, type TestServer } from './support/server.js';
import { startedBy, ticketsOf } from './support/tickets.js';

// Tickets on the staff side: the list by type and state with its statement count (the same for 5
// tickets and 50), one ticket with its conversation and history, and the changes live over graphql-ws.

let t: TestServer;
let app: StaffApp;
const clients: Client[] = [];
beforeAll(async () => {
  t = await startTestServer();
  app = await staffApp(t);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await t?.close();
});

const { ok, addType, fromConversation, move } = ticketsOf(
  () => t,
  () => app,
);

describe('the staff list', () => {
  it('lists by type and state, the latest step first', async () => {
    const own = await staffApp(t, 'List app');
    const api = ticketsOf(
      () => t,
      () => own,
    );
    const [bugs, refunds] = [await api.addType('Bugs'), await api.addType('Refunds')];
    const g = guestOf(t, own.live, unique('user'));
    const made = [];
    for (const type of [bugs, refunds, bugs]) {
      t.clock.advance(1000);
      made.push(await api.fromConversation(await startedBy(g), type));
    }
    t.clock.advance(1000);
    await api.move(made[0].id, 'resolved');
    const list = async (args = '') =>
      (
        await api.ok(`query($m: ID!) { tickets(appModeId: $m${args}) { edges { node { number } } } }`, { m: own.modes.live })
      ).tickets.edges.map((e: any) => e.node.number);
    expect(await list()).toEqual([1, 3, 2]);
    expect(await list(`, typeId: "${bugs}"`)).toEqual([1, 3]);
    expect(await list(`, typeId: "${bugs}", state: "submitted"`)).toEqual([3]);
    expect(await list(', state: "resolved"')).toEqual([1]);
    expect(await list(`, typeId: "${refunds}", state: "resolved"`)).toEqual([]);
    // Pages follow one another without repeats.
    const first = (
      await api.ok('query($m: ID!) { tickets(appModeId: $m, first: 2) { edges { node { number } } pageInfo { hasNextPage endCursor } } }', {
        m: own.modes.live,
      })
    ).tickets;
    expect(first.pageInfo.hasNextPage).toBe(true);
    const rest = (
      await api.ok(
        'query($m: ID!, $a: String) { tickets(appModeId: $m, first: 2, after: $a) { edges { node { number } } pageInfo { hasNextPage } } }',
        { m: own.modes.live, a: first.pageInfo.endCursor },
      )
    ).tickets;
    expect([...first.edges, ...rest.edges].map((e: any) => e.node.number)).toEqual([1, 3, 2]);
    expect(rest.pageInfo.hasNextPage).toBe(false);
    // By person (Contact.id): only theirs.
    const other = await api.fromConversation(await startedBy(guestOf(t, own.live, unique('user'))), refunds);
    const contactOf = async (id: string) => (await t.svc.db.ticket.findUniqueOrThrow({ where: { id } })).contactId;
    expect(await list(`, contactId: "${await contactOf(other.id)}"`)).toEqual([4]);
    expect(await list(`, contactId: "${await contactOf(made[0].id)}"`)).toEqual([1, 3, 2]);
  });

  it('reads a page of 50 tickets with their type, state, contact, conversation and history in a handful of statements', async () => {
    const own = await staffApp(t, 'Busy tickets');
    const api = ticketsOf(
      () => t,
      () => own,
    );
    const type = await api.addType();
    for (let i = 0; i < 50; i += 10)
      await Promise.all(
        Array.from({ length: 10 }, async (_, j) => {
          const made = await api.fromConversation(await startedBy(guestOf(t, own.live, unique('busy'))), type, `Ticket ${i + j}`);
          if ((i + j) % 2) await api.move(made.id, 'in_progress');
        }),
      );
    const query = `query($m: ID!, $first: Int) { tickets(appModeId: $m, first: $first) { edges { node { id number title state
      currentState { label final } type { name } contact { externalId } conversation { id state lastPart { text } } history { edges { node { seq to byName } } } } } pageInfo { hasNextPage } } }`;
    let page: any;
    // The request's statements, once the outbox's consumers have caught up (their passes and the engine's polls are not counted).
    const statementsFor = (first: number) =>
      t.svc.outbox
        .drain()
        .then(() => queriesDuring(async () => void (page = await api.ok(query, { m: own.modes.live, first })), notBackground));
    await statementsFor(5); // the session's first use of the page's code paths
    // The fewest of three: a sweep of the process's own may run beside one of them.
    const fewest = async (first: number) => Math.min(await statementsFor(first), await statementsFor(first), await statementsFor(first));
    const forFive = await fewest(5);
    const forFifty = await fewest(50);
    expect(page.tickets.edges).toHaveLength(50);
    expect(
      page.tickets.edges.filter((e: any) => e.node.currentState.label === 'In progress' && e.node.history.edges.length === 2),
    ).toHaveLength(25);
    expect(page.tickets.edges.every((e: any) => e.node.contact.externalId && e.node.conversation.lastPart)).toBe(true);
    // No statement per ticket: the session and the access, then the page and its relations, a statement or two each.
    expect(forFifty).toBe(forFive);
    expect(forFifty).toBeLessThanOrEqual(14);
  });

  it('shows one ticket with its conversation, every part and the history', async () => {
    const type = await addType();
    const g = guestOf(t, app.live, unique('user'));
    const c = await startedBy(g, 'Where is it?');
    // The conversation names its ticket once it has one.
    const itsTicket = async () =>
      (await ok('query($id: ID!) { conversation(id: $id) { ticket { id number } } }', { id: c })).conversation.ticket;
    expect(await itsTicket()).toBeNull();
    const ticket = await fromConversation(c, type);
    expect(await itsTicket()).toEqual({ id: ticket.id, number: ticket.number });
    await ok('mutation($id: ID!) { addConversationNote(id: $id, text: "Check the courier") { seq } }', { id: c });
    await move(ticket.id, 'waiting_on_you');
    const owner = await t.svc.db.staffUser.findUniqueOrThrow({ where: { email: app.ownerEmail } });
    const one = (
      await ok(
        `query($id: ID!) { ticket(id: $id) { number currentState { key label } history { edges { node { seq from to byKind byName partId at } } }
      conversation { id parts { edges { node { id kind event internal text } } } } } }`,
        { id: ticket.id },
      )
    ).ticket;
    expect(one.currentState).toEqual({ key: 'waiting_on_you', label: 'Waiting on you' });
    expect(one.conversation.parts.edges.map((e: any) => e.node.event ?? e.node.kind)).toEqual([
      'message',
      'ticket_created',
      'note',
      'ticket_moved',
    ]);
    const lines = one.conversation.parts.edges.map((e: any) => e.node).filter((p: any) => p.kind === 'event');
    expect(one.history.edges.map((e: any) => e.node)).toEqual([
      { seq: 1, from: null, to: 'submitted', byKind: 'staff', byName: owner.name, partId: lines[0].id, at: expect.any(String) },
      { seq: 2, from: 'submitted', to: 'waiting_on_you', byKind: 'staff', byName: owner.name, partId: lines[1].id, at: expect.any(String) },
    ]);
  });
});

describe('live', () => {
  it('shows a graphql-ws subscriber each ticket made and moved as it commits, in order, and only its app-mode’s', async () => {
    const type = await addType();
    const client = createClient({
      url: `${t.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${app.owner}` },
      retryAttempts: 0,
    });
    clients.push(client);
    const seen: {
      version: string;
      reload: boolean;
      ticket: { id: string; number: number; state: string; currentState: { label: string } } | null;
      step: { from: string | null; to: string } | null;
    }[] = [];
    const stop = client.subscribe<any>(
      {
        query:
          'subscription($m: ID!) { ticketsChanged(appModeId: $m) { version reload ticket { id number state currentState { label } } step { from to } } }',
        variables: { m: app.modes.live },
      },
      { next: ({ data }) => data && seen.push(data.ticketsChanged), error: () => {}, complete: () => {} },
    );
    await expect.poll(() => seen.length).toBe(1);
    expect(seen[0]!.reload).toBe(true);

    // Another app-mode's ticket is not shown.
    const other = await staffApp(t, 'Another app');
    await ticketsOf(
      () => t,
      () => other,
    ).fromConversation(
      await startedBy(guestOf(t, other.live, unique('user'))),
      await ticketsOf(
        () => t,
        () => other,
      ).addType(),
    );
    const ticket = await fromConversation(await startedBy(guestOf(t, app.live, unique('user'))), type);
    await move(ticket.id, 'in_progress');
    await move(ticket.id, 'resolved');
    await expect.poll(() => seen.length).toBe(4);
    expect(seen.slice(1).map((s) => [s.ticket!.id, s.step, s.ticket!.state, s.ticket!.currentState.label])).toEqual([
      [ticket.id, { from: null, to: 'submitted' }, 'submitted', 'Submitted'],
      [ticket.id, { from: 'submitted', to: 'in_progress' }, 'in_progress', 'In progress'],
      [ticket.id, { from: 'in_progress', to: 'resolved' }, 'resolved', 'Resolved'],
    ]);
    stop();

    // Resumed after the first change: the two since then, in order.
    const resumed: any[] = [];
    const again = client.subscribe<any>(
      {
        query: 'subscription($m: ID!, $a: String) { ticketsChanged(appModeId: $m, after: $a) { reload step { to } } }',
        variables: { m: app.modes.live, a: seen[1]!.version },
      },
      { next: ({ data }) => data && resumed.push(data.ticketsChanged), error: () => {}, complete: () => {} },
    );
    await expect.poll(() => resumed.length).toBe(2);
    expect(resumed).toEqual([
      { reload: false, step: { to: 'in_progress' } },
      { reload: false, step: { to: 'resolved' } },
    ]);
    again();
  });
});
