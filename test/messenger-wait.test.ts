import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { unique } from './support/factories.js';
import { guestOf, teamPart } from './support/messenger.js';
import { freePorts, launch, ready, stopProcess, type Proc } from './support/processes.js';
import { type SeededApp, type TestServer, seedApp, startTestServer, testConfig } from './support/server.js';

// GET /guest/v1/conversations/{id}/wait, the long poll: at once when something newer than `after`
// exists, as soon as something is added (also by another server process), or empty when the wait
// is over. Held in memory: no database work while nothing changes. The wait here is 3 s (the
// service's default is 25 s: CONVERSATION_WAIT_MS).

const WAIT_MS = 3000;
let t: TestServer;
let app: SeededApp;
let other: Proc | undefined;
beforeAll(async () => {
  t = await startTestServer({ config: testConfig({ conversationWaitMs: WAIT_MS }) });
  app = await seedApp(t.svc);
});
afterAll(async () => {
  await stopProcess(other);
  await t?.close();
});

async function started() {
  const g = guestOf(t, app.live, unique('waiter'));
  const { json } = await g.start({ text: 'Anyone there?' });
  return { g, id: json.id as string };
}

const timed = async <T>(p: Promise<T>) => {
  const at = Date.now();
  const value = await p;
  return { value, ms: Date.now() - at };
};

const waits = (server = t) => server.svc.caches.conversationWaits;

/** Until the process holds `n` waits (the request has arrived and is waiting). */
async function holding(n: number, server = t) {
  for (const until = Date.now() + 5000; Date.now() < until; await new Promise((r) => setTimeout(r, 10)))
    if (waits(server).size >= n) return;
  throw new Error(`waits held: ${waits(server).size}, not ${n}`);
}

