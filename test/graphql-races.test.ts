import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staffApp, unique, type StaffApp } from './support/factories.js';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { call } from './support/http.js';
import { guestOf } from './support/messenger.js';
import { startTestServer, testConfig, type TestServer } from './support/server.js';

// The staff GraphQL API when the database goes away under it, and a staff reply racing the erase
// of the person it answers: each answer is the reply, or a refusal a client can act on
// (`unavailable` to send again, `not_found`), never `internal`.

let t: TestServer;
let app: StaffApp;
beforeAll(async () => {
  t = await startTestServer({
    config: testConfig({}, { guestAddressPerMinute: 1_000_000, guestAppPerMinute: 1_000_000 }),
  });
  app = await staffApp(t);
});
afterAll(() => t?.close());

const REPLY = 'mutation($id: ID!, $text: String!) { replyToConversation(id: $id, text: $text) { seq } }';
const reply = (id: string, text: string) =>
  call(t.url, 'POST', '/graphql', { json: { query: REPLY, variables: { id, text } }, headers: { Authorization: `Bearer ${app.owner}` } });

/** A conversation a new person started: its id and the person's id. */
async function started(sub = unique('user')): Promise<{ id: string; sub: string }> {
  const r = await guestOf(t, app.live, sub).start({ text: 'Hello' });
  expect(r.status).toBe(201);
  return { id: r.json.id, sub };
}

type Answer = Awaited<ReturnType<typeof reply>>;
const codes = (answers: Answer[]) =>
  answers.flatMap((a) => (a.json?.errors ?? []).map((e: { extensions: { code: string } }) => e.extensions.code));

/** Cuts every connection of the server to the database, `rounds` times while `requests` run. */
async function underFire<A>(rounds: number, requests: (round: number) => Promise<A>[]): Promise<A[]> {
  const killer = new pg.Client({ connectionString: t.dbUrl });
  await killer.connect();
  const answers: A[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      const running = requests(round);
      await new Promise((r) => setTimeout(r, 5 + round * 3));
      await killer.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
      );
      answers.push(...(await Promise.all(running)));
    }
  } finally {
    await killer.end();
  }
  return answers;
}

describe('a database connection cut mid-request', () => {
  it('answers a staff mutation unavailable, with 503 and Retry-After over HTTP, never internal', async () => {
    const conversations = await Promise.all(Array.from({ length: 6 }, () => started()));
    const answers = await underFire(8, (round) =>
      Array.from({ length: 18 }, (_, i) => reply(conversations[i % conversations.length]!.id, `Round ${round}, ${i}`)),
    );
    expect(codes(answers).filter((c) => c !== 'unavailable')).toEqual([]);
    const refused = answers.filter((a) => a.json?.errors);
    // The kills landed: some replies were cut (the rest went through).
    expect(refused.length).toBeGreaterThan(0);
    for (const a of refused) {
      expect(a.status).toBe(503);
      expect(a.headers.get('retry-after')).toBe('1');
      expect(a.json.errors[0].extensions).toMatchObject({ code: 'unavailable', status: 503, retryAfter: 1 });
    }
    for (const a of answers.filter((x) => !x.json?.errors)) expect(a.status).toBe(200);
    // The service comes back by itself.
    await expect.poll(async () => (await reply(conversations[0]!.id, 'After')).status, { timeout: 5000 }).toBe(200);
  });

  it('answers an operation over graphql-ws unavailable, and never closes the socket', async () => {
    const conversations = await Promise.all(Array.from({ length: 6 }, () => started()));
    // One socket for the whole test (not lazy), signed in before the first cut: the cuts land on its operations.
    const socket = createClient({
      url: `${t.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: false,
      connectionParams: { authorization: `Bearer ${app.owner}` },
    });
    const closes: { code: number; reason: string }[] = [];
    socket.on('closed', (event) => closes.push({ code: (event as CloseEvent).code, reason: (event as CloseEvent).reason }));
    try {
      type Result = { data?: unknown; errors?: { extensions: { code: string } }[] };
      const overSocket = (id: string, text: string) =>
        new Promise<Result>((resolve, reject) => {
          let result: Result = {};
          socket.subscribe<unknown>(
            { query: REPLY, variables: { id, text } },
            {
              next: (r) => (result = r as Result),
              // An operation refused before it ran comes as a list of errors; anything else is the socket's end.
              error: (e) => (Array.isArray(e) ? resolve({ errors: e }) : reject(e)),
              complete: () => resolve(result),
            },
          );
        });
      expect((await overSocket(conversations[0]!.id, 'Before')).errors).toBeUndefined();
      const answers = await underFire(8, (round) =>
        Array.from({ length: 18 }, (_, i) => overSocket(conversations[i % conversations.length]!.id, `Round ${round}, ${i}`)),
      );
      const codes = answers.flatMap((a) => (a.errors ?? []).map((e) => e.extensions.code));
      expect(codes.filter((c) => c !== 'unavailable')).toEqual([]);
      expect(codes.length).toBeGreaterThan(0);
      expect(closes).toEqual([]);
    } finally {
      await socket.dispose();
    }
  });
});

describe('a staff reply racing the erase of the person', () => {
  it('is the reply, or not_found once the person is gone, never internal; nothing of the person is left', { timeout: 90_000 }, async () => {
    const people = await Promise.all(Array.from({ length: 40 }, () => started()));
    for (const { sub } of people)
      expect(
        (await call(t.url, 'DELETE', `/server/v1/contacts/${sub}`, { headers: { Authorization: `Bearer ${app.live.server_key}` } })).status,
      ).toBe(202);
    // While the erases run, each person's conversation is answered again and again until it is gone.
    const answers: Answer[] = [];
    const replier = async (id: string) => {
      for (;;) {
        const answer = await reply(id, 'We are on it');
        answers.push(answer);
        if (answer.json?.errors) return;
        // A breath between replies: the race stays, and the erases are not starved of the pool on a busy machine.
        await sleep(10);
      }
    };
    await Promise.all([...people.map(({ id }) => replier(id)), t.engine.runDue()]);
    expect(answers.map((a) => a.status).filter((s) => s !== 200)).toEqual([]);
    expect(codes(answers).filter((c) => c !== 'not_found')).toEqual([]);
    // Each person's replies raced their erase to its end: the last one found them gone.
    expect(codes(answers)).toHaveLength(people.length);
    // Everything the replies wrote went with the person, or was never written.
    const subs = people.map((p) => p.sub);
    expect(await t.svc.db.contact.count({ where: { externalId: { in: subs } } })).toBe(0);
    expect(await t.svc.db.conversation.count({ where: { id: { in: people.map((p) => p.id) } } })).toBe(0);
    expect(await t.svc.db.outboxEvent.count({ where: { externalId: { in: subs } } })).toBe(0);
  });
});
