import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agents } from './support/agents.js';
import { staffApp, unique, type StaffApp } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { guestOf } from './support/messenger.js';
import { png, reachable } from './support/pictures.js';
import { startTestServer, type TestServer } from './support/server.js';

// Pictures in the team's replies and notes: createConversationPicture, the bytes PUT at its address
// (checked as a user's are), and `attachmentIds` on replyToConversation and addConversationNote;
// what they refuse, the held reply keeping its pictures unused, and erase taking them with the
// person's conversations. Real HTTP, real PostgreSQL.

let t: TestServer;
let app: StaffApp;
let members: { id: string; token: string }[];
beforeAll(async () => {
  t = await startTestServer();
  app = await staffApp(t);
  members = await agents(t, app.workspaceId, 2);
});
afterAll(() => t?.close());

const { ok, refused } = staffApi(
  () => t.url,
  () => app.owner,
);

const MAKE = `mutation($c: ID!, $type: ConversationPictureType!, $size: Int!) {
  createConversationPicture(conversationId: $c, type: $type, size: $size) { id uploadUrl uploadMethod uploadHeaders uploadExpiresAt } }`;
const PART = 'seq kind text pictures { id contentType size width height url }';
const REPLY = `mutation($id: ID!, $text: String!, $ids: [ID!], $seen: Int) {
  replyToConversation(id: $id, text: $text, attachmentIds: $ids, seenPartSeq: $seen) { ${PART} } }`;
const NOTE = `mutation($id: ID!, $text: String!, $ids: [ID!]) { addConversationNote(id: $id, text: $text, attachmentIds: $ids) { ${PART} } }`;

type Upload = { id: string; uploadUrl: string; uploadMethod: string; uploadHeaders: Record<string, string>; uploadExpiresAt: string };

/** A conversation a person started in the app's live (or test) mode. */
async function started(mode: 'live' | 'test' = 'live') {
  const guest = guestOf(t, app[mode], unique('user'));
  const r = await guest.start({ text: 'The export button does nothing' });
  expect(r.status).toBe(201);
  return { id: r.json.id as string, guest };
}

const make = async (conversationId: string, bytes: Buffer, token = app.owner): Promise<Upload> =>
  (await ok(MAKE, { c: conversationId, type: 'png', size: bytes.length }, token)).createConversationPicture;

const put = (upload: Upload, bytes: Buffer) =>
  fetch(reachable(t, upload.uploadUrl), { method: upload.uploadMethod, headers: upload.uploadHeaders, body: new Uint8Array(bytes) });

/** A picture made and uploaded for the conversation by the member of `token`: its id. */
async function uploaded(conversationId: string, token = app.owner, bytes = png(4, 3)): Promise<string> {
  const made = await make(conversationId, bytes, token);
  expect((await put(made, bytes)).status).toBe(204);
  return made.id;
}

const fields = (r: { errors?: { field: string }[] }) => r.errors?.map((e) => e.field);
const unused = async (ids: string[]) => t.svc.db.attachment.count({ where: { id: { in: ids }, partId: null } });

