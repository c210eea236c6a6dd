import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/http.js';
import { staffApp, unique } from './support/factories.js';
import { staffApi } from './support/graphql.js';
import { guestOf, teamCloses, teamPart } from './support/messenger.js';
import { type SeededApp, type TestServer, startWithApp } from './support/server.js';

// A person's conversations in the export (the parts they may see, the values collected) and gone
// after an erase, in both modes: conversations, parts, read marks, collected values, idempotency keys.

let t: TestServer;
let app: SeededApp;
beforeAll(async () => ({ t, app } = await startWithApp()));
afterAll(() => t?.close());

const server = (method: string, path: string) => call(t.url, method, path, { headers: { Authorization: `Bearer ${app.live.server_key}` } });

/** A conversation with a note, a reply, a rating and a collected value. */
async function conversationOf(mode: SeededApp['live'], sub: string) {
  const g = guestOf(t, mode, sub);
  const { json } = await g.start({ text: 'My parcel is lost' }, randomUUID());
  await teamPart(t, json.id, 'note', 'Note: check with the courier');
  await teamPart(t, json.id, 'message', 'Sorry to hear that');
  await g.read(json.id, 10);
  await teamCloses(t, json.id, true);
  await g.rate(json.id, { rating: 5, remark: 'Found it' });
  const row = await t.svc.db.conversation.findUniqueOrThrow({ where: { id: json.id } });
  await t.svc.db.collectedValue.create({
    data: {
      id: randomUUID(),
      appModeId: row.appModeId,
      conversationId: row.id,
      key: 'email',
      value: `${sub}@example.com`,
      createdAt: t.clock.now(),
    },
  });
  return json.id as string;
}

describe("a person's conversations", () => {
  it('are in the export with the parts they may see and the values collected, never a note', async () => {
    const sub = unique('exported');
    const id = await conversationOf(app.live, sub);
    const r = await server('GET', `/server/v1/contacts/${sub}/export`);
    expect(r.status).toBe(200);
    expect(r.json.conversations).toEqual([
      expect.objectContaining({
        id,
        state: 'closed',
        rating: expect.objectContaining({ value: 5, remark: 'Found it' }),
        parts: [
          expect.objectContaining({ seq: 1, kind: 'message', author: { kind: 'contact', name: 'User' }, text: 'My parcel is lost' }),
          expect.objectContaining({
            seq: 3,
            kind: 'message',
            author: { kind: 'staff', name: 'Anna from Support' },
            text: 'Sorry to hear that',
          }),
          expect.objectContaining({ seq: 4, kind: 'event', event: 'closed' }),
          expect.objectContaining({ seq: 5, kind: 'rating', text: 'Found it' }),
        ],
      }),
    ]);
    expect(JSON.stringify(r.json)).not.toContain('courier');
    expect(r.json.collected).toEqual([{ conversationId: id, key: 'email', value: `${sub}@example.com` }]);
  });

  it('a person known only by a conversation has an export', async () => {
    const sub = unique('only');
    await guestOf(t, app.live, sub).start({ text: 'Hi' });
    expect((await server('GET', `/server/v1/contacts/${sub}/export`)).json.conversations).toHaveLength(1);
  });

  it("are erased in both modes, leaving nothing of them and nothing of anyone else's", async () => {
    const sub = unique('erased');
    const ids = [await conversationOf(app.live, sub), await conversationOf(app.test, sub)];
    const keep = await conversationOf(app.live, unique('kept'));
    const contacts = (await t.svc.db.contact.findMany({ where: { externalId: sub }, select: { id: true } })).map((c) => c.id);
    const left = async () => ({
      conversations: await t.svc.db.conversation.count({ where: { id: { in: ids } } }),
      parts: await t.svc.db.conversationPart.count({ where: { conversationId: { in: ids } } }),
      reads: await t.svc.db.conversationRead.count({ where: { conversationId: { in: ids } } }),
      collected: await t.svc.db.collectedValue.count({ where: { conversationId: { in: ids } } }),
      keys: await t.svc.db.idempotencyKey.count({ where: { contactId: { in: contacts } } }),
      outbox: await t.svc.db.outboxEvent.count({ where: { externalId: sub, topic: { startsWith: 'conversation.' } } }),
    });
    expect(await left()).toEqual({ conversations: 2, parts: 10, reads: 2, collected: 2, keys: 2, outbox: 6 });

    expect((await server('DELETE', `/server/v1/contacts/${sub}`)).status).toBe(202);
    await t.engine.runDue();
    expect(await left()).toEqual({ conversations: 0, parts: 0, reads: 0, collected: 0, keys: 0, outbox: 0 });
    const request = await t.svc.db.eraseRequest.findFirstOrThrow({ where: { state: 'done' }, orderBy: { requestedAt: 'desc' } });
    expect(request.removed).toMatchObject({
      conversations: 2,
      conversationParts: 10,
      conversationReads: 2,
      collectedValues: 2,
      idempotencyKeys: 2,
    });
    expect(await t.svc.db.conversationPart.count({ where: { conversationId: keep } })).toBe(5);
    // Within the block the person cannot write again.
    const again = await guestOf(t, app.live, sub).start({ text: 'Back again' });
    expect(again.status).toBe(409);
    expect(again.json.code).toBe('erased');
    expect((await guestOf(t, app.live, sub).list()).json.items).toEqual([]);
  });

  it("are posted to webhooks with the conversation and part ids, and the person's external id", async () => {
    const own = await staffApp(t, 'Conversation hooks');
    const topics = ['conversation.started', 'conversation.replied', 'conversation.closed', 'conversation.rated'];
    await staffApi(
      () => t.url,
      () => own.owner,
    ).ok('mutation($m: ID!, $u: String!, $t: [String!]!) { addWebhookEndpoint(appModeId: $m, url: $u, topics: $t) { endpoint { id } } }', {
      m: own.modes.live,
      u: 'https://hooks.example.com/crm',
      t: topics,
    });
    const sub = unique('hooked');
    const g = guestOf(t, own.live, sub);
    const { json: c } = await g.start({ text: 'Hi' });
    const m = await g.message(c.id, { text: 'More' });
    await teamCloses(t, c.id, true);
    const rated = await g.rate(c.id, { rating: 3 });
    const closing = (await g.get(c.id)).json.parts.find((p: { event?: string }) => p.event === 'closed');
    await t.svc.outbox.drain();
    const bodies = (await t.svc.db.webhookDelivery.findMany({ where: { appModeId: own.modes.live } })).map((d) => JSON.parse(d.body));
    bodies.sort((a, b) => topics.indexOf(a.type) - topics.indexOf(b.type));
    expect(bodies.map((b) => [b.type, b.data, b.contact])).toEqual([
      ['conversation.started', { conversation_id: c.id, part_id: c.parts[0].id }, { external_id: sub }],
      ['conversation.replied', { conversation_id: c.id, part_id: m.json.id }, { external_id: sub }],
      ['conversation.closed', { conversation_id: c.id, part_id: closing.id }, { external_id: sub }],
      ['conversation.rated', { conversation_id: c.id, part_id: rated.json.id, rating: 3 }, { external_id: sub }],
    ]);
  });
});
