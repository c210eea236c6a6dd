import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unique } from './support/factories.js';
import { guestOf, teamCloses } from './support/messenger.js';
import { type SeededApp, type TestServer, startWithApp } from './support/server.js';

// Behaviour 5: a rating applies to a closed conversation that asked for one, once (409 otherwise),
// 1 to MaxRating (5); the answer is a Part.

let t: TestServer;
let app: SeededApp;
beforeAll(async () => ({ t, app } = await startWithApp()));
afterAll(() => t?.close());

async function conversation(opts: { close?: boolean; askRating?: boolean } = {}) {
  const g = guestOf(t, app.live, unique('rater'));
  const { json } = await g.start({ text: 'Help me' });
  if (opts.close) await teamCloses(t, json.id, opts.askRating ?? false);
  return { g, id: json.id as string };
}

describe('rating a conversation', () => {
  it('takes a rating of a closed conversation that asked, once: 200 with the rating part', async () => {
    const { g, id } = await conversation({ close: true, askRating: true });
    const seen = await g.get(id);
    expect(seen.json).toMatchObject({ state: 'closed', rating_asked: true, rating: null });
    // The closing line tells the messenger to ask.
    expect(seen.json.parts[1]).toMatchObject({
      kind: 'event',
      event: 'closed',
      rating_asked: true,
      author: { kind: 'teammate', name: 'Anna from Support' },
    });

    const r = await g.rate(id, { rating: 4, remark: 'Quick and kind' });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({
      kind: 'rating',
      seq: 3,
      author: { kind: 'user' },
      rating: { value: 4, remark: 'Quick and kind' },
      blocks: [{ type: 'paragraph', spans: [{ text: 'Quick and kind' }] }],
    });
    expect((await g.get(id)).json).toMatchObject({
      state: 'closed',
      rating_asked: false,
      rating: { value: 4, remark: 'Quick and kind' },
      last_seq: 3,
    });
    const rated = await t.svc.db.outboxEvent.findMany({ where: { topic: 'conversation.rated', externalId: g.sub } });
    expect(rated.map((e) => e.data)).toEqual([{ conversation_id: id, part_id: r.json.id, rating: 4 }]);
    const closed = await t.svc.db.outboxEvent.findMany({ where: { topic: 'conversation.closed', externalId: g.sub } });
    expect(closed.map((e) => e.data)).toEqual([{ conversation_id: id, part_id: seen.json.parts[1].id }]);

    const twice = await g.rate(id, { rating: 1 });
    expect(twice.status).toBe(409);
    expect(twice.json.code).toBe('already_rated');
    expect((await g.get(id)).json.rating.value).toBe(4);
  });

  it('refuses a rating of an open conversation, and of a closed one that did not ask (409)', async () => {
    const open = await conversation();
    const r = await open.g.rate(open.id, { rating: 5 });
    expect(r.status).toBe(409);
    expect(r.json.code).toBe('conversation_not_closed');
    const notAsked = await conversation({ close: true, askRating: false });
    const n = await notAsked.g.rate(notAsked.id, { rating: 5 });
    expect(n.status).toBe(409);
    expect(n.json.code).toBe('rating_not_asked');
    expect(await t.svc.db.conversationPart.count({ where: { conversationId: { in: [open.id, notAsked.id] }, kind: 'rating' } })).toBe(0);
  });

  it('takes one of 20 ratings sent at once', async () => {
    const { g, id } = await conversation({ close: true, askRating: true });
    await g.headers();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => g.rate(id, { rating: 1 + (i % 5) })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(19).fill(409)]);
    expect(await t.svc.db.conversationPart.count({ where: { conversationId: id, kind: 'rating' } })).toBe(1);
  });

  it('refuses a rating outside 1 to 5 or a remark beyond 1,000 characters, naming the field', async () => {
    const { g, id } = await conversation({ close: true, askRating: true });
    for (const [body, field] of [
      [{ rating: 0 }, 'rating'],
      [{ rating: 6 }, 'rating'],
      [{ rating: 4.5 }, 'rating'],
      [{}, 'rating'],
      [{ rating: 3, remark: 'x'.repeat(1001) }, 'remark'],
    ] as const) {
      const r = await g.rate(id, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.errors[0].field).toBe(field);
    }
    expect((await g.rate(id, { rating: 5 })).json).toMatchObject({ rating: { value: 5, remark: null }, blocks: [] });
  });

  it('a rated conversation that is opened and closed again is not rated twice', async () => {
    const { g, id } = await conversation({ close: true, askRating: true });
    expect((await g.rate(id, { rating: 2 })).status).toBe(200);
    await g.message(id, { text: 'Actually, one more thing' });
    await teamCloses(t, id, true);
    expect((await g.get(id)).json).toMatchObject({ state: 'closed', rating_asked: false, rating: { value: 2 } });
    expect((await g.rate(id, { rating: 5 })).json.code).toBe('already_rated');
  });
});
