import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from './support/http.js';
import { seedApp, startTestServer, type TestServer } from './support/server.js';

// 1,200 requests per minute per server key, never more in any 60-second span, counted in
// PostgreSQL so every server process on the database shares them.

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

const hit = (t: TestServer) => call(t.url, 'PUT', '/server/v1/event-definitions', { headers: { Authorization: `Bearer ${key}` }, json: { definitions: [] } });

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
    const r = await call(a.url, 'PUT', '/server/v1/event-definitions', { headers: { Authorization: `Bearer ${other}` }, json: { definitions: [] } });
    expect(r.status).toBe(200);
  });
});
