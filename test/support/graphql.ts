import { createClient, type Client } from 'graphql-ws';
import { expect } from 'vitest';
import WebSocket from 'ws';
import { call } from './http.js';

export type GqlError = { message: string; extensions: { code: string; status?: number; errors?: { field: string }[] } };

/**
 * The staff GraphQL API over HTTP, as a test calls it. `base` and `defaultToken` are read at each
 * call (test files set them in beforeAll); a token of '' sends none.
 */
export function staffApi(base: () => string, defaultToken: () => string) {
  async function gql(query: string, variables: Record<string, unknown>, token: string) {
    const r = await call(base(), 'POST', '/graphql', {
      json: { query, variables },
      headers: token ? { Authorization: `Bearer ${token}` } : {},
    });
    expect(r.status).toBe(200);
    return r.json as { data?: any; errors?: GqlError[] };
  }
  /** The data of an operation that must succeed. */
  async function ok(query: string, variables: Record<string, unknown> = {}, token = defaultToken()) {
    const r = await gql(query, variables, token);
    expect(r.errors).toBeUndefined();
    return r.data;
  }
  /** The message and extensions of an operation's one refusal. */
  async function refused(query: string, variables: Record<string, unknown> = {}, token = defaultToken()) {
    const r = await gql(query, variables, token);
    expect(r.errors).toHaveLength(1);
    return { message: r.errors![0]!.message, ...r.errors![0]!.extensions };
  }
  async function signIn(email: string, password: string): Promise<string> {
    return (await ok('mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { token } }', { e: email, p: password }, ''))
      .signIn.token;
  }
  return { gql, ok, refused, signIn };
}

/** The official graphql-ws client on a test server's /graphql, signed in with `token`, never retrying. */
export const staffSocket = (base: string, token: string): Client =>
  createClient({
    url: `${base.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    connectionParams: { authorization: `Bearer ${token}` },
  });
