import { expect } from 'vitest';
import { staffApi } from './graphql.js';
import type { Guest } from './messenger.js';
import type { StaffApp } from './factories.js';
import type { TestServer } from './server.js';

// Tickets as the tests drive them: the staff side over GraphQL (as one app's owner unless a token
// is given), the person's side over real HTTP with the guest of test/support/messenger.ts.

export const STATES = [
  { key: 'submitted', label: 'Submitted', final: false },
  { key: 'in_progress', label: 'In progress', final: false },
  { key: 'waiting_on_you', label: 'Waiting on you', final: false },
  { key: 'resolved', label: 'Resolved', final: true },
];

export const TICKET =
  'id number title description state appModeId currentState { key label final } type { id name } contact { externalId } conversation { id } history { edges { node { seq from to byName } } } createdAt updatedAt';

/** A ticket as TICKET selects it, its history (a connection) as the list of its steps. */
const flat = (ticket: any) => ({ ...ticket, history: ticket.history.edges.map((e: { node: unknown }) => e.node) });

export function ticketsOf(t: () => TestServer, app: () => StaffApp) {
  const { ok, refused, gql } = staffApi(
    () => t().url,
    () => app().owner,
  );
  return {
    ok,
    refused,
    gql,
    /** A new ticket type of the app's live mode (or the mode given) with STATES; its id. */
    async addType(name = `Type ${Math.random().toString(36).slice(2, 8)}`, appModeId = app().modes.live): Promise<string> {
      const r = await ok(
        'mutation($m: ID!, $n: String!, $s: [TicketStateInput!]!) { addTicketType(appModeId: $m, name: $n, states: $s) { id } }',
        { m: appModeId, n: name, s: STATES },
      );
      return r.addTicketType.id;
    },
    /** A ticket made from the conversation; the ticket as TICKET selects it. */
    async fromConversation(conversationId: string, typeId: string, title = 'Refund for order 1234', token?: string) {
      const r = await ok(
        `mutation($c: ID!, $t: ID!, $title: String!) { createTicketFromConversation(conversationId: $c, typeId: $t, title: $title, description: "The parcel never came") { ${TICKET} } }`,
        { c: conversationId, t: typeId, title },
        token,
      );
      return flat(r.createTicketFromConversation);
    },
    async move(ticketId: string, state: string) {
      return flat(
        (await ok(`mutation($id: ID!, $s: String!) { moveTicket(ticketId: $id, state: $s) { ${TICKET} } }`, { id: ticketId, s: state }))
          .moveTicket,
      );
    },
  };
}

/** A conversation the guest started; its id. */
export async function startedBy(guest: Guest, text = 'My parcel never came'): Promise<string> {
  const r = await guest.start({ text });
  expect(r.status).toBe(201);
  return r.json.id;
}

/** The person's calls to their tickets, over real HTTP. */
export const ticketCalls = (guest: Guest) => ({
  list: (query = '') => guest.send('GET', `/guest/v1/tickets${query}`),
  get: (id: string) => guest.send('GET', `/guest/v1/tickets/${id}`),
  message: (id: string, body: Record<string, unknown>, key?: string) =>
    guest.send('POST', `/guest/v1/tickets/${id}/messages`, body, key ? { 'Idempotency-Key': key } : {}),
});
