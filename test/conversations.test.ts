import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setStartRule } from '../src/domain/conversations/settings.js';
import { modeIds, unique } from './support/factories.js';
import { guestOf, teamCloses, teamPart } from './support/messenger.js';
import { png, reachable, uploaded } from './support/pictures.js';
import { type SeededApp, type TestServer, startWithApp, seedApp } from './support/server.js';

// The person's side of the messenger over real HTTP: starting (idempotent, by the start rule),
// reading, writing, unread counts, and what a person may never see or reach.

let t: TestServer;
let app: SeededApp;
let modes: { live: string; test: string };
beforeAll(async () => {
  ({ t, app } = await startWithApp());
  modes = await modeIds(t, app);
});
afterAll(() => t?.close());

const person = (sub = unique('user')) => guestOf(t, app.live, sub);

describe('starting a conversation', () => {
  it('answers 201 with the conversation, its last_seq and the first part in blocks', async () => {
    const g = person();
    const r = await g.start({ text: 'Hello there\n\nMy order is late.' });
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({
      state: 'open',
      last_seq: 1,
      unread: 0,
      preview: 'Hello there My order is late.',
      rating_asked: false,
      rating: null,
    });
    expect(r.json.parts).toEqual([
      expect.objectContaining({
        seq: 1,
        kind: 'message',
        author: { kind: 'user', name: 'User', avatar_url: null },
        blocks: [
          { type: 'paragraph', spans: [{ text: 'Hello there' }] },
          { type: 'paragraph', spans: [{ text: 'My order is late.' }] },
        ],
        attachments: [],
      }),
    ]);
    const row = await t.svc.db.conversation.findUniqueOrThrow({ where: { id: r.json.id } });
    expect(row.appModeId).toBe(modes.live);
    // conversation.started is in the outbox, from the same transaction, with the ids a webhook carries.
    const events = await t.svc.db.outboxEvent.findMany({ where: { topic: 'conversation.started', externalId: g.sub } });
    expect(events.map((e) => e.data)).toEqual([{ conversation_id: r.json.id, part_id: r.json.parts[0].id }]);
  });

  it('keeps the opening and the button tapped for the help bot, and takes no words with a button', async () => {
    const g = person();
    const r = await g.start({ text: '', button: 'talk_to_sales', opening: { id: 'op_1', version: 3 } });
    expect(r.status).toBe(201);
    expect(r.json.parts[0]).toMatchObject({ button: 'talk_to_sales', blocks: [] });
    const row = await t.svc.db.conversation.findUniqueOrThrow({ where: { id: r.json.id } });
    expect(row).toMatchObject({ button: 'talk_to_sales', opening: { id: 'op_1', version: 3 } });
    const both = await g.start({ text: 'words', button: 'talk_to_sales' });
    expect(both.status).toBe(400);
    expect(both.json.errors[0].field).toBe('button');
  });

  it('refuses a blank start, naming text, and makes nothing', async () => {
    const g = person();
    for (const body of [{ text: '   \n ' }, {}, { text: 5 }]) {
      const r = await g.start(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.headers.get('content-type')).toContain('application/problem+json');
      expect(r.json.errors[0].field).toBe('text');
    }
    expect(await t.svc.db.conversation.count({ where: { contact: { externalId: g.sub } } })).toBe(0);
  });

  it("refuses text beyond 10,000 characters, a fifth picture and a picture that is not the person's", async () => {
    const g = person();
    const long = await g.start({ text: 'x'.repeat(10_001) });
    expect(long.status).toBe(400);
    expect(long.json.errors[0].field).toBe('text');
    const h = await g.headers();
    const ids = await Promise.all(Array.from({ length: 5 }, () => uploaded(t, h, png())));
    const five = await g.start({ text: 'pics', attachment_ids: ids });
    expect(five.status).toBe(422);
    expect(five.json.code).toBe('too_many_pictures');
    const unknown = await g.start({ text: 'pic', attachment_ids: [randomUUID()] });
    expect(unknown.status).toBe(422);
    expect(unknown.json).toMatchObject({ code: 'attachment_invalid', errors: [{ field: 'attachment_ids.0' }] });
    const theirs = await person().start({ text: 'not mine', attachment_ids: [ids[0]] });
    expect(theirs.status).toBe(422);
    expect(theirs.json.errors[0].field).toBe('attachment_ids.0');
    expect(await t.svc.db.conversation.count({ where: { contact: { externalId: g.sub } } })).toBe(0);
  });

  it('sends pictures: a real PNG named in a start and in a message shows in its part, readable at its address, used once', async () => {
    const g = person();
    await g.headers();
    const first = await uploaded(t, await g.headers(), png(7, 5));
    const r = await g.start({ text: '', attachment_ids: [first] });
    expect(r.status).toBe(201);
    expect(r.json.parts[0].attachments).toEqual([expect.objectContaining({ id: first, content_type: 'image/png', width: 7, height: 5 })]);
    const got = await fetch(reachable(t, r.json.parts[0].attachments[0].url));
    expect(got.status).toBe(200);
    expect(Buffer.from(await got.arrayBuffer()).equals(png(7, 5))).toBe(true);
    const again = await g.message(r.json.id, { text: 'same picture', attachment_ids: [first] });
    expect(again.status).toBe(422);
    const [a, b] = [await uploaded(t, await g.headers(), png(2, 2)), await uploaded(t, await g.headers(), png(3, 3))];
    const m = await g.message(r.json.id, { text: 'two more', attachment_ids: [b, a] });
    expect(m.status).toBe(201);
    expect(m.json.attachments.map((x: { id: string }) => x.id)).toEqual([b, a]);
    expect((await g.get(r.json.id)).json.parts.map((p: { attachments: unknown[] }) => p.attachments.length)).toEqual([1, 2]);
  });
});

