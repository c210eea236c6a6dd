import type { Client } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ALIASES, MAX_COST, MAX_DEPTH, MAX_DIRECTIVES, MAX_NESTING, MAX_TOKENS } from '../src/graphql/limits.js';
import { call } from './support/http.js';
import { staffApi, staffSocket } from './support/graphql.js';
import { startWithApp, type SeededApp, type TestServer } from './support/server.js';

// What one staff GraphQL operation may ask for, black-box over real HTTP and graphql-ws: documents
// too large, too deep, too wide or too costly are refused before anything runs, and without a
// session only the schema itself (introspection) is answered.

let t: TestServer;
let app: SeededApp;
let owner: string;
let live: string;
const clients: Client[] = [];

beforeAll(async () => {
  ({ t, app } = await startWithApp());
  owner = await signIn(app.ownerEmail, app.ownerPassword);
  live = (await t.svc.db.appMode.findFirstOrThrow({ where: { appId: app.appId, mode: 'live' } })).id;
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await t.close();
});

const { gql, ok, signIn } = staffApi(
  () => t.url,
  () => owner,
);

/** The one refusal of an operation, with the HTTP status and how large the answer was. */
async function refusal(query: string, variables: Record<string, unknown> = {}, token = owner) {
  // GraphQL over HTTP's own media type, answered 400 for a refused document (application/json gets 200).
  const headers: Record<string, string> = {
    Accept: 'application/graphql-response+json',
    ...(token ? { Authorization: `Bearer ${token}` } : {}),
  };
  const r = await call(t.url, 'POST', '/graphql', { json: { query, variables }, headers });
  expect(r.json?.errors, r.text.slice(0, 500)).toHaveLength(1);
  expect(r.json.data ?? null).toBeNull();
  return {
    httpStatus: r.status,
    size: r.text.length,
    message: r.json.errors[0].message as string,
    ...(r.json.errors[0].extensions as { code: string; status: number }),
  };
}

