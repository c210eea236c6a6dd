import { randomUUID } from 'node:crypto';
import { Validator } from '@seriousme/openapi-schema-validator';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from '../rest-facade/routes.js';
import { MAX_GUEST_BATCH } from '../src/domain/events/guest-events.js';
import { MAX_EVENT_NAME } from '../src/domain/events/names.js';
import { MAX_PROP_KEY, MAX_PROP_VALUE, MAX_PROPS } from '../src/domain/events/props.js';
import { MAX_SERVER_BATCH } from '../src/domain/events/server-events.js';
import { serverApi, unique } from './support/factories.js';
import { call, userToken } from './support/http.js';
import { type SeededApp, seedApp, startTestServer, type TestServer } from './support/server.js';

let t: TestServer;
let app: SeededApp;
let doc: any;
beforeAll(async () => {
  t = await startTestServer();
  app = await seedApp(t.svc);
  doc = (await call(t.url, 'GET', '/openapi.json')).json;
});
afterAll(() => t.close());

describe('/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('lists every route built, with its refusals as problem documents', async () => {
    for (const route of allRoutes()) {
      const op = doc.paths[route.path]?.[route.method];
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      for (const status of route.errors) expect(op.responses[status].content['application/problem+json']).toBeDefined();
    }
  });
});

