import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { hashPassword } from '../../src/lib/passwords.js';
import { call } from './http.js';
import { seedApp, type SeededApp, type TestServer } from './server.js';

// Small factories that make what one test needs, so that each test stands alone: run by itself
// (`vitest -t`) or after any other test of its file, it reads and counts only rows it made.

/**
 * A name no other test uses: the prefix, `_` and 8 hex digits. Letters, digits and `_` only, so it
 * is also a valid event name, attribute name, external id or event id.
 */
export const unique = (prefix: string) => `${prefix}_${randomBytes(4).toString('hex')}`;

/** The ids of an app's live and test modes. */
export async function modeIds(t: TestServer, app: { appId: string }): Promise<{ live: string; test: string }> {
  const rows = await t.svc.db.appMode.findMany({ where: { appId: app.appId } });
  return { live: rows.find((m) => m.mode === 'live')!.id, test: rows.find((m) => m.mode === 'test')!.id };
}

/** The id of the app mode an app key opens. */
export const modeIdOf = async (t: TestServer, appKey: string) => (await t.svc.db.appMode.findUniqueOrThrow({ where: { appKey } })).id;

/**
 * The server API of one app mode as a customer's backend calls it, for setting up what a test
 * reads: each call must be taken (2xx), and answers its JSON.
 */
export function serverApi(t: TestServer, serverKey: string) {
  async function taken(method: string, path: string, json: unknown) {
    const r = await call(t.url, method, path, { headers: { Authorization: `Bearer ${serverKey}` }, json });
    expect(r.status, `${method} ${path}: ${r.text}`).toBeLessThan(300);
    return r.json;
  }
  return {
    /** Identify: makes or changes the contact. */
    identify: (externalId: string, body: Record<string, unknown> = {}) =>
      taken('PUT', `/server/v1/contacts/${encodeURIComponent(externalId)}`, body),
    /** Declares event definitions; every one must be created, unchanged or have props added. */
    declareEvents: async (definitions: Record<string, unknown>[]) => {
      const r = await taken('PUT', '/server/v1/event-definitions', { definitions });
      expect(r.definitions.filter((d: { outcome: string }) => d.outcome === 'refused')).toEqual([]);
      return r;
    },
    /** Sends server events; answers { accepted, rejected }. */
    sendEvents: (events: Record<string, unknown>[]) => taken('POST', '/server/v1/events', { events }),
  };
}

/** A staff session token, signed in over the staff API. */
export async function signedIn(t: TestServer, email: string, password: string): Promise<string> {
  const r = await call(t.url, 'POST', '/graphql', {
    json: {
      query: 'mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { token } }',
      variables: { e: email, p: password },
    },
  });
  expect(r.json.errors, r.text).toBeUndefined();
  return r.json.data.signIn.token;
}

export type StaffApp = SeededApp & { owner: string; modes: { live: string; test: string } };

/**
 * An app of its own, in a workspace of its own, with its owner signed in to the staff API
 * (`owner` is the session token): for a test that reads or counts what an app or workspace holds.
 */
export async function staffApp(t: TestServer, name?: string): Promise<StaffApp> {
  const app = await seedApp(t.svc, name);
  return { ...app, owner: await signedIn(t, app.ownerEmail, app.ownerPassword), modes: await modeIds(t, app) };
}

/**
 * A new staff user with a role in a workspace, signed in (`token`). Made in the database, not
 * through the staff API, for tests whose subject is what a role may do rather than how members join.
 */
export async function memberOf(
  t: TestServer,
  workspaceId: string,
  role: 'owner' | 'admin' | 'agent',
): Promise<{ email: string; token: string }> {
  const email = `${unique(role)}@example.com`;
  const password = 'a long enough password';
  const staffUserId = randomUUID();
  await t.svc.db.staffUser.create({ data: { id: staffUserId, email, name: role, passwordHash: await hashPassword(password) } });
  await t.svc.db.membership.create({ data: { workspaceId, staffUserId, role } });
  return { email, token: await signedIn(t, email, password) };
}