describe('pictures in a staff reply', () => {
  it('makes one, takes its bytes at the address, shows it in the reply, to the team and to the person', async () => {
    const { id, guest } = await started();
    const bytes = png(8, 6);
    const made = await make(id, bytes);
    expect(made).toMatchObject({ uploadMethod: 'PUT', uploadHeaders: { 'Content-Type': 'image/png' } });
    expect(made.uploadUrl).toMatch(new RegExp(`^${t.svc.config.baseUrl}/blobs/`));
    expect(new Date(made.uploadExpiresAt).getTime() - t.clock.now().getTime()).toBeGreaterThanOrEqual(15 * 60_000 - 1000);
    // The bytes are checked as a user's are: a renamed text file is refused, the picture taken.
    const text = Buffer.alloc(bytes.length, 'x');
    const wrong = await put(made, text);
    expect(wrong.status).toBe(422);
    expect((await wrong.json()).code).toBe('attachment_invalid');
    expect((await put(made, bytes)).status).toBe(204);

    const part = (await ok(REPLY, { id, text: 'Here is where it is', ids: [made.id] })).replyToConversation;
    expect(part.pictures).toEqual([
      { id: made.id, contentType: 'image/png', size: bytes.length, width: 8, height: 6, url: expect.stringContaining('/blobs/') },
    ]);
    const got = await fetch(reachable(t, part.pictures[0].url));
    expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true);
    // The person sees it on the reply, as their own pictures are shown.
    const shown = await guest.get(id);
    const reply = shown.json.parts.find((p: { seq: number }) => p.seq === part.seq);
    expect(reply.attachments).toEqual([expect.objectContaining({ id: made.id, content_type: 'image/png', width: 8, height: 6 })]);
    // A note takes pictures too, and a reply of pictures alone needs no words.
    const note = (await ok(NOTE, { id, text: 'Screenshot of the logs', ids: [await uploaded(id)] })).addConversationNote;
    expect(note.pictures).toHaveLength(1);
    expect((await ok(REPLY, { id, text: '', ids: [await uploaded(id)] })).replyToConversation.pictures).toHaveLength(1);
    expect(fields(await refused(REPLY, { id, text: ' ', ids: [] }))).toEqual(['text']);
  });

  it("refuses another member's picture, another mode's, another conversation's, one not uploaded, one used, and five", async () => {
    const { id } = await started();
    const other = await started();
    const [b] = members;
    const mine = await uploaded(id);
    const theirs = await uploaded(id, b!.token);
    const elsewhere = await uploaded(other.id);
    const otherMode = await uploaded((await started('test')).id);
    const notUploaded = (await make(id, png())).id;
    const r = await refused(REPLY, { id, text: 'Look', ids: [mine, theirs, otherMode, elsewhere, notUploaded].slice(0, 4) });
    expect(r).toMatchObject({ code: 'attachment_invalid', status: 422 });
    expect(fields(r)).toEqual(['attachmentIds.1', 'attachmentIds.2', 'attachmentIds.3']);
    expect(fields(await refused(REPLY, { id, text: 'Look', ids: [notUploaded] }))).toEqual(['attachmentIds.0']);
    expect(fields(await refused(REPLY, { id, text: 'Look', ids: [mine, mine] }))).toEqual(['attachmentIds.1']);
    const five = await Promise.all(Array.from({ length: 5 }, () => uploaded(id)));
    expect(await refused(REPLY, { id, text: 'Five', ids: five })).toMatchObject({
      code: 'too_many_pictures',
      errors: [{ field: 'attachmentIds' }],
    });
    // None was used by a refusal; each is usable by its maker where it was made for.
    expect(await unused([mine, theirs, elsewhere, ...five])).toBe(8);
    expect((await ok(REPLY, { id, text: 'Four', ids: five.slice(0, 4) })).replyToConversation.pictures).toHaveLength(4);
    expect((await ok(REPLY, { id, text: 'Mine', ids: [mine] })).replyToConversation.pictures).toHaveLength(1);
    expect((await ok(REPLY, { id, text: 'Theirs', ids: [theirs] }, b!.token)).replyToConversation.pictures).toHaveLength(1);
    // Used once.
    expect(fields(await refused(REPLY, { id, text: 'Again', ids: [mine] }))).toEqual(['attachmentIds.0']);
  });

  it('a held reply uses none of its pictures; sent again, it does', async () => {
    const { id, guest } = await started();
    const ids = [await uploaded(id), await uploaded(id)];
    expect((await guest.message(id, { text: 'Any news?' })).status).toBe(201);
    expect(await refused(REPLY, { id, text: 'Fixed', ids, seen: 1 })).toMatchObject({ code: 'newer_parts', status: 409 });
    expect(await unused(ids)).toBe(2);
    expect((await ok(REPLY, { id, text: 'Fixed', ids, seen: 2 })).replyToConversation.pictures.map((p: { id: string }) => p.id)).toEqual(
      ids,
    );
    expect(await unused(ids)).toBe(0);
  });

  it('asks the reply permission, checks the size, and counts what a member has waiting as a user’s', async () => {
    const { id } = await started();
    const outsider = await staffApp(t);
    // Another workspace's member finds no such conversation.
    expect(await refused(MAKE, { c: id, type: 'png', size: 10 }, outsider.owner)).toMatchObject({ code: 'not_found', status: 404 });
    expect(fields(await refused(MAKE, { c: id, type: 'png', size: 10 * 1024 * 1024 + 1 }))).toEqual(['size']);
    expect(fields(await refused(MAKE, { c: id, type: 'png', size: 0 }))).toEqual(['size']);
    // Five of 10 MiB wait (50 MiB); a sixth is refused for this member only.
    const [, c] = members;
    for (let i = 0; i < 5; i++) await ok(MAKE, { c: id, type: 'jpeg', size: 10 * 1024 * 1024 }, c!.token);
    const full = await refused(MAKE, { c: id, type: 'jpeg', size: 1 }, c!.token);
    expect(full).toMatchObject({ code: 'attachment_limit', status: 422 });
    await ok(MAKE, { c: id, type: 'jpeg', size: 1 });
  });

  it("erase takes the team's pictures in the person's conversations, sent or waiting, bytes and all", async () => {
    const { id, guest } = await started();
    const sent = await uploaded(id);
    const waiting = await uploaded(id);
    await ok(REPLY, { id, text: 'See here', ids: [sent] });
    const kept = await uploaded((await started()).id);
    const r = await fetch(`${t.url}/server/v1/contacts/${guest.sub}`, {
      method: 'DELETE',
      headers: { Authorization: `Bearer ${app.live.server_key}` },
    });
    expect(r.status).toBe(202);
    await t.engine.runDue();
    expect(await t.svc.db.attachment.count({ where: { id: { in: [sent, waiting] } } })).toBe(0);
    expect(await t.svc.db.blob.count({ where: { key: { in: [sent, waiting].map((a) => `attachments/${app.modes.live}/${a}`) } } })).toBe(0);
    expect(await t.svc.db.blob.count({ where: { key: `attachments/${app.modes.live}/${kept}` } })).toBe(1);
  });
});
