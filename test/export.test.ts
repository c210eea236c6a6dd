import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_EVENT_LIMIT } from '../src/domain/events/personal-data.js';
import { call } from './support/http.js';
import { type SeededApp, type TestServer, startWithApp } from './support/server.js';

let t: TestServer;
let app: SeededApp;
beforeAll(async () => ({ t, app } = await startWithApp()));
afterAll(() => t.close());

const server = (method: string, path: string, json?: unknown) =>
  call(t.url, method, path, { headers: { Authorization: `Bearer ${app.live.server_key}` }, json });

describe('export', () => {
  it('answers every member the spec names, in its shape, with events newest first', async () => {
    await server('PUT', '/server/v1/contacts/ex1', {
      display_name: 'Ex',
      email: 'ex@example.com',
      attributes: { plan: 'pro', seats: 3, labels: ['a', 'b'] },
      consent: { offers_by_email: true },
    });
    const base = t.clock.now().getTime();
    await server('POST', '/server/v1/events', {
      events: [
        { id: 'x1', external_id: 'ex1', name: 'older', at: new Date(base - 2000).toISOString(), props: { n: '1' } },
        { id: 'x2', external_id: 'ex1', name: 'newer', at: new Date(base - 1000).toISOString(), props: { ok: 'true' } },
      ],
    });
    const r = await server('GET', '/server/v1/contacts/ex1/export');
    expect(r.status).toBe(200);
    for (const member of [
      'attributes',
      'tags',
      'notes',
      'events',
      'eventsTruncated',
      'conversations',
      'tickets',
      'articleRatings',
      'receipts',
      'surveyResponses',
      'workflows',
      'collected',
      'testPhone',
      'testSends',
      'devices',
      'notices',
      'subscriptions',
      'consentHistory',
    ])
      expect(r.json, member).toHaveProperty(member);
    expect(r.json.attributes).toEqual(
      expect.arrayContaining([
        { name: 'display_name', value: 'Ex' },
        { name: 'email', value: 'ex@example.com' },
        { name: 'plan', value: 'pro' },
        { name: 'seats', value: '3' },
        { name: 'labels', value: '["a","b"]' },
      ]),
    );
    expect(r.json.events).toEqual([
      { name: 'newer', occurredAt: new Date(base - 1000).toISOString(), props: { ok: 'true' } },
      { name: 'older', occurredAt: new Date(base - 2000).toISOString(), props: { n: '1' } },
    ]);
    expect(r.json.eventsTruncated).toBe(false);
    expect(r.json.consentHistory).toEqual([expect.objectContaining({ channel: 'email', value: true })]);
  });

  it('keeps only the newest events and says so', async () => {
    const base = t.clock.now().getTime();
    for (let i = 0; i < EXPORT_EVENT_LIMIT + 1; i += 500) {
      const events = Array.from({ length: Math.min(500, EXPORT_EVENT_LIMIT + 1 - i) }, (_, j) => ({
        id: randomUUID(),
        external_id: 'many',
        name: 'tick',
        at: new Date(base - (i + j) * 1000).toISOString(),
      }));
      await server('POST', '/server/v1/events', { events });
    }
    const r = await server('GET', '/server/v1/contacts/many/export');
    expect(r.json.events).toHaveLength(EXPORT_EVENT_LIMIT);
    expect(r.json.eventsTruncated).toBe(true);
    expect(r.json.events[0].occurredAt).toBe(new Date(base).toISOString());
  });

  it('answers 404 when nothing is kept about the person', async () => {
    const r = await server('GET', '/server/v1/contacts/nobody/export');
    expect(r.status).toBe(404);
    expect(r.json.code).toBe('not_found');
  });
});