const aliased = (n: number, selection: (i: number) => string) =>
  `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${selection(i)}`).join(' ')} }`;
/** A selection 2 + 2 × hops deep, each hop one object: deep but cheap. */
const nested = (hops: number) => `{ app(id: "${app.appId}") ${'{ live { app '.repeat(hops)}{ id }${' }'.repeat(2 * hops)} }`;
const contactsWithEvents = (contacts: number, events: number) =>
  `contacts(appModeId: "${live}", first: ${contacts}) { edges { node { externalId displayName email events(first: ${events}) { edges { node { id name occurredAt props } } pageInfo { hasNextPage endCursor } } } } pageInfo { hasNextPage endCursor } }`;

describe('documents within the limits', () => {
  it('still run, including one contacts page of 200 with 20 events each', async () => {
    expect((await ok('{ viewer { email } }')).viewer.email).toBe(app.ownerEmail);
    expect((await ok(`{ ${contactsWithEvents(200, 20)} }`)).contacts).toEqual({
      edges: [],
      pageInfo: { hasNextPage: false, endCursor: null },
    });
    expect((await ok(aliased(MAX_ALIASES, () => 'viewer { id }'))).a0.id).toBeTruthy();
  });
});

describe('size, tokens and nesting', () => {
  it('refuses 2,000 aliased __schema selections with a small answer, and /healthz answers meanwhile', async () => {
    const query = aliased(
      2000,
      () =>
        '__schema { types { name kind description fields { name description args { name description type { name kind } } type { name kind ofType { name kind } } } } }',
    );
    expect(query.length).toBeGreaterThan(250_000);
    const started = Date.now();
    const [refused, health] = await Promise.all([refusal(query), call(t.url, 'GET', '/healthz')]);
    expect(refused).toMatchObject({ code: 'too_many_tokens', status: 400, httpStatus: 400 });
    expect(refused.size).toBeLessThan(2_000);
    expect(health.status).toBe(200);
    expect((await call(t.url, 'GET', '/healthz')).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('refuses a flat document of more than MAX_TOKENS tokens', async () => {
    expect(await refusal(`{ ${'__typename '.repeat(MAX_TOKENS)} }`)).toMatchObject({ code: 'too_many_tokens', status: 400 });
  });

  it('refuses a selection nested 2,500 deep and a list literal 3,000 deep as too deep, not as internal', async () => {
    const selection = `${'{ viewer '.repeat(2500)}${'}'.repeat(2500)}`;
    expect(await refusal(selection)).toMatchObject({ code: 'query_too_deep', status: 400, httpStatus: 400 });
    const list = `{ contact(appModeId: ${'['.repeat(3000)}"x"${']'.repeat(3000)}, externalId: "x") { externalId } }`;
    expect(await refusal(list)).toMatchObject({ code: 'query_too_deep', status: 400 });
    const object = `{ contact(appModeId: ${'{ a: '.repeat(MAX_NESTING)}1${'}'.repeat(MAX_NESTING)}, externalId: "x") { externalId } }`;
    expect(await refusal(object)).toMatchObject({ code: 'query_too_deep' });
  });

  it('refuses a body over MAX_BODY_BYTES with the REST 413 problem document, with or without a declared length', async () => {
    const big = JSON.stringify({ query: '{ viewer { id } }', variables: { pad: 'x'.repeat(t.svc.config.maxBodyBytes) } });
    const declared = await call(t.url, 'POST', '/graphql', {
      headers: { Authorization: `Bearer ${owner}`, 'Content-Type': 'application/json' },
      body: big,
    });
    expect(declared.status).toBe(413);
    expect(declared.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(declared.json).toMatchObject({ status: 413, code: 'payload_too_large' });

    const chunked = new ReadableStream({
      start(c) {
        for (let i = 0; i < big.length; i += 64 * 1024) c.enqueue(new TextEncoder().encode(big.slice(i, i + 64 * 1024)));
        c.close();
      },
    });
    const res = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${owner}`, 'Content-Type': 'application/json' },
      body: chunked,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await res.json()).toMatchObject({ status: 413, code: 'payload_too_large' });
    expect((await ok('{ viewer { email } }')).viewer.email).toBe(app.ownerEmail);
  });
});

describe('depth, aliases, directives and cost', () => {
  it('refuses selections deeper than MAX_DEPTH', async () => {
    await ok(nested((MAX_DEPTH - 2) / 2));
    expect(await refusal(nested(MAX_DEPTH / 2))).toMatchObject({ code: 'query_too_deep', status: 400, httpStatus: 400 });
  });

  it('refuses more than MAX_ALIASES aliases and MAX_DIRECTIVES directives', async () => {
    expect(await refusal(aliased(MAX_ALIASES + 1, () => 'viewer { id }'))).toMatchObject({ code: 'too_many_aliases', status: 400 });
    expect(await refusal(`{ viewer { ${'id @include(if: true) '.repeat(MAX_DIRECTIVES + 1)} } }`)).toMatchObject({
      code: 'too_many_directives',
      status: 400,
    });
  });

  it('refuses the 400 aliased contacts × events pages quickly, before running any of it', async () => {
    const query = aliased(400, () => contactsWithEvents(200, 200));
    const started = Date.now();
    const refused = await refusal(query);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(refused).toMatchObject({ status: 400 });
    expect(['too_many_tokens', 'too_many_aliases', 'query_too_complex']).toContain(refused.code);
    expect((await call(t.url, 'GET', '/healthz')).status).toBe(200);
  });

  it('counts page sizes in the cost, from literals and variables alike', async () => {
    const single = await refusal(`{ ${contactsWithEvents(200, 200)} }`);
    expect(single).toMatchObject({ code: 'query_too_complex', status: 400, httpStatus: 400 });
    expect(single.message).toContain(String(MAX_COST));
    expect(await refusal(aliased(MAX_ALIASES, () => contactsWithEvents(200, 20)))).toMatchObject({ code: 'query_too_complex' });

    // The same document is judged by each request's variables.
    const paged = `query($e: Int) { contacts(appModeId: "${live}", first: 200) { edges { node { events(first: $e) { edges { node { id } } } } } } }`;
    await ok(paged, { e: 20 });
    expect(await refusal(paged, { e: 200 })).toMatchObject({ code: 'query_too_complex' });
    await ok(paged, { e: 20 });
  });
});