describe('Idempotency-Key', () => {
  it('answers the same conversation when a start is sent again, and makes one', async () => {
    const g = person();
    const key = randomUUID();
    const first = await g.start({ text: 'Once' }, key);
    const again = await g.start({ text: 'Once' }, key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.json.id).toBe(first.json.id);
    expect(await t.svc.db.conversation.count({ where: { contact: { externalId: g.sub } } })).toBe(1);
    expect(await t.svc.db.outboxEvent.count({ where: { topic: 'conversation.started', externalId: g.sub } })).toBe(1);
  });

  it('makes one conversation of 50 identical starts sent at once', async () => {
    const g = person();
    const key = randomUUID();
    await g.headers(); // the token made once, not 50 times at once
    const answers = await Promise.all(Array.from({ length: 50 }, () => g.start({ text: 'At once' }, key)));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(201));
    expect(new Set(answers.map((a) => a.json.id)).size).toBe(1);
    expect(await t.svc.db.conversation.count({ where: { contact: { externalId: g.sub } } })).toBe(1);
    expect(await t.svc.db.conversationPart.count({ where: { conversationId: answers[0]!.json.id } })).toBe(1);
  });

  it('makes one part of 50 identical messages sent at once, and a new key makes another', async () => {
    const g = person();
    const { json: c } = await g.start({ text: 'Hi' });
    const key = randomUUID();
    const answers = await Promise.all(Array.from({ length: 50 }, () => g.message(c.id, { text: 'Once only' }, key)));
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(201));
    expect(new Set(answers.map((a) => a.json.id)).size).toBe(1);
    expect(answers[0]!.json.seq).toBe(2);
    const other = await g.message(c.id, { text: 'Once only' }, randomUUID());
    expect(other.json.seq).toBe(3);
    expect(await t.svc.db.conversationPart.count({ where: { conversationId: c.id } })).toBe(3);
  });

  it("is the person's own: another person with the same key gets a conversation of their own", async () => {
    const key = randomUUID();
    const a = await person().start({ text: 'A' }, key);
    const b = await person().start({ text: 'B' }, key);
    expect(b.status).toBe(201);
    expect(b.json.id).not.toBe(a.json.id);
  });

  it('refuses the same key with another request (422) and a key longer than 100 characters (400 naming the header)', async () => {
    const g = person();
    const key = randomUUID();
    expect((await g.start({ text: 'First' }, key)).status).toBe(201);
    const other = await g.start({ text: 'Something else' }, key);
    expect(other.status).toBe(422);
    expect(other.json.code).toBe('idempotency_key_reused');
    const long = await g.start({ text: 'Hi' }, 'k'.repeat(101));
    expect(long.status).toBe(400);
    expect(long.json.errors[0].field).toBe('Idempotency-Key');
    expect((await g.start({ text: 'Hi' }, 'k'.repeat(100))).status).toBe(201);
  });

  it('remembers a key for 24 hours, then forgets it', async () => {
    const g = guestOf(t, app.live, unique('user'), { exp: '3d' });
    const key = randomUUID();
    const now = t.clock.now();
    try {
      const first = await g.start({ text: 'Day one' }, key);
      t.clock.advance(24 * 3_600_000 - 1000);
      expect((await g.start({ text: 'Day one' }, key)).json.id).toBe(first.json.id);
      t.clock.advance(2000);
      const later = await g.start({ text: 'Day one' }, key);
      expect(later.status).toBe(201);
      expect(later.json.id).not.toBe(first.json.id);
    } finally {
      t.clock.set(now);
    }
  });
});

