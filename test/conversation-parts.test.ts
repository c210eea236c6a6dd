import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_PARTS } from '../src/domain/conversations/parts.js';
import { staffApp, unique, type StaffApp } from './support/factories.js';
import { guestOf, type Guest } from './support/messenger.js';
import { seedParts } from './support/parts.js';
import { startTestServer, type TestServer } from './support/server.js';
import { ticketsOf } from './support/tickets.js';

// A conversation read by the person answers a page of parts, the newest MAX_PARTS, and says where
// the older ones start (parts_before); asked again with before = parts_before it answers the page
// before, down to the first part. A ticket's conversation is the same newest page.

let t: TestServer;
let app: StaffApp;
beforeAll(async () => {
  t = await startTestServer();
  app = await staffApp(t);
});
afterAll(() => t?.close());

const person = (sub = unique('user')) => guestOf(t, app.live, sub);
const seqs = (parts: { seq: number }[]) => parts.map((p) => p.seq);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** A conversation the person started (its first part) with `more` parts seeded after it; its id. */
async function conversationWith(g: Guest, more: number, opts: { noteEvery?: number } = {}): Promise<string> {
  const started = await g.start({ text: 'The first words' });
  expect(started.status).toBe(201);
  await seedParts(t, started.json.id, more, opts);
  return started.json.id;
}

/** Every page from the newest back to the first, following parts_before. */
async function everyPage(g: Guest, id: string) {
  const pages = [];
  let before: number | null | undefined;
  do {
    const r = await g.send('GET', `/guest/v1/conversations/${id}${before ? `?before=${before}` : ''}`);
    expect(r.status).toBe(200);
    pages.push(r.json);
    before = r.json.parts_before;
  } while (before !== null && pages.length < 10);
  return pages;
}

describe('the parts of a conversation, page by page', () => {
  it('answers the newest 200 of 450 parts, and pages back to the first with parts_before', async () => {
    expect(MAX_PARTS).toBe(200);
    const g = person();
    const id = await conversationWith(g, 449);

    const pages = await everyPage(g, id);
    expect(pages.map((p) => seqs(p.parts))).toEqual([range(251, 450), range(51, 250), range(1, 50)]);
    expect(pages.map((p) => p.parts_before)).toEqual([251, 51, null]);
    // The conversation itself is the same on every page: its id, version and unread count.
    for (const page of pages) expect(page).toMatchObject({ id, last_seq: 450, unread: 0, state: 'open' });
    expect(pages[0].parts[199].blocks).toEqual([{ type: 'paragraph', spans: [{ text: 'part 449 xxxxxxxxxxx' }] }]);
    expect(pages[2].parts[0].blocks[0].spans[0].text).toBe('The first words');
  });

  it('never shows a note, and still reaches every part the person may see', async () => {
    const g = person();
    // 1 + 500 parts, every 10th a team note: 451 the person may see, in seqs with gaps.
    const id = await conversationWith(g, 500, { noteEvery: 10 });
    const visible = [1, ...range(2, 501).filter((s) => (s - 1) % 10 !== 0)];
    expect(visible).toHaveLength(451);

    const pages = await everyPage(g, id);
    expect(pages.map((p) => p.parts.length)).toEqual([200, 200, 51]);
    expect(pages.flatMap((p) => seqs(p.parts)).sort((a, b) => a - b)).toEqual(visible);
    expect(pages.flatMap((p) => p.parts).every((p) => p.author.kind === 'user')).toBe(true);
    expect(pages[0].parts_before).toBe(pages[0].parts[0].seq);
  });

  it('answers every part and parts_before null for a short conversation, and an empty page before the first', async () => {
    const g = person();
    const id = await conversationWith(g, 4);
    const whole = await g.get(id);
    expect(seqs(whole.json.parts)).toEqual([1, 2, 3, 4, 5]);
    expect(whole.json.parts_before).toBeNull();
    const before3 = await g.send('GET', `/guest/v1/conversations/${id}?before=3`);
    expect(seqs(before3.json.parts)).toEqual([1, 2]);
    const none = await g.send('GET', `/guest/v1/conversations/${id}?before=1`);
    expect(none.json).toMatchObject({ id, last_seq: 5, parts: [], parts_before: null });
    // A before past the last part answers the newest, as without it.
    expect(seqs((await g.send('GET', `/guest/v1/conversations/${id}?before=999999999`)).json.parts)).toEqual([1, 2, 3, 4, 5]);
  });

  it('refuses a before that is not a seq with 400 naming it', async () => {
    const g = person();
    const id = await conversationWith(g, 1);
    for (const before of ['abc', '-1', '1.5', '', '1e3', '9999999999']) {
      const r = await g.send('GET', `/guest/v1/conversations/${id}?before=${before}`);
      expect(r.status, before).toBe(400);
      expect(r.json.errors[0].field, before).toBe('before');
    }
  });

  it("answers a ticket's conversation with the newest page too, its older parts read by parts_before", async () => {
    const g = person();
    const id = await conversationWith(g, 449);
    const { addType, fromConversation } = ticketsOf(
      () => t,
      () => app,
    );
    const ticket = await fromConversation(id, await addType());
    const r = await g.send('GET', `/guest/v1/tickets/${ticket.id}`);
    expect(r.status).toBe(200);
    // The ticket's step is a part of its conversation too (an event line), after the 450.
    const last = r.json.conversation.last_seq;
    expect(r.json.conversation.parts).toHaveLength(200);
    expect(seqs(r.json.conversation.parts)).toEqual(range(last - 199, last));
    expect(r.json.conversation.parts_before).toBe(last - 199);
    const older = await g.send('GET', `/guest/v1/conversations/${id}?before=${r.json.conversation.parts_before}`);
    expect(seqs(older.json.parts)).toEqual(range(last - 399, last - 200));
  });
});
