import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allRoutes } from '../rest-facade/routes.js';
import { call } from './support/http.js';
import { startTestServer, type TestServer } from './support/server.js';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const r = await call(t.url, 'GET', '/openapi.json');
    expect(r.status).toBe(200);
    const validator = new Validator();
    const result = await validator.validate(r.json);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('lists every route built, with its refusals as problem documents', async () => {
    const doc = (await call(t.url, 'GET', '/openapi.json')).json;
    for (const route of allRoutes()) {
      const op = doc.paths[route.path]?.[route.method];
      expect(op, `${route.method} ${route.path}`).toBeDefined();
      for (const status of route.errors) expect(op.responses[status].content['application/problem+json']).toBeDefined();
    }
  });
});