describe('the start rule', () => {
  it('never: 409 start_refused; when none is open: 409 conversation_open while one is, 201 once it is closed', async () => {
    const own = await seedApp(t.svc, 'Start rules');
    const ids = await modeIds(t, own);
    const g = guestOf(t, own.live, unique('user'));
    await setStartRule(t.ctx, ids.live, 'never');
    const never = await g.start({ text: 'Hi' });
    expect(never.status).toBe(409);
    expect(never.json.code).toBe('start_refused');

    await setStartRule(t.ctx, ids.live, 'when_none_open');
    const first = await g.start({ text: 'Hi' });
    expect(first.status).toBe(201);
    const second = await g.start({ text: 'Again' });
    expect(second.status).toBe(409);
    expect(second.json.code).toBe('conversation_open');
    // The test mode has rules of its own (the default: always).
    expect((await guestOf(t, own.test, g.sub).start({ text: 'Test mode' })).status).toBe(201);

    await teamCloses(t, first.json.id, false);
    expect((await g.start({ text: 'Now' })).status).toBe(201);
  });

  it('when none is open: of 10 starts with different keys sent at once, one is made', async () => {
    const own = await seedApp(t.svc, 'Start race');
    await setStartRule(t.ctx, (await modeIds(t, own)).live, 'when_none_open');
    const g = guestOf(t, own.live, unique('user'));
    await g.headers();
    const answers = await Promise.all(Array.from({ length: 10 }, () => g.start({ text: 'Race' }, randomUUID())));
    expect(answers.map((a) => a.status).sort()).toEqual([201, ...Array(9).fill(409)]);
  });
});

describe('reading and writing', () => {
  it("lists the person's conversations newest first, in pages with next_before", async () => {
    const g = person();
    const made: string[] = [];
    for (let i = 0; i < 5; i++) {
      made.push((await g.start({ text: `Conversation ${i}` })).json.id);
      t.clock.advance(1000);
    }
    // Activity moves a conversation to the top.
    await g.message(made[1]!, { text: 'Bump' });
    const order = [made[1], made[4], made[3], made[2], made[0]];
    const first = await g.list('?limit=2');
    expect(first.status).toBe(200);
    expect(first.json.items.map((i: { id: string }) => i.id)).toEqual(order.slice(0, 2));
    expect(first.json.items[0]).toMatchObject({ preview: 'Bump', unread: 0, state: 'open', last_seq: 2 });
    const second = await g.list(`?limit=2&before=${first.json.next_before}`);
    expect(second.json.items.map((i: { id: string }) => i.id)).toEqual(order.slice(2, 4));
    const last = await g.list(`?limit=2&before=${second.json.next_before}`);
    expect(last.json.items.map((i: { id: string }) => i.id)).toEqual(order.slice(4));
    expect(last.json.next_before).toBeNull();
    expect((await g.list()).json.items).toHaveLength(5);
  });

  it('refuses a bad limit or cursor, naming it', async () => {
    const g = person();
    for (const [query, field] of [
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?limit=ten', 'limit'],
      ['?before=nonsense', 'before'],
    ] as const) {
      const r = await g.list(query);
      expect(r.status, query).toBe(400);
      expect(r.json.errors[0].field).toBe(field);
    }
  });

  it("moves unread counts with the team's messages and the person's read", async () => {
    const g = person();
    const { json: c } = await g.start({ text: 'Question' });
    const { json: other } = await g.start({ text: 'Another' });
    await teamPart(t, c.id, 'message', 'Answer one');
    await teamPart(t, c.id, 'message', 'Answer two');
    await teamPart(t, other.id, 'message', 'Elsewhere');
    expect((await g.get(c.id)).json.unread).toBe(2);
    expect((await g.list()).json.items.find((i: { id: string }) => i.id === c.id).unread).toBe(2);

    const once = await g.read(c.id, 2);
    expect(once.status).toBe(200);
    expect(once.json).toEqual({ unread: 1, total: 2 });
    // A late or earlier read never moves the mark back.
    expect((await g.read(c.id, 1)).json).toEqual({ unread: 1, total: 2 });
    expect((await g.read(c.id, 1000)).json).toEqual({ unread: 0, total: 1 });
    // The person's own message reads everything before it.
    await g.message(other.id, { text: 'Thanks' });
    expect((await g.read(other.id, 0)).json).toEqual({ unread: 0, total: 0 });
    expect((await g.read(c.id, -1)).status).toBe(400);
  });

  it('never shows a team note: not in the conversation, the list, the count or the export', async () => {
    const g = person();
    const { json: c } = await g.start({ text: 'Hi' });
    await teamPart(t, c.id, 'note', 'Secret: VIP customer');
    await teamPart(t, c.id, 'message', 'Hello!');
    const r = await g.get(c.id);
    expect(r.json.parts.map((p: { kind: string; seq: number }) => [p.kind, p.seq])).toEqual([
      ['message', 1],
      ['message', 3],
    ]);
    expect(JSON.stringify(r.json)).not.toContain('Secret');
    expect(r.json).toMatchObject({ last_seq: 3, unread: 1, preview: 'Hello!' });
    await teamPart(t, c.id, 'note', 'Another secret');
    expect((await g.get(c.id)).json).toMatchObject({ last_seq: 3, preview: 'Hello!' });
    expect(JSON.stringify((await g.list()).json)).not.toContain('secret');
  });

  it('a message to a closed conversation opens it again, and the rating asked is asked no more', async () => {
    const g = person();
    const { json: c } = await g.start({ text: 'Hi' });
    await teamCloses(t, c.id, true);
    expect((await g.get(c.id)).json).toMatchObject({ state: 'closed', rating_asked: true });
    const m = await g.message(c.id, { text: 'One more thing' });
    expect(m.status).toBe(201);
    expect(m.json).toMatchObject({ kind: 'message', seq: 3, author: { kind: 'user' } });
    expect((await g.get(c.id)).json).toMatchObject({ state: 'open', rating_asked: false });
    const replied = await t.svc.db.outboxEvent.findMany({ where: { topic: 'conversation.replied', externalId: g.sub } });
    expect(replied.map((e) => e.data)).toEqual([{ conversation_id: c.id, part_id: m.json.id }]);
  });

  it('shows the person the name Identify gave them', async () => {
    const sub = unique('named');
    const server = { Authorization: `Bearer ${app.live.server_key}` };
    const { call } = await import('./support/http.js');
    await call(t.url, 'PUT', `/server/v1/contacts/${sub}`, { headers: server, json: { display_name: 'Ada Lovelace' } });
    const r = await guestOf(t, app.live, sub).start({ text: 'Hi' });
    expect(r.json.parts[0].author.name).toBe('Ada Lovelace');
  });
});

