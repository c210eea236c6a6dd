import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffApi } from './support/graphql.js';
import { call } from './support/http.js';
import { staffApp, type StaffApp } from './support/factories.js';
import { guestOf } from './support/messenger.js';
import { ticketsOf } from './support/tickets.js';
import { type TestServer, startTestServer } from './support/server.js';

// A person whose erase was asked is served to no one while it runs: from the DELETE's 202 every way
// of reaching them (guest routes with their token, the server's export, staff's contact and
// conversation reads and writes) answers as for someone gone, though the process (held here: the
// test's engine runs only when told) has removed nothing yet. Others of the app are served as before.

let t: TestServer;
let app: StaffApp;
const staff = staffApi(
  () => t.url,
  () => app.owner,
);
beforeAll(async () => {
  t = await startTestServer();
  app = await staffApp(t);
});
afterAll(() => t?.close());

const server = (method: string, path: string, json?: unknown) =>
  call(t.url, method, path, { headers: { Authorization: `Bearer ${app.live.server_key}` }, json });
const CONTACT = 'query($m: ID!, $x: String!) { contact(appModeId: $m, externalId: $x) { id } }';
const CONVERSATION = 'query($id: ID!) { conversation(id: $id) { id } }';
const REPLY = 'mutation($id: ID!) { replyToConversation(id: $id, text: "Still there?") { id } }';
const INBOX = 'query($m: ID!) { conversations(appModeId: $m, first: 100) { edges { node { id } } } }';
const TICKETS = 'query($m: ID!) { tickets(appModeId: $m, first: 100) { edges { node { id conversation { id } } } } }';

/** What each surface answers about the person: status per route (GraphQL: the data, or the refusal's code). */
async function served(externalId: string, conversationId: string) {
  const guest = guestOf(t, app.live, externalId);
  const gql = async (query: string, variables: Record<string, unknown>) => {
    const r = await staff.gql(query, variables, app.owner);
    return r.errors ? r.errors[0]!.extensions.code : 'served';
  };
  return {
    guestList: (await guest.list()).status,
    guestConversation: (await guest.get(conversationId)).status,
    guestMessage: (await guest.message(conversationId, { text: 'more' })).status,
    // The consent routes answer no refusal but nothing agreed (their own statement checks the erase).
    guestConsent: await guest
      .send('GET', '/guest/v1/consent')
      .then((r) => (r.status !== 200 ? r.status : JSON.stringify(r.json).includes('true') ? 'agreed' : 'nothing agreed')),
    export: (await server('GET', `/server/v1/contacts/${externalId}/export`)).status,
    identify: (await server('PUT', `/server/v1/contacts/${externalId}`, { display_name: 'Again' })).status,
    staffContact: await gql(CONTACT, { m: app.modes.live, x: externalId }),
    staffConversation: await gql(CONVERSATION, { id: conversationId }),
    staffReply: await gql(REPLY, { id: conversationId }),
    // The staff's lists: the inbox, and the tickets (one made from the conversation).
    staffInbox: (await staff.ok(INBOX, { m: app.modes.live })).conversations.edges.some((e: any) => e.node.id === conversationId),
    staffTickets: (await staff.ok(TICKETS, { m: app.modes.live })).tickets.edges.some(
      (e: any) => e.node.conversation?.id === conversationId,
    ),
  };
}

async function personWithConversation(externalId: string): Promise<string> {
  expect(
    (await server('PUT', `/server/v1/contacts/${externalId}`, { display_name: 'Erin', consent: { offers_by_email: true } })).status,
  ).toBe(200);
  const started = await guestOf(t, app.live, externalId).start({ text: 'Hello' });
  expect(started.status).toBe(201);
  await tickets.fromConversation(started.json.id, (ticketType ??= await tickets.addType()));
  return started.json.id as string;
}

const tickets = ticketsOf(
  () => t,
  () => app,
);
let ticketType: string | undefined;

describe('a person being erased', () => {
  it('is served to no one from the erase request on, while the others are served as before', async () => {
    const erin = await personWithConversation('erin');
    const other = await personWithConversation('other');
    const before = await served('erin', erin);
    expect(before).toEqual({
      guestList: 200,
      guestConversation: 200,
      guestMessage: 201,
      guestConsent: 'agreed',
      export: 200,
      identify: 200,
      staffContact: 'served',
      staffConversation: 'served',
      staffReply: 'served',
      staffInbox: true,
      staffTickets: true,
    });

    expect((await server('DELETE', '/server/v1/contacts/erin')).status).toBe(202);
    // Held: nothing removed yet.
    expect(await t.svc.db.conversation.count({ where: { id: erin } })).toBe(1);
    const guestRefusal = await guestOf(t, app.live, 'erin').list();
    expect(guestRefusal.json.code).toBe('erased');
    expect(await served('erin', erin)).toEqual({
      guestList: 403,
      guestConversation: 403,
      guestMessage: 409,
      guestConsent: 'nothing agreed',
      export: 404,
      identify: 409,
      staffContact: 'not_found',
      staffConversation: 'not_found',
      staffReply: 'not_found',
      staffInbox: false,
      staffTickets: false,
    });
    expect(await served('other', other)).toEqual(before);

    await t.engine.runDue();
    // Done: the person is unknown (their guest reads answer as for someone never seen), and still blocked.
    expect(await t.svc.db.conversation.count({ where: { id: erin } })).toBe(0);
    expect(await served('erin', erin)).toMatchObject({
      guestList: 200,
      guestConsent: 'nothing agreed',
      export: 404,
      identify: 409,
      staffContact: 'not_found',
    });
    expect((await guestOf(t, app.live, 'erin').list()).json.items ?? []).toEqual([]);
  });
});
