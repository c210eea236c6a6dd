import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, userToken } from './support/http.js';
import { seedApp, startTestServer, testConfig, type TestServer } from './support/server.js';

// 1,200 requests per minute per server key, never more in any 60-second span, counted in
// PostgreSQL so every server process on the database shares them. Guest and public limits are
// taken from PostgreSQL in chunks of at most 1% of the limit and spent in each process's memory:
// within 1% of the limit per process, either way.

let a: TestServer;
let b: TestServer;
let key: string;
beforeAll(async () => {
  a = await startTestServer();
  // A second server process on the same database, with a clock set alike.
  b = await startTestServer({ dbUrl: a.dbUrl, clock: a.clock });
  key = (await seedApp(a.svc)).live.server_key;
});
afterAll(async () => {
  await b.close();
  await a.close();
});

const hit = (t: TestServer) =>
  call(t.url, 'PUT', '/server/v1/event-definitions', { headers: { Authorization: `Bearer ${key}` }, json: { definitions: [] } });

async function burst(n: number) {
  const statuses: number[] = [];
  for (let i = 0; i < n; i += 25) {
    const batch = await Promise.all(Array.from({ length: Math.min(25, n - i) }, (_, j) => hit((i + j) % 2 ? a : b)));
    statuses.push(...batch.map((r) => r.status));
  }
  return statuses;
}

describe('server key rate limit', () => {
  it('admits 1,200 in a minute across two processes, then 429 with Retry-After, also across the minute edge', async () => {
    const minute = Math.ceil(Date.now() / 60_000) * 60_000;
    a.clock.set(new Date(minute - 500)); // half a second before a minute starts

    expect(await burst(1200)).toEqual(Array(1200).fill(200));
    const refused = await hit(a);
    expect(refused.status).toBe(429);
    expect(refused.json.code).toBe('rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(60);
    expect((await hit(b)).status).toBe(429);

    // A fixed window would open again here, letting 2,400 through within a second or so.
    a.clock.advance(1000);
    const edge = await hit(b);
    expect(edge.status).toBe(429);
    expect(Number(edge.headers.get('retry-after'))).toBeGreaterThan(55);

    a.clock.advance(58_000);
    expect((await hit(a)).status).toBe(429);

    a.clock.advance(2_000); // 61 s after the burst
    expect((await hit(a)).status).toBe(200);
  });

  it('counts each key apart', async () => {
    const other = (await seedApp(a.svc, 'Other')).live.server_key;
    const r = await call(a.url, 'PUT', '/server/v1/event-definitions', {
      headers: { Authorization: `Bearer ${other}` },
      json: { definitions: [] },
    });
    expect(r.status).toBe(200);
  });
});

describe('guest limits, taken in chunks by each process', () => {
  const LIMIT = 1000;
  const PROCESSES = 2;
  const CHUNK = LIMIT / 100;
  let ga: TestServer;
  let gb: TestServer;
  let headers: Record<string, string>;
  beforeAll(async () => {
    const config = testConfig({}, { guestAddressPerMinute: LIMIT });
    ga = await startTestServer({ config });
    gb = await startTestServer({ dbUrl: ga.dbUrl, clock: ga.clock, config });
    const app = await seedApp(ga.svc, 'Guest limits');
    headers = { 'X-CRM-App-Key': app.live.app_key, Authorization: `Bearer ${await userToken(app.live.identity_secret, { sub: 'u-1' })}` };
  });
  afterAll(async () => {
    await gb?.close();
    await ga?.close();
  });

  const consent = (t: TestServer) => call(t.url, 'GET', '/guest/v1/consent', { headers });
  async function guestBurst(n: number) {
    const statuses: number[] = [];
    for (let i = 0; i < n; i += 20) {
      const batch = await Promise.all(Array.from({ length: Math.min(20, n - i) }, (_, j) => consent((i + j) % 2 ? ga : gb)));
      statuses.push(...batch.map((r) => r.status));
    }
    return statuses;
  }

  it('admits the address limit across two processes within one chunk per process, then refuses on both until the window moves on', async () => {
    ga.clock.set(new Date(Math.ceil(Date.now() / 60_000) * 60_000 + 200));
    const first = await guestBurst(400);
    expect(first).toEqual(Array(400).fill(200));
    // The chunks held now lapse unspent; what is left of them is handed back with the next grant.
    ga.clock.advance(1500);
    const second = await guestBurst(900);
    const admitted = [...first, ...second].filter((s) => s === 200).length;
    expect(admitted).toBeGreaterThanOrEqual(LIMIT - PROCESSES * CHUNK);
    expect(admitted).toBeLessThanOrEqual(LIMIT + PROCESSES * (CHUNK - 1));
    expect(second.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    expect(second.slice(-20)).toEqual(Array(20).fill(429));

    for (const t of [ga, gb]) {
      const refused = await consent(t);
      expect(refused.status).toBe(429);
      expect(refused.json.code).toBe('rate_limited');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(55);
    }
    ga.clock.advance(61_000);
    expect((await consent(ga)).status).toBe(200);
    expect((await consent(gb)).status).toBe(200);
  });
});