// What the document says a request may be, and what the service does with it, compared by sending
// it. `call` holds every answer to the document too, so a status answered but not listed fails here.
describe('the document and the service agree', () => {
  const serverKey = () => ({ Authorization: `Bearer ${app.live.server_key}` });
  const guestKey = async (sub = 'agree') => ({
    'X-CRM-App-Key': app.live.app_key,
    Authorization: `Bearer ${await userToken(app.live.identity_secret, { sub })}`,
  });
  const ago = (ms: number) => new Date(t.clock.now().getTime() - ms).toISOString();
  const day = 86_400_000;

  /** A request body schema of the document, by component name, compiled as a client's validator would. */
  const fits = (component: string) => {
    const ajv = new Ajv2020.default({ strict: false, allErrors: false, validateFormats: true });
    addFormats.default(ajv);
    ajv.addSchema({ ...JSON.parse(JSON.stringify(doc).replaceAll('"#/components/', '"doc#/components/')), $id: 'doc' });
    const validate = ajv.getSchema(`doc#/components/schemas/${component}`);
    expect(validate, component).toBeDefined();
    return (value: unknown) => validate!(value) as boolean;
  };
  const itemsOf = (component: string) => doc.components.schemas[component].properties.events;
  const props = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, 'v']));

  it('answers 413 to a body over the size limit on every route that reads one, with or without a credential, and lists it', async () => {
    const big = JSON.stringify({ pad: 'x'.repeat(t.svc.config.maxBodyBytes) });
    const reading = allRoutes().filter((r) => r.method !== 'get');
    expect(reading.map((r) => `${r.method} ${r.path}`)).toContain('delete /server/v1/contacts/{external_id}');
    for (const route of reading) {
      expect(doc.paths[route.path][route.method].responses['413'], `${route.method} ${route.path}`).toBeDefined();
      const path = route.path.replace(/\{\w+\}/g, 'big');
      const credential = route.surface === 'guest' ? await guestKey() : route.surface === 'server' ? serverKey() : {};
      for (const headers of [credential, {}]) {
        const r = await call(t.url, route.method.toUpperCase(), path, {
          headers: { ...headers, 'Content-Type': 'application/json' },
          body: big,
        });
        expect([route.method, route.path, r.status, r.json?.code]).toEqual([route.method, route.path, 413, 'payload_too_large']);
      }
    }
    expect(await t.svc.db.contact.count({ where: { externalId: 'big' } })).toBe(0);
  });

  it('a route that takes no body ignores one that is not JSON', async () => {
    const r = await call(t.url, 'DELETE', '/server/v1/contacts/no-body-here', {
      headers: { ...serverKey(), 'Content-Type': 'application/json' },
      body: '{',
    });
    expect(r.status).toBe(202);
  });

  it('server events have no age limit: 9 days old and 3 days ahead are kept', async () => {
    const external = unique('backfill');
    const r = await serverApi(t, app.live.server_key).sendEvents([
      { id: unique('old'), external_id: external, name: 'imported', at: ago(9 * day) },
      { id: unique('ahead'), external_id: external, name: 'imported', at: ago(-3 * day) },
    ]);
    expect(r).toEqual({ accepted: 2, rejected: [] });
  });

  it('describes the events of a server batch: members, limits, and at most 500', async () => {
    const items = itemsOf('ServerEvents');
    expect(items.maxItems).toBe(MAX_SERVER_BATCH);
    expect(items.items).toEqual({ $ref: '#/components/schemas/ServerEvent' });
    const event = doc.components.schemas.ServerEvent;
    expect(event.required.sort()).toEqual(['at', 'external_id', 'id', 'name']);
    expect(event.properties.at.format).toBe('date-time');
    const batch = fits('ServerEvents');
    const one = { id: 'e', external_id: 'p', name: 'n', at: t.clock.now().toISOString() };
    expect(batch({ events: Array(MAX_SERVER_BATCH).fill(one) })).toBe(true);
    expect(batch({ events: Array(MAX_SERVER_BATCH + 1).fill(one) })).toBe(false);
  });

  it('describes the events of a guest batch: a UUID id, members, limits, and at most 50', async () => {
    const items = itemsOf('EventsBody');
    expect(items.maxItems).toBe(MAX_GUEST_BATCH);
    expect(items.items).toEqual({ $ref: '#/components/schemas/EventBody' });
    const event = doc.components.schemas.EventBody;
    expect(event.required.sort()).toEqual(['id', 'name', 'occurred_at']);
    expect(event.properties.id.format).toBe('uuid');
    expect(event.properties.occurred_at.format).toBe('date-time');
    const batch = fits('EventsBody');
    const one = () => ({ id: randomUUID(), name: 'app_opened', occurred_at: t.clock.now().toISOString() });
    const body = (n: number) => ({ app_version: '1', platform: 'web', events: Array.from({ length: n }, one) });
    expect(batch(body(MAX_GUEST_BATCH))).toBe(true);
    expect(batch(body(MAX_GUEST_BATCH + 1))).toBe(false);
    const r = await call(t.url, 'POST', '/guest/v1/events', { headers: await guestKey(), json: body(MAX_GUEST_BATCH + 1) });
    expect([r.status, r.json.code]).toEqual([413, 'too_many_events']);
  });

  // Each variant of an event, judged by the document and by the service: what the document says
  // fits is kept, and what it says does not fit is refused in `rejected` (the rest of the batch kept).
  const variants = (base: Record<string, unknown>): [string, Record<string, unknown>][] => [
    ['as it should be', base],
    ['a name of every allowed character', { ...base, name: 'Ok name_1.2:3/4-5' }],
    ['a name of the longest length', { ...base, name: 'n'.repeat(MAX_EVENT_NAME) }],
    ['a name too long', { ...base, name: 'n'.repeat(MAX_EVENT_NAME + 1) }],
    ['a name with a character not allowed', { ...base, name: 'bad name!' }],
    ['a name starting with a space', { ...base, name: ' lead' }],
    ['an empty name', { ...base, name: '' }],
    ['no name', { ...base, name: undefined }],
    ['a prop name of the longest length', { ...base, props: { ['k'.repeat(MAX_PROP_KEY)]: 'v' } }],
    ['a prop name too long', { ...base, props: { ['k'.repeat(MAX_PROP_KEY + 1)]: 'v' } }],
    ['an empty prop name', { ...base, props: { '': 'v' } }],
    ['a prop value of the longest length', { ...base, props: { k: 'v'.repeat(MAX_PROP_VALUE) } }],
    ['a prop value too long', { ...base, props: { k: 'v'.repeat(MAX_PROP_VALUE + 1) } }],
    ['a prop value that is not a string', { ...base, props: { k: 1 } }],
    ['the most props', { ...base, props: props(MAX_PROPS) }],
    ['a prop too many', { ...base, props: props(MAX_PROPS + 1) }],
  ];
  // Each variant its own event name (made on first sight), so no other variant's props are in its way.
  const named = (list: [string, Record<string, unknown>][], prefix: string) =>
    list.map(
      ([what, e], i) =>
        [what, e.name === (list[0]![1] as { name: string }).name ? { ...e, name: `${prefix}_${i}` } : e] as [
          string,
          Record<string, unknown>,
        ],
    );

  const judge = (
    sent: [string, Record<string, unknown>][],
    fitsEvent: (e: unknown) => boolean,
    answer: { rejected?: { index: number; reason: string }[] },
  ) =>
    sent.map(([what, e], index) => {
      const refusal = answer.rejected?.find((x) => x.index === index);
      return { what, document: fitsEvent(e) ? 'fits' : 'does not fit', service: refusal ? `refused (${refusal.reason})` : 'kept' };
    });
  const agreeing = (judged: { document: string; service: string }[]) =>
    judged.filter((j) => (j.document === 'fits') === (j.service === 'kept'));

  it('server events: what the document says fits is kept, and what it refuses is refused', async () => {
    const prefix = unique('srv');
    const sent: [string, Record<string, unknown>][] = [
      ...named(variants({ external_id: 'agree', name: prefix, at: t.clock.now().toISOString() }), prefix),
      ['9 days old', { external_id: 'agree', name: `${prefix}_old`, at: ago(9 * day) }],
      ['a time that is not RFC 3339', { external_id: 'agree', name: `${prefix}_t`, at: 'yesterday' }],
      ['a time without its offset', { external_id: 'agree', name: `${prefix}_t`, at: '2026-01-01T00:00:00' }],
      ['an empty id', { id: '', external_id: 'agree', name: `${prefix}_id`, at: ago(0) }],
      ['an id too long', { id: 'i'.repeat(201), external_id: 'agree', name: `${prefix}_id`, at: ago(0) }],
      [
        'an id of the longest length',
        { id: `${prefix}${'i'.repeat(200 - prefix.length)}`, external_id: 'agree', name: `${prefix}_id`, at: ago(0) },
      ],
      ['an empty external_id', { external_id: '', name: `${prefix}_x`, at: ago(0) }],
      ['an external_id too long', { external_id: 'x'.repeat(201), name: `${prefix}_x`, at: ago(0) }],
      ['no external_id', { external_id: undefined, name: `${prefix}_x`, at: ago(0) }],
    ].map(([what, e], i) => [what as string, { id: `${prefix}-${i}`, ...(e as object) }]);
    const r = await call(t.url, 'POST', '/server/v1/events', { headers: serverKey(), json: { events: sent.map(([, e]) => e) } });
    expect(r.status).toBe(202);
    const judged = judge(sent, fits('ServerEvent'), r.json);
    expect(agreeing(judged)).toEqual(judged);
    expect(judged.filter((j) => j.service === 'kept').length).toBeGreaterThan(5);
  });

  it('guest events: what the document says fits is kept, and what it refuses is refused', async () => {
    const prefix = unique('gst');
    const base = variants({ name: prefix, occurred_at: t.clock.now().toISOString() });
    const sent: [string, Record<string, unknown>][] = [
      ...named(base, prefix),
      ['an id that is not a UUID', { id: 'not-a-uuid', name: `${prefix}_id`, occurred_at: ago(0) }],
      ['a UUID in capitals', { id: randomUUID().toUpperCase(), name: `${prefix}_id`, occurred_at: ago(0) }],
      ['a time that is not RFC 3339', { name: `${prefix}_t`, occurred_at: '1 Jan 2026' }],
    ].map(([what, e]) => [what as string, { id: randomUUID(), ...(e as object) }]);
    // Guests send only built-in events or those the app declares for clients.
    const names = [
      ...new Set(
        sent.map(([, e]) => e.name).filter((n): n is string => typeof n === 'string' && /^[A-Za-z0-9][A-Za-z0-9 _.:/-]{0,99}$/.test(n)),
      ),
    ];
    await serverApi(t, app.live.server_key).declareEvents(names.map((name) => ({ name, source: 'both' })));
    const r = await call(t.url, 'POST', '/guest/v1/events', {
      headers: await guestKey(),
      json: { app_version: '1', platform: 'ios', events: sent.map(([, e]) => e) },
    });
    expect(r.status).toBe(202);
    const judged = judge(sent, fits('EventBody'), r.json);
    expect(agreeing(judged)).toEqual(judged);
    expect(judged.filter((j) => j.service === 'kept').length).toBeGreaterThan(5);
  });

  it('event definitions: at most 500 in one request, by the document and by the service', async () => {
    const body = (n: number) => ({ definitions: Array.from({ length: n }, (_, i) => ({ name: `cap_${i}` })) });
    const declaration = fits('EventDefinitions');
    expect(declaration(body(500))).toBe(true);
    expect(declaration(body(501))).toBe(false);
    const r = await call(t.url, 'PUT', '/server/v1/event-definitions', { headers: serverKey(), json: body(501) });
    expect([r.status, r.json.errors[0].field]).toEqual([400, 'definitions']);
  });

  it('public app details: 404 for a key no app has, 400 for one that cannot be a key, each described', async () => {
    const op = doc.paths['/public/v1/apps/{key}'].get;
    expect(op.responses['404'].description).toMatch(/no app has this key/i);
    expect((await call(t.url, 'GET', '/public/v1/apps/app_nobody')).json).toMatchObject({ status: 404, code: 'not_found' });
    expect((await call(t.url, 'GET', `/public/v1/apps/${'k'.repeat(101)}`)).json).toMatchObject({
      status: 400,
      code: 'invalid_request',
      errors: [{ field: 'key' }],
    });
    await t.svc.db.appMode.update({ where: { appKey: app.test.app_key }, data: { archived: true } });
    expect((await call(t.url, 'GET', `/public/v1/apps/${app.test.app_key}`)).status).toBe(404);
  });
});