describe('introspection', () => {
  it('answers introspection with or without a session; every data field still needs one', async () => {
    // GraphiQL fetches the schema before anyone signs in: what it asks is answered, with or without a token.
    const { getIntrospectionQuery } = await import('graphql');
    for (const token of ['', 'crm_st_madeup', owner]) {
      const full = await ok(getIntrospectionQuery(), {}, token);
      expect(full.__schema.types.map((x: { name: string }) => x.name)).toContain('Contact');
      expect(full.__schema.mutationType.name).toBe('Mutation');
    }
    for (const query of [
      '{ __schema { queryType { name } } }',
      '{ __type(name: "Contact") { name } }',
      '{ ...Q } fragment Q on Query { __schema { types { name } } }',
      '{ ... on Query { __typename __type(name: "Viewer") { name } } }',
    ])
      expect(await ok(query, {}, '')).toBeTruthy();
    expect((await ok('{ __typename }', {}, '')).__typename).toBe('Query');
    // Every field that reads or changes data still needs a session, beside introspection or not.
    for (const query of [
      '{ viewer { email } }',
      '{ __schema { queryType { name } } viewer { email } }',
      `{ __typename app(id: "${app.appId}") { id } }`,
      'mutation { signOut }',
    ])
      for (const token of ['', 'crm_st_madeup']) {
        const r = await gql(query, {}, token);
        expect(r.errors?.map((e) => e.extensions?.code)).toEqual(['unauthenticated']);
      }
  });
});

describe('over graphql-ws', () => {
  const ws = () => {
    const client = staffSocket(t.url, owner);
    clients.push(client);
    return client;
  };
  /** Refusals before execution come as graphql-ws `error` messages, the cost's as a result with errors. */
  const refusedOverWs = async (query: string) => {
    const errors = await ws()
      .iterate({ query })
      .next()
      .then(
        (r) => r.value.errors,
        (e: unknown) => e,
      );
    expect(errors).toHaveLength(1);
    return errors[0].extensions;
  };

  it('refuses with the same codes as over HTTP', async () => {
    expect(await refusedOverWs(`{ ${'__typename '.repeat(MAX_TOKENS)} }`)).toMatchObject({ code: 'too_many_tokens', status: 400 });
    expect(await refusedOverWs(`${'{ viewer '.repeat(2500)}${'}'.repeat(2500)}`)).toMatchObject({ code: 'query_too_deep', status: 400 });
    expect(await refusedOverWs(nested(MAX_DEPTH / 2))).toMatchObject({ code: 'query_too_deep', status: 400 });
    expect(await refusedOverWs(aliased(MAX_ALIASES + 1, () => 'viewer { id }'))).toMatchObject({ code: 'too_many_aliases', status: 400 });
    expect(await refusedOverWs(`{ ${contactsWithEvents(200, 200)} }`)).toMatchObject({ code: 'query_too_complex', status: 400 });
    expect((await ws().iterate({ query: '{ viewer { email } }' }).next()).value).toEqual({ data: { viewer: { email: app.ownerEmail } } });
  });

  it('closes the socket on a message larger than MAX_BODY_BYTES', async () => {
    const closed = await ws()
      .iterate({ query: `{ viewer { id } } # ${'x'.repeat(t.svc.config.maxBodyBytes)}` })
      .next()
      .then(
        () => ({ code: 0 }),
        (e: { code: number }) => e,
      );
    expect(closed.code).toBe(1009);
  });
});
