import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/http.js';
import { staffApp, unique, type StaffApp } from './support/factories.js';
import { guestOf } from './support/messenger.js';
import { startTestServer, type TestServer } from './support/server.js';
import { startedBy, ticketCalls, ticketsOf } from './support/tickets.js';

// A person's tickets as data: ticket.created and ticket.changed in the outbox with the change and
// posted to webhooks; the export's `tickets`; an erase leaving nothing of them in either mode.

let t: TestServer;
let app: StaffApp;
beforeAll(async () => {
  t = await startTestServer();
  app = await staffApp(t);
});
afterAll(() => t?.close());

const { ok, addType, fromConversation, move } = ticketsOf(
  () => t,
  () => app,
);
const server = (method: string, path: string) => call(t.url, method, path, { headers: { Authorization: `Bearer ${app.live.server_key}` } });

/** A ticket of the person in the mode, moved once, with a message of theirs; its id and conversation's. */
async function ticketOf(mode: 'live' | 'test', sub: string) {
  const g = guestOf(t, app[mode], sub);
  const type = await addType(unique('Type'), app.modes[mode]);
  const c = await startedBy(g);
  const ticket = await fromConversation(c, type, `Ticket of ${sub}`);
  await move(ticket.id, 'in_progress');
  expect((await ticketCalls(g).message(ticket.id, { text: 'Thanks' }, `key-${sub}`)).status).toBe(201);
  return { id: ticket.id as string, conversationId: c };
}

describe('topics', () => {
  it('writes ticket.created and ticket.changed in the change’s transaction, and posts them to webhooks with the ids and the state', async () => {
    const own = await staffApp(t, 'Ticket hooks');
    const api = ticketsOf(
      () => t,
      () => own,
    );
    await api.ok(
      'mutation($m: ID!, $u: String!, $t: [String!]!) { addWebhookEndpoint(appModeId: $m, url: $u, topics: $t) { endpoint { id } } }',
      {
        m: own.modes.live,
        u: 'https://hooks.example.com/crm',
        t: ['ticket.created', 'ticket.changed'],
      },
    );
    const topics = (await api.ok('{ webhookTopics { name emitted } }')).webhookTopics.filter((x: any) => x.name.startsWith('ticket.'));
    expect(topics).toEqual([
      { name: 'ticket.created', emitted: true },
      { name: 'ticket.changed', emitted: true },
    ]);

    const sub = unique('hooked');
    const c = await startedBy(guestOf(t, own.live, sub));
    const ticket = await api.fromConversation(c, await api.addType());
    await api.move(ticket.id, 'resolved');
    await t.svc.outbox.drain();
    const bodies = (await t.svc.db.webhookDelivery.findMany({ where: { appModeId: own.modes.live }, orderBy: { createdAt: 'asc' } })).map(
      (d) => JSON.parse(d.body),
    );
    expect(bodies.map((b) => [b.type, b.data, b.contact]).sort((a, b) => String(a[0]).localeCompare(String(b[0])))).toEqual([
      [
        'ticket.changed',
        { ticket_id: ticket.id, conversation_id: c, state: 'resolved', previous_state: 'submitted' },
        { external_id: sub },
      ],
      ['ticket.created', { ticket_id: ticket.id, conversation_id: c, state: 'submitted' }, { external_id: sub }],
    ]);
  });

  it('writes nothing when the change is refused', async () => {
    const type = await addType();
    const ticket = await fromConversation(await startedBy(guestOf(t, app.live, unique('user'))), type);
    const before = await t.svc.db.outboxEvent.count({ where: { topic: { startsWith: 'ticket' } } });
    const { refused } = ticketsOf(
      () => t,
      () => app,
    );
    expect((await refused('mutation($id: ID!) { moveTicket(ticketId: $id, state: "nowhere") { id } }', { id: ticket.id })).code).toBe(
      'invalid_request',
    );
    expect(await t.svc.db.outboxEvent.count({ where: { topic: { startsWith: 'ticket' } } })).toBe(before);
  });
});

describe('a person’s tickets', () => {
  it('are in the export with their type, title, state, history and times', async () => {
    const sub = unique('exported');
    const { id, conversationId } = await ticketOf('live', sub);
    const r = await server('GET', `/server/v1/contacts/${sub}/export`);
    expect(r.status).toBe(200);
    expect(r.json.tickets).toEqual([
      {
        id,
        number: expect.any(Number),
        type: expect.stringMatching(/^Type_/),
        title: `Ticket of ${sub}`,
        description: 'The parcel never came',
        state: 'in_progress',
        stateLabel: 'In progress',
        conversationId,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        history: [
          { from: null, to: 'submitted', label: 'Submitted', at: expect.any(String) },
          { from: 'submitted', to: 'in_progress', label: 'In progress', at: expect.any(String) },
        ],
      },
    ]);
    expect(r.json.conversations.map((c: { id: string }) => c.id)).toEqual([conversationId]);
  });

  it('are erased in both modes with their history, leaving nothing of them and nothing of anyone else’s', async () => {
    const sub = unique('erased');
    const mine = [await ticketOf('live', sub), await ticketOf('test', sub)];
    const kept = await ticketOf('live', unique('kept'));
    const ids = mine.map((m) => m.id);
    const left = async () => ({
      tickets: await t.svc.db.ticket.count({ where: { id: { in: ids } } }),
      steps: await t.svc.db.ticketStateChange.count({ where: { ticketId: { in: ids } } }),
      conversations: await t.svc.db.conversation.count({ where: { id: { in: mine.map((m) => m.conversationId) } } }),
      outbox: await t.svc.db.outboxEvent.count({ where: { externalId: sub, topic: { startsWith: 'ticket' } } }),
    });
    expect(await left()).toEqual({ tickets: 2, steps: 4, conversations: 2, outbox: 8 });

    expect((await server('DELETE', `/server/v1/contacts/${sub}`)).status).toBe(202);
    await t.engine.runDue();
    expect(await left()).toEqual({ tickets: 0, steps: 0, conversations: 0, outbox: 0 });
    const request = await t.svc.db.eraseRequest.findFirstOrThrow({ where: { state: 'done' }, orderBy: { requestedAt: 'desc' } });
    expect(request.removed).toMatchObject({ tickets: 2, ticketStateChanges: 4 });
    expect(await t.svc.db.ticketStateChange.count({ where: { ticketId: kept.id } })).toBe(2);
    expect((await server('GET', `/server/v1/contacts/${sub}/export`)).status).toBe(404);
    // The staff side no longer finds them.
    const { refused } = ticketsOf(
      () => t,
      () => app,
    );
    expect((await refused('query($id: ID!) { ticket(id: $id) { id } }', { id: ids[0] })).code).toBe('not_found');
    expect(
      (
        await ok('query($m: ID!) { tickets(appModeId: $m, first: 200) { edges { node { id } } } }', { m: app.modes.live })
      ).tickets.edges.map((e: any) => e.node.id),
    ).not.toContain(ids[0]);
  });
});
