import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/lib/logger.js';
import { call, userToken } from './support/http.js';
import { seedApp, startTestServer, testConfig, type SeededApp, type TestServer } from './support/server.js';

// What operators rely on: health, readiness, metrics, request ids, logs without credentials,
// and the public routes' own limits.

const lines: string[] = [];
let t: TestServer;
let app: SeededApp;
beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  t = await startTestServer({
    log: createLogger('debug', sink),
    config: testConfig({}, { publicAddressPerMinute: 5, guestAddressPerMinute: 5 }),
  });
  app = await seedApp(t.svc);
});
afterAll(() => t.close());

describe('operations', () => {
  it('answers /healthz and /readyz', async () => {
    expect((await call(t.url, 'GET', '/healthz')).json).toEqual({ status: 'ok' });
    expect((await call(t.url, 'GET', '/readyz')).json).toEqual({ status: 'ready' });
  });

  it('gives every answer a request id, its own or the caller’s', async () => {
    const own = await call(t.url, 'GET', '/healthz');
    expect(own.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const given = await call(t.url, 'GET', '/nowhere', { headers: { 'X-Request-Id': 'trace-42' } });
    expect(given.headers.get('x-request-id')).toBe('trace-42');
    expect(given.json.request_id).toBe('trace-42');
  });

  it('serves Prometheus metrics by surface and route template', async () => {
    await call(t.url, 'GET', `/public/v1/apps/${app.live.app_key}`);
    const r = await call(t.url, 'GET', '/metrics');
    expect(r.headers.get('content-type')).toContain('text/plain');
    expect(r.text).toMatch(/crm_http_requests_total\{surface="public",route="\/public\/v1\/apps\/:key",method="GET",status="200"\} \d+/);
    expect(r.text).toContain('crm_http_request_duration_seconds_bucket');
    expect(r.text).not.toContain(app.live.app_key);
  });

  it('serves what an operator alerts on: outbox backlog and lag, durable runs, webhook and push counts, pool, live connections, event loop', async () => {
    // Activity: a contact erased (an erase run started from the outbox, not yet run by the test's engine).
    await call(t.url, 'PUT', '/server/v1/contacts/metered', {
      headers: { Authorization: `Bearer ${app.live.server_key}` },
      json: { display_name: 'M' },
    });
    expect(
      (await call(t.url, 'DELETE', '/server/v1/contacts/metered', { headers: { Authorization: `Bearer ${app.live.server_key}` } })).status,
    ).toBe(202);
    await t.svc.outbox.drain();
    const text = (await call(t.url, 'GET', '/metrics')).text;
    const value = (name: string, labels = '') => {
      const line = text.split('\n').find((l) => l.startsWith(`${name}${labels} `) || (labels === '' && l.startsWith(`${name}{`)));
      expect(
        line,
        `${name}${labels} in:\n${text
          .split('\n')
          .filter((l) => l.startsWith('crm_'))
          .join('\n')}`,
      ).toBeDefined();
      return Number(line!.split(' ').at(-1));
    };
    for (const family of [
      'crm_http_requests_total counter',
      'crm_outbox_backlog_rows gauge',
      'crm_outbox_lag_seconds gauge',
      'crm_durable_runs gauge',
      'crm_webhook_deliveries_total counter',
      'crm_push_sends_total counter',
      'crm_live_connections gauge',
      'crm_db_pool_connections gauge',
      'crm_db_pool_idle gauge',
      'crm_db_pool_waiting gauge',
      'crm_db_search_pool_connections gauge',
      'crm_db_search_pool_waiting gauge',
      'nodejs_eventloop_lag_seconds gauge',
    ])
      expect(text).toContain(`# TYPE ${family}`);
    // Each consumer of the outbox is listed, caught up or not.
    expect(value('crm_outbox_backlog_rows', '{consumer="process-starts"}')).toBeGreaterThanOrEqual(0);
    expect(value('crm_outbox_lag_seconds', '{consumer="process-starts"}')).toBeGreaterThanOrEqual(0);
    expect(value('crm_durable_runs', '{process="erase",status="active"}')).toBeGreaterThanOrEqual(1);
    expect(value('crm_db_pool_connections')).toBeGreaterThanOrEqual(1);
    // Waiting may be above 0 at any moment (the engine's steps share the pool): a count, and idle within the pool.
    expect(Number.isInteger(value('crm_db_pool_waiting'))).toBe(true);
    expect(value('crm_db_pool_idle')).toBeLessThanOrEqual(value('crm_db_pool_connections'));
    expect(value('crm_db_search_pool_waiting')).toBe(0);
    expect(value('crm_db_search_pool_connections')).toBeLessThanOrEqual(4);
    expect(value('crm_live_connections')).toBe(0);
    expect(value('nodejs_eventloop_lag_seconds')).toBeGreaterThanOrEqual(0);
    // Bounded labels: never an app, a key or a person.
    for (const word of [app.appId, app.live.app_key, 'metered']) expect(text).not.toContain(word);
    // Once the engine has run it, the erase run is no longer counted as open.
    await t.engine.runDue();
    expect((await call(t.url, 'GET', '/metrics')).text).not.toContain('crm_durable_runs{process="erase",status="active"}');
  });

  it('never logs a credential', async () => {
    const token = await userToken(app.live.identity_secret, { sub: 'logged' });
    await call(t.url, 'GET', '/guest/v1/consent', { headers: { 'X-CRM-App-Key': app.live.app_key, Authorization: `Bearer ${token}` } });
    await call(t.url, 'PUT', '/server/v1/contacts/logged', {
      headers: { Authorization: `Bearer ${app.live.server_key}` },
      json: { display_name: 'L' },
    });
    await call(t.url, 'PUT', '/server/v1/contacts/logged', {
      headers: { Authorization: `Bearer ${app.live.server_key.slice(0, -2)}xx` },
      json: {},
    });
    await call(t.url, 'POST', '/graphql', {
      json: {
        query: 'mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { token } }',
        variables: { e: app.ownerEmail, p: app.ownerPassword },
      },
    });
    const text = lines.join('\n');
    expect(lines.filter((l) => l.includes('"msg":"request"')).length).toBeGreaterThanOrEqual(4);
    for (const secret of [token, app.live.server_key, app.live.server_key.slice(7, -2), app.live.identity_secret, app.ownerPassword])
      expect(text).not.toContain(secret);
    expect(text).not.toMatch(/crm_st_[0-9A-Za-z]{10}/);
  });

  it('counts refused guest credentials against the address, so guessing is limited too', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++)
      statuses.push(
        (await call(t.url, 'GET', '/guest/v1/consent', { headers: { 'X-CRM-App-Key': app.test.app_key, Authorization: 'Bearer wrong' } }))
          .status,
      );
    expect(statuses.slice(0, 3)).toEqual([401, 401, 401]);
    expect(statuses.at(-1)).toBe(429);
  });

  it('limits public routes per address, with Retry-After', async () => {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof call>> | undefined;
    for (let i = 0; i < 7; i++) {
      last = await call(t.url, 'GET', `/public/v1/apps/${app.test.app_key}`);
      statuses.push(last.status);
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(1);
    expect(last!.json.code).toBe('rate_limited');
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
