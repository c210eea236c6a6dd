import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_PAGE } from '../src/domain/personal-data/registry.js';
import { call } from './support/http.js';
import { seedParts } from './support/parts.js';
import { type SeededApp, type TestServer, startWithApp } from './support/server.js';

// The export's long members are read EXPORT_PAGE rows at a time while it is written: over several
// pages, with rows that tie on their time, every row comes once, in the member's order, as one
// read of the whole would give it.

let t: TestServer;
let app: SeededApp;
beforeAll(async () => ({ t, app } = await startWithApp()));
afterAll(() => t?.close());

const server = (method: string, path: string, json?: unknown) =>
  call(t.url, method, path, { headers: { Authorization: `Bearer ${app.live.server_key}` }, json });

const COUNT = EXPORT_PAGE * 2 + 37;
/** Times that tie three by three, so the order's second key (the id) decides within a page and across pages. */
const at = (i: number) => new Date(Date.UTC(2026, 0, 1) + Math.floor(i / 3) * 60_000);

describe('an export over many pages', () => {
  it('carries every conversation, part, collected value, notice and consent choice once, in order', async () => {
    expect((await server('PUT', '/server/v1/contacts/pager', { display_name: 'Pager' })).status).toBe(200);
    const contact = await t.svc.db.contact.findFirstOrThrow({ where: { externalId: 'pager' } });
    const { appModeId, id: contactId } = contact;
    const ids = Array.from({ length: COUNT }, () => randomUUID());
    await t.svc.db.conversation.createMany({
      data: ids.map((id, i) => ({
        id,
        appModeId,
        contactId,
        createdAt: at(i),
        updatedAt: at(i),
        lastActivityAt: at(i),
        visibleActivityAt: at(i),
      })),
    });
    await t.svc.db.collectedValue.createMany({
      data: ids.map((conversationId, i) => ({
        id: randomUUID(),
        appModeId,
        conversationId,
        key: 'email',
        value: `p${i}@example.com`,
        createdAt: at(i),
      })),
    });
    await t.svc.db.notice.createMany({
      data: ids.map((_, i) => ({
        id: randomUUID(),
        appModeId,
        contactId,
        title: `Notice ${i}`,
        source: 'staff' as const,
        createdAt: at(i),
      })),
    });
    await t.svc.db.consentChange.createMany({
      data: ids.map((_, i) => ({
        id: randomUUID(),
        appModeId,
        contactId,
        channel: 'email' as const,
        value: i % 2 === 0,
        changedAt: at(i),
        source: 'server',
        recordedAt: at(i),
      })),
    });
    // One long conversation: its parts over several pages, every 7th a team note the export leaves out.
    const long = ids[5]!;
    await seedParts(t, long, COUNT, { noteEvery: 7 });

    const r = await server('GET', '/server/v1/contacts/pager/export');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);

    const conversations = await t.svc.db.conversation.findMany({ where: { contactId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    expect(r.json.conversations.map((c: { id: string }) => c.id)).toEqual(conversations.map((c) => c.id));
    const parts = r.json.conversations.find((c: { id: string }) => c.id === long).parts;
    expect(parts.map((p: { seq: number }) => p.seq)).toEqual(Array.from({ length: COUNT }, (_, i) => i + 1).filter((s) => s % 7 !== 0));
    expect(r.json.conversations.filter((c: { id: string }) => c.id !== long).every((c: { parts: unknown[] }) => c.parts.length === 0)).toBe(
      true,
    );
    expect(r.json.collected.map((v: { conversationId: string }) => v.conversationId)).toEqual(conversations.map((c) => c.id));

    const notices = await t.svc.db.notice.findMany({ where: { contactId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
    expect(r.json.notices.map((n: { id: string }) => n.id)).toEqual(notices.map((n) => n.id));
    expect(notices).toHaveLength(COUNT);

    const consent = await t.svc.db.consentChange.findMany({ where: { contactId }, orderBy: [{ recordedAt: 'asc' }, { id: 'asc' }] });
    expect(r.json.consentHistory).toHaveLength(COUNT);
    expect(r.json.consentHistory.map((c: { value: boolean; recordedAt: string }) => [c.value, c.recordedAt])).toEqual(
      consent.map((c) => [c.value, c.recordedAt.toISOString()]),
    );
  });
});
