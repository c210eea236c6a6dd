import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agents } from './support/agents.js';
import { staffApp, unique, type StaffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { guestOf } from './support/messenger.js';
import { startTestServer, type TestServer } from './support/server.js';

// The held reply ("traffic cop"): a reply or note that says the last part its writer saw is not
// added over parts someone else wrote since; it is refused with them, and goes in once resent
// with the new seq or with force. Without the seq, nothing changes.

let t: TestServer;
let app: StaffApp;
let workspaceId: string;
beforeAll(async () => {
  t = await startTestServer();
  app = await staffApp(t);
  workspaceId = app.workspaceId;
});
afterAll(() => t?.close());

const { gql, ok, refused } = staffApi(
  () => t.url,
  () => app.owner,
);
const REPLY =
  'mutation($id: ID!, $text: String!, $seen: Int, $force: Boolean) { replyToConversation(id: $id, text: $text, seenPartSeq: $seen, force: $force) { seq } }';
const NOTE =
  'mutation($id: ID!, $text: String!, $seen: Int, $force: Boolean) { addConversationNote(id: $id, text: $text, seenPartSeq: $seen, force: $force) { seq } }';
const lastSeq = async (id: string) => (await t.svc.db.conversation.findUniqueOrThrow({ where: { id } })).lastSeq;

async function started() {
  const guest = guestOf(t, app.live, unique('user'));
  const r = await guest.start({ text: 'Hello, my order is late' });
  expect(r.status).toBe(201);
  return { id: r.json.id as string, guest };
}

describe('a reply or note with the seq its writer saw', () => {
  it('is held, with the newer parts, when the person wrote since; goes in with the new seq, or forced', async () => {
    const { id, guest } = await started();
    const [b] = await agents(t, workspaceId, 1);
    expect((await ok(REPLY, { id, text: 'Looking', seen: 1 }, b!.token)).replyToConversation.seq).toBe(2);
    expect((await guest.send('POST', `/guest/v1/conversations/${id}/messages`, { text: 'It is order 42' })).status).toBe(201);

    const held = await refused(REPLY, { id, text: 'Which order?', seen: 2 }, b!.token);
    expect(held).toMatchObject({ code: 'newer_parts', status: 409, newerParts: { count: 1, lastSeq: 3 } });
    expect((held as unknown as { newerParts: { parts: unknown[] } }).newerParts.parts).toEqual([
      { id: expect.any(String), seq: 3, kind: 'message', authorKind: 'contact' },
    ]);
    expect(await lastSeq(id)).toBe(3);
    expect(await refused(NOTE, { id, text: 'Ask which', seen: 2 }, b!.token)).toMatchObject({ code: 'newer_parts' });
    expect(await lastSeq(id)).toBe(3);

    expect((await ok(REPLY, { id, text: 'Order 42 it is', seen: 3 }, b!.token)).replyToConversation.seq).toBe(4);
    // Their own part does not hold them; another member's does, and force sends it anyway.
    expect((await ok(NOTE, { id, text: 'Shipped today', seen: 3 }, b!.token)).addConversationNote.seq).toBe(5);
    expect(await refused(NOTE, { id, text: 'Owner here', seen: 3 })).toMatchObject({ code: 'newer_parts', newerParts: { count: 2 } });
    expect((await ok(NOTE, { id, text: 'Owner here', seen: 3, force: true })).addConversationNote.seq).toBe(6);
    // Without a seq, as before: never held.
    expect((await ok(REPLY, { id, text: 'As before' }, b!.token)).replyToConversation.seq).toBe(7);
    expect((await refused(REPLY, { id, text: 'Too far', seen: 8 })).errors).toEqual([
      { field: 'seenPartSeq', message: expect.any(String) },
    ]);
  });

  it('lets exactly one of 20 members replying at once over the same part in, and holds the others', async () => {
    const { id } = await started();
    const members = await agents(t, workspaceId, 20);
    const answers = await Promise.all(members.map((m, i) => gql(REPLY, { id, text: `Reply ${i}`, seen: 1 }, m.token)));
    const codes = answers.map((a) => (a.errors ? a.errors[0]!.extensions.code : 'in'));
    expect(codes.filter((c) => c === 'in')).toHaveLength(1);
    expect(codes.filter((c) => c === 'newer_parts')).toHaveLength(19);
    expect(await lastSeq(id)).toBe(2);
  });
});
