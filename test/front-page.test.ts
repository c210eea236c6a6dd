import { buildClientSchema, getIntrospectionQuery, parse, validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_APP, DEMO_WORKSPACE } from '../src/demo/names.js';
import { createApp } from '../src/domain/apps/create-app.js';
import { createWorkspace } from '../src/domain/staff/workspaces.js';
import { GRAPHIQL_DEFAULT_QUERY } from '../src/graphql/yoga.js';
import { call } from './support/http.js';
import { startTestServer, type TestServer } from './support/server.js';

// What a newcomer opening the base address finds: a page naming what runs here and linking every
// way in, the REST reference as a page, and GraphiQL opening on a sign-in it can complete.

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const page = async (path: string, headers: Record<string, string> = {}) => {
  const r = await fetch(`${t.url}${path}`, { headers });
  return {
    status: r.status,
    type: r.headers.get('content-type') ?? '',
    csp: r.headers.get('content-security-policy') ?? '',
    text: await r.text(),
  };
};
const hrefs = (text: string) => [...text.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));

describe('GET /', () => {
  it('names what runs here and links each way in; the demo help site once there is a demo app', async () => {
    const before = await page('/');
    expect(before.status).toBe(200);
    expect(before.type).toBe('text/html; charset=utf-8');
    expect(before.csp).toContain("default-src 'none'");
    expect(before.text).not.toMatch(/<script/i);
    const links = hrefs(before.text);
    for (const href of ['/graphql', '/openapi.json', '/api-reference', '/healthz', '/readyz', '/metrics']) expect(links).toContain(href);
    expect(links.some((h) => h.startsWith('/help/'))).toBe(false);
    // The staff console, served here (src/http/console.ts).
    expect(links).toContain('/console/');
    // Every link it gives answers.
    for (const href of links.filter((h) => h.startsWith('/') && h !== '/graphql')) expect((await page(href)).status, href).toBe(200);

    const ctx = t.ctx;
    const { workspaceId } = await createWorkspace(ctx, {
      name: DEMO_WORKSPACE,
      ownerEmail: 'front@demo.test',
      ownerPassword: 'correct horse battery',
    });
    const demo = await createApp(ctx, { workspaceId, name: DEMO_APP });
    const after = await page('/');
    expect(hrefs(after.text)).toContain(`/help/${demo.live.app_key}`);
    expect((await page(`/help/${demo.live.app_key}`)).status).toBe(200);
  });

  it('serves an API reference page listing every operation of the OpenAPI document and its schemas', async () => {
    const doc = (await call(t.url, 'GET', '/openapi.json')).json;
    const ref = await page('/api-reference');
    expect(ref.status).toBe(200);
    expect(ref.type).toBe('text/html; charset=utf-8');
    expect(ref.text).not.toMatch(/<script/i);
    let operations = 0;
    for (const [path, item] of Object.entries<Record<string, { summary?: string }>>(doc.paths))
      for (const method of ['get', 'put', 'post', 'patch', 'delete']) {
        if (!item[method]) continue;
        operations++;
        expect(ref.text, `${method} ${path}`).toContain(`<code>${method.toUpperCase()} ${path}</code>`);
      }
    expect(operations).toBeGreaterThan(30);
    for (const name of Object.keys(doc.components.schemas)) expect(ref.text, name).toContain(`id="schema-${name}"`);
    // Links to schemas land on them.
    const ids = new Set([...ref.text.matchAll(/id="([^"]+)"/g)].map((m) => m[1]));
    for (const href of hrefs(ref.text).filter((h) => h.startsWith('#'))) expect(ids.has(href.slice(1)), href).toBe(true);
  });
});

describe('GraphiQL', () => {
  it('opens on a valid sign-in example naming the header to set, and reads the schema before signing in', async () => {
    const ide = await page('/graphql', { Accept: 'text/html' });
    expect(ide.status).toBe(200);
    expect(ide.type).toContain('text/html');
    // The default query is in the page (as a JavaScript string), with its advice.
    expect(ide.text).toContain('mutation SignIn');
    expect(ide.text).toContain('Bearer crm_st_');
    // GraphiQL's own introspection, with no session: answered.
    const intro = await call(t.url, 'POST', '/graphql', { json: { query: getIntrospectionQuery() } });
    expect(intro.status).toBe(200);
    expect(intro.json.errors).toBeUndefined();
    // The default query is valid against the schema the server describes.
    const schema = buildClientSchema(intro.json.data);
    expect(validate(schema, parse(GRAPHIQL_DEFAULT_QUERY))).toEqual([]);
    // Data still needs a session.
    const viewer = await call(t.url, 'POST', '/graphql', { json: { query: '{ viewer { email } }' } });
    expect(viewer.json.errors[0].extensions.code).toBe('unauthenticated');
  });
});
