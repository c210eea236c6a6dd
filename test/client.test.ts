import { randomUUID } from 'node:crypto';
import createClient from 'openapi-fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userToken } from './support/http.js';
import type { paths } from './support/openapi-types.js';
import { type SeededApp, type TestServer, startWithApp } from './support/server.js';

// A client generated from the published document, as customers make theirs (openapi-typescript's
// types driving openapi-fetch), walking the main flows of each surface. A document that stops
// matching the service fails here: at the type check, or when an answer does not come back.

let t: TestServer;
let app: SeededApp;
beforeAll(async () => ({ t, app } = await startWithApp()));
afterAll(() => t?.close());

const client = (headers: Record<string, string>) => createClient<paths>({ baseUrl: t.url, headers });

describe('a generated client', () => {
  it('walks the server API: identify, declare, send, export, erase', async () => {
    const server = client({ Authorization: `Bearer ${app.live.server_key}` });
    const id = `client-${randomUUID()}`;
    const identified = await server.PUT('/server/v1/contacts/{external_id}', {
      params: { path: { external_id: id } },
      body: { display_name: 'Cli', email: 'Cli@Example.com', attributes: { plan: 'pro' }, consent: { offers_by_email: true } },
    });
    expect(identified.data).toEqual({ external_id: id, created: true });

    const declared = await server.PUT('/server/v1/event-definitions', {
      body: { definitions: [{ name: 'order_paid', props: [{ key: 'amount', type: 'money' }] }] },
    });
    expect(declared.data?.definitions[0]?.outcome).toMatch(/created|unchanged/);

    const sent = await server.POST('/server/v1/events', {
      body: {
        events: [{ id: randomUUID(), external_id: id, name: 'order_paid', at: t.clock.now().toISOString(), props: { amount: '4250' } }],
      },
    });
    expect(sent.response.status).toBe(202);
    expect(sent.data?.accepted).toBe(1);

    const exported = await server.GET('/server/v1/contacts/{external_id}/export', { params: { path: { external_id: id } } });
    expect(exported.data?.attributes).toContainEqual({ name: 'email', value: 'cli@example.com' });
    expect(exported.data?.events.map((e) => e.name)).toEqual(['order_paid']);

    const erased = await server.DELETE('/server/v1/contacts/{external_id}', { params: { path: { external_id: id } } });
    expect(erased.data).toMatchObject({ external_id: id, state: 'queued' });

    const refused = await server.PUT('/server/v1/contacts/{external_id}', { params: { path: { external_id: id } }, body: {} });
    expect(refused.error).toMatchObject({ status: 409, code: 'erased' });
  });

  it('walks the guest API: consent read and chosen, events sent', async () => {
    const guest = client({
      'X-CRM-App-Key': app.live.app_key,
      Authorization: `Bearer ${await userToken(app.live.identity_secret, { sub: 'client-guest' })}`,
    });
    expect((await guest.GET('/guest/v1/consent')).data).toEqual({ offers_by_email: false, offers_by_push: false, changed_at: null });
    const chosen = await guest.PUT('/guest/v1/consent', { body: { offers_by_push: true } });
    expect(chosen.data?.offers_by_push).toBe(true);
    const events = await guest.POST('/guest/v1/events', {
      body: {
        app_version: '1.0',
        platform: 'web',
        events: [{ id: randomUUID(), name: 'app_opened', occurred_at: t.clock.now().toISOString() }],
      },
    });
    expect(events.data).toEqual({ accepted: 1 });
    const refused = await client({ 'X-CRM-App-Key': app.live.app_key }).GET('/guest/v1/consent');
    expect(refused.error).toMatchObject({ status: 401, code: 'unauthorized' });
  });

  it('reads the public app details', async () => {
    const details = await client({}).GET('/public/v1/apps/{key}', { params: { path: { key: app.live.app_key } } });
    expect(details.data).toMatchObject({ key: app.live.app_key, mode: 'live', linkBase: null, features: { messenger: true } });
  });
});
