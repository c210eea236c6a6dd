import { expect } from 'vitest';
import { serverApi, staffApp, unique } from './factories.js';
import { staffApi } from './graphql.js';
import { guestOf, type GuestMode } from './messenger.js';
import type { TestServer } from './server.js';

// In-app messages as staff write them (GraphQL) and a signed-in user's app checks in, for the
// in-app tests.

export const MESSAGE =
  'id name kind state priority controlWeight audience screens topic show startAt stopAt goal liveAt variants { key weight content unknownWords }';
const CREATE = `mutation($m: ID!, $k: InAppKind!, $i: InAppMessageInput!) { createInAppMessage(appModeId: $m, kind: $k, input: $i) { ${MESSAGE} } }`;
const STATE = `mutation($id: ID!, $s: InAppState!) { setInAppMessageState(id: $id, state: $s) { ${MESSAGE} } }`;

export const banner = (text = 'Hello there') => ({ blocks: [{ type: 'paragraph', spans: [{ text }] }] });
export const post = (text = 'News') => ({
  blocks: [
    { type: 'heading', level: 1, spans: [{ text }] },
    { type: 'paragraph', spans: [{ text: 'Read on' }], size: 'large' },
  ],
});
export const screen = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  blocks: [{ type: 'paragraph', spans: [{ text: `Screen ${id}` }] }],
  ...extra,
});
export const carousel = (screens = [screen('one'), screen('two')], extra: Record<string, unknown> = {}) => ({ screens, ...extra });

export function inAppStaff(t: () => TestServer, token: () => string) {
  const api = staffApi(() => t().url, token);
  return {
    ...api,
    /** A message made as a draft; answers it. */
    create: async (appModeId: string, kind: string, input: Record<string, unknown>, as?: string) =>
      (await api.ok(CREATE, { m: appModeId, k: kind, i: { name: 'A message', ...input } }, as)).createInAppMessage,
    createRefused: (appModeId: string, kind: string, input: Record<string, unknown>, as?: string) =>
      api.refused(CREATE, { m: appModeId, k: kind, i: { name: 'A message', ...input } }, as),
    state: async (id: string, state: string) => (await api.ok(STATE, { id, s: state })).setInAppMessageState,
    /** A live message: made, then set live a millisecond after the last (equal priorities are answered in the order they went live). */
    live: async (appModeId: string, kind: string, input: Record<string, unknown>) => {
      t().clock.advance(1);
      const made = (await api.ok(CREATE, { m: appModeId, k: kind, i: { name: 'A message', ...input } })).createInAppMessage;
      return (await api.ok(STATE, { id: made.id, s: 'live' })).setInAppMessageState;
    },
  };
}

export const CHECKIN = { app_version: '2.4.0', platform: 'ios' };

/** A signed-in user's app: check-ins, receipts, opening a message by link, reporting links. */
export function appUser(t: TestServer, mode: GuestMode, sub: string) {
  // The tests move the server's clock by days: the token outlives them.
  const g = guestOf(t, mode, sub, { exp: '100y' });
  let session = `s-${Math.random().toString(36).slice(2)}`;
  return {
    ...g,
    get session() {
      return session;
    },
    /** The app came to the front again: a new session. */
    newSession: () => (session = `s-${Math.random().toString(36).slice(2)}`),
    checkin: (body: Record<string, unknown> = {}, headers?: Record<string, string>) =>
      g.send('POST', '/guest/v1/checkin', { ...CHECKIN, session_id: session, ...body }, headers),
    /** A check-in that must be answered 200; its answer. */
    checkedIn: async (body: Record<string, unknown> = {}) => {
      const r = await g.send('POST', '/guest/v1/checkin', { ...CHECKIN, session_id: session, ...body });
      expect(r.status, r.text).toBe(200);
      return r.json;
    },
    receipt: (body: Record<string, unknown>) => g.send('POST', '/guest/v1/receipts', { session_id: session, ...body }),
    open: (id: string) => g.send('POST', `/guest/v1/messages/${id}/open`, { session_id: session }),
    links: (body: Record<string, unknown>) => g.send('PUT', '/guest/v1/app-links', body),
  };
}

/** An app of its own for one test: its staff's in-app API, a signed-in user of its live mode, its server API. */
export async function ownInAppApp(t: TestServer) {
  const own = await staffApp(t);
  return {
    own,
    staff: inAppStaff(
      () => t,
      () => own.owner,
    ),
    user: (sub = unique('user')) => appUser(t, own.live, sub),
    server: serverApi(t, own.live.server_key),
  };
}