describe('the conversation long poll', () => {
  it('answers at once when a part newer than `after` exists', async () => {
    const { g, id } = await started();
    await teamPart(t, id, 'message', 'Hello!');
    const { value: r, ms } = await timed(g.wait(id, 1));
    expect(r.status).toBe(200);
    expect(ms).toBeLessThan(WAIT_MS / 2);
    expect(r.json.last_seq).toBe(2);
    expect(r.json.parts).toEqual([
      expect.objectContaining({
        seq: 2,
        kind: 'message',
        author: { kind: 'teammate', name: 'Anna from Support', avatar_url: null },
        blocks: [{ type: 'paragraph', spans: [{ text: 'Hello!' }] }],
      }),
    ]);
    expect((await g.wait(id, 0)).json.parts.map((p: { seq: number }) => p.seq)).toEqual([1, 2]);
  });

  it('answers as soon as a part is added, and not for a note', async () => {
    const { g, id } = await started();
    const waiting = timed(g.wait(id, 1));
    await holding(1);
    await teamPart(t, id, 'note', 'Internal: check the order');
    await new Promise((r) => setTimeout(r, 150));
    await teamPart(t, id, 'message', 'On it');
    const { value: r, ms } = await waiting;
    expect(ms).toBeLessThan(WAIT_MS);
    expect(r.json).toMatchObject({ last_seq: 3, parts: [{ seq: 3, blocks: [{ spans: [{ text: 'On it' }] }] }] });
    expect(JSON.stringify(r.json)).not.toContain('Internal');
    expect(waits().size).toBe(0);
  });

  it("answers the person's own message sent from another device", async () => {
    const { g, id } = await started();
    const waiting = g.wait(id, 1);
    await holding(1);
    await g.message(id, { text: 'From my phone' });
    expect((await waiting).json.parts[0]).toMatchObject({ seq: 2, author: { kind: 'user' } });
  });

  it('answers with nothing new once the wait is over', async () => {
    const { g, id } = await started();
    const { value: r, ms } = await timed(g.wait(id, 1));
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ parts: [], last_seq: 1 });
    expect(ms).toBeGreaterThanOrEqual(WAIT_MS - 50);
    expect(ms).toBeLessThan(WAIT_MS + 1000);
  });

  it('answers a version it never gave at once, with the real last_seq', async () => {
    const { g, id } = await started();
    const { value: r, ms } = await timed(g.wait(id, 99));
    expect(r.json).toEqual({ parts: [], last_seq: 1 });
    expect(ms).toBeLessThan(WAIT_MS / 2);
    expect((await g.send('GET', `/guest/v1/conversations/${id}/wait?after=-1`)).json.errors[0].field).toBe('after');
  });

  it('holds 50 waits with no database work and no timer each until something changes', async () => {
    const held = await Promise.all(Array.from({ length: 50 }, () => started()));
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const timersBefore = timers();
    const answers = held.map(({ g, id }) => g.wait(id, 1));
    await holding(50);
    // The waits end by one timer for all of them (a timer each would add 50).
    expect(timers() - timersBefore).toBeLessThan(10);
    // What the starts wrote to the outbox handed on first: the window below sees only the idle process.
    await t.svc.outbox.drain();
    // Every statement of the process goes through its pool: count them for a while.
    const pool = t.svc.pool;
    let statements = 0;
    const [query, connect] = [pool.query, pool.connect];
    const counted = <F>(f: F) => ((...args: unknown[]) => (statements++, (f as (...a: unknown[]) => unknown).apply(pool, args))) as F;
    pool.query = counted(query);
    pool.connect = counted(connect);
    try {
      await new Promise((r) => setTimeout(r, 800));
    } finally {
      pool.query = query;
      pool.connect = connect;
    }
    // The outbox dispatcher's pass each second (a read, and a connection per cluster-wide consumer), and
    // nothing for the 50 waits: a wait that looked would make at least 50.
    expect(statements).toBeLessThan(10);
    await teamPart(t, held[7]!.id, 'message', 'Only this one');
    const woken = await Promise.race([answers[7]!.then((r) => r.json), new Promise((r) => setTimeout(() => r('late'), WAIT_MS / 2))]);
    expect(woken).toMatchObject({ last_seq: 2, parts: [{ seq: 2 }] });
    const rest = await Promise.all(answers);
    expect(rest.filter((r) => r.json.parts.length).length).toBe(1);
    // The others ran out, each answered with nothing new, and none is held any more.
    expect(rest.filter((r) => r.status === 200 && r.json.parts.length === 0 && r.json.last_seq === 1).length).toBe(49);
    expect(waits().size).toBe(0);
  });

  it('wakes every wait on a conversation with one read of its own, on the connections kept for waits, and none on the pool', async () => {
    const { g, id } = await started();
    // One person on many devices (or tabs), all waiting on the same conversation.
    const answers = Array.from({ length: 12 }, () => g.wait(id, 1));
    await holding(12);
    await t.svc.outbox.drain();
    const pool = t.svc.pool;
    const reads = waits().reads ?? new (pool.constructor as new () => typeof pool)();
    let onPool = 0;
    let onReads = 0;
    const [query, connect, read] = [pool.query, pool.connect, reads.query];
    const counting = <F>(f: F, on: object, count: () => void) =>
      ((...args: unknown[]) => (count(), (f as (...a: unknown[]) => unknown).apply(on, args))) as F;
    pool.query = counting(query, pool, () => onPool++);
    pool.connect = counting(connect, pool, () => onPool++);
    reads.query = counting(read, reads, () => onReads++);
    let woken;
    try {
      await teamPart(t, id, 'message', 'For every device');
      woken = await Promise.all(answers);
    } finally {
      pool.query = query;
      pool.connect = connect;
      reads.query = read;
    }
    for (const r of woken) expect(r.json).toMatchObject({ last_seq: 2, parts: [{ seq: 2, author: { name: 'Anna from Support' } }] });
    expect(new Set(woken.map((r) => JSON.stringify(r.json))).size).toBe(1);
    expect(onReads).toBe(1);
    // The reply's transaction and the outbox dispatcher's passes: a wait that read on its own would add 12.
    expect(onPool).toBeLessThan(12);
  });

  it('lets go of a wait whose client went away', async () => {
    const { g, id } = await started();
    const gone = new AbortController();
    const request = fetch(`${t.url}/guest/v1/conversations/${id}/wait?after=1`, { headers: await g.headers(), signal: gone.signal }).catch(
      () => 'aborted',
    );
    await holding(1);
    gone.abort();
    expect(await request).toBe('aborted');
    for (const until = Date.now() + 1000; Date.now() < until && waits().size;) await new Promise((r) => setTimeout(r, 10));
    expect(waits().size).toBe(0);
  });

  it('is woken by a part added through another server process', async () => {
    const [port] = await freePorts(1);
    other = launch(t.dbUrl, port!);
    // This side waits up to 20 s, so a slow first request on the other process cannot outlast it.
    const here = await startTestServer({ dbUrl: t.dbUrl, config: testConfig({ conversationWaitMs: 20_000 }) });
    try {
      await ready(other);
      const { g, id } = await started();
      const headers = await g.headers();
      expect((await fetch(`${other.url}/guest/v1/conversations/${id}`, { headers })).status).toBe(200);
      // Waiting on this process; the person writes through the other one (another device, another server).
      let wokenAt = 0;
      const waiting = fetch(`${here.url}/guest/v1/conversations/${id}/wait?after=1`, { headers }).then(
        async (res) => ((wokenAt = Date.now()), res.json()),
      );
      await holding(1, here);
      const elsewhere = await fetch(`${other.url}/guest/v1/conversations/${id}/messages`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/json' },
        body: JSON.stringify({ text: 'Sent through the other process' }),
      });
      const committedAt = Date.now();
      expect(elsewhere.status).toBe(201);
      const woken = await waiting;
      expect(woken.parts[0].blocks[0].spans[0].text).toBe('Sent through the other process');
      expect(wokenAt - committedAt).toBeLessThan(2000);

      // And the other way: a wait held by the other process (25 s), woken by a part added here.
      const there = fetch(`${other.url}/guest/v1/conversations/${id}/wait?after=2`, { headers }).then((res) => res.json());
      await new Promise((r) => setTimeout(r, 500));
      await teamPart(t, id, 'message', 'Answered here');
      expect(await there).toMatchObject({ last_seq: 3, parts: [{ seq: 3, author: { name: 'Anna from Support' } }] });
    } finally {
      await here.close();
    }
  }, 60_000);

  it('is not cut by the request timeout: a wait longer than it still answers', async () => {
    const base = testConfig({ conversationWaitMs: 1200 });
    const own = await startTestServer({
      dbUrl: t.dbUrl,
      config: { ...base, timeouts: { ...base.timeouts, headersMs: 400, requestMs: 400 } },
    });
    try {
      const { g, id } = await started();
      const r = await fetch(`${own.url}/guest/v1/conversations/${id}/wait?after=1`, { headers: await g.headers() });
      expect(r.status).toBe(200);
      expect(await r.json()).toEqual({ parts: [], last_seq: 1 });
    } finally {
      await own.close();
    }
  });

  it('answers held waits when the server stops', async () => {
    const own = await startTestServer({ dbUrl: t.dbUrl, config: testConfig({ conversationWaitMs: 60_000 }) });
    try {
      const { g, id } = await started();
      const waiting = timed(
        fetch(`${own.url}/guest/v1/conversations/${id}/wait?after=1`, { headers: await g.headers() }).then((res) => res.json()),
      );
      for (const until = Date.now() + 5000; Date.now() < until && !own.svc.caches.conversationWaits.size;)
        await new Promise((r) => setTimeout(r, 10));
      await own.close();
      const { value, ms } = await waiting;
      expect(value).toEqual({ parts: [], last_seq: 1 });
      expect(ms).toBeLessThan(5000);
    } finally {
      await own.close().catch(() => {});
    }
  });
});