describe('what a person cannot reach', () => {
  it("another person's conversation, or another mode's, is 404 on every route", async () => {
    const owner = person();
    const { json: c } = await owner.start({ text: 'Mine' });
    const stranger = person();
    const testSelf = guestOf(t, app.test, owner.sub);
    for (const g of [stranger, testSelf]) {
      expect((await g.get(c.id)).status).toBe(404);
      expect((await g.message(c.id, { text: 'Hi' })).status).toBe(404);
      expect((await g.read(c.id, 1)).status).toBe(404);
      expect((await g.rate(c.id, { rating: 5 })).status).toBe(404);
      expect((await g.wait(c.id, 0)).status).toBe(404);
      expect((await g.list()).json.items).toEqual([]);
    }
    expect((await owner.get(randomUUID())).status).toBe(404);
    expect((await owner.get('not-an-id')).status).toBe(404);
    expect(await t.svc.db.conversationPart.count({ where: { conversationId: c.id } })).toBe(1);
  });

  it('every messenger route is 404 while the messenger is switched off', async () => {
    const own = await seedApp(t.svc, 'Messenger off');
    const ids = await modeIds(t, own);
    const g = guestOf(t, own.live, unique('user'));
    const { json: c } = await g.start({ text: 'Before' });
    await t.svc.db.appMode.update({ where: { id: ids.live }, data: { messengerOn: false } });
    // The credential cache hears of the change (a NOTIFY at commit); give it a moment.
    await new Promise((r) => setTimeout(r, 200));
    const answers = [
      await g.list(),
      await g.start({ text: 'Hi' }),
      await g.get(c.id),
      await g.message(c.id, { text: 'Hi' }),
      await g.rate(c.id, { rating: 1 }),
      await g.read(c.id, 1),
      await g.wait(c.id, 0),
    ];
    expect(answers.map((a) => a.status)).toEqual(Array(7).fill(404));
    expect(answers[1]!.json.code).toBe('not_found');
    expect(await t.svc.db.conversation.count({ where: { appModeId: ids.live } })).toBe(1);
  });
});
