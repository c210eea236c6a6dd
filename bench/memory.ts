// The server's resident memory (RSS) over 100,000 guest requests, once warm: the service as users
// run it (dist/src/main.js, its own process) on the embedded PostgreSQL; 2,000 people, each with
// their own signed token, read their consent, check in and send an event, in turn, 16 at once.
// RSS is read after the start, after a warm-up of 5,000 requests, and after every 10,000 more;
// beside it the V8 heap is not visible from outside, so RSS is what an operator's graphs show.
// `npx tsx bench/memory.ts` (about 2 minutes); BENCH_MEMORY_REQUESTS for another count.
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { guestToken, makeBenchApp } from './apps.js';
import { BENCH_SECRET_KEY, withBenchDatabase } from './database.js';
import { freePort, rssOf, serverProcess, stop } from './processes.js';

const REQUESTS = Number(process.env.BENCH_MEMORY_REQUESTS ?? 100_000);
const STEP = 10_000;
const WARM = 5_000;
const PEOPLE = 2_000;

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;

process.exit(
  await withBenchDatabase('crm_bench', async ({ url }) => {
    const app = await makeBenchApp(url, BENCH_SECRET_KEY, 'Memory bench');
    const tokens = await Promise.all(Array.from({ length: PEOPLE }, (_, i) => guestToken(app.identitySecret, `person-${i}`)));
    const port = await freePort();
    // One load generator on one address: the guest limits far up.
    const server = await serverProcess(url, BENCH_SECRET_KEY, port, {
      RATE_GUEST_ADDRESS_PER_MINUTE: '100000000',
      RATE_GUEST_APP_PER_MINUTE: '100000000',
    });
    try {
      await new Promise((r) => setTimeout(r, 2000));
      const started = rssOf(server);
      let turn = 0;
      const run = (amount: number) =>
        autocannon({
          url: `http://127.0.0.1:${port}`,
          connections: 16,
          amount,
          requests: [
            {
              setupRequest: (req) => {
                const n = turn++;
                const headers = { ...req.headers, 'x-crm-app-key': app.appKey, authorization: `Bearer ${tokens[n % PEOPLE]}` };
                if (n % 3 === 0) return { ...req, method: 'GET', path: '/guest/v1/consent', headers };
                if (n % 3 === 1)
                  return {
                    ...req,
                    method: 'POST',
                    path: '/guest/v1/checkin',
                    headers: { ...headers, 'content-type': 'application/json' },
                    body: JSON.stringify({
                      app_version: '1.0.0',
                      platform: 'web',
                      session_id: `s-${n % PEOPLE}`,
                      time_zone: 'Europe/Paris',
                    }),
                  };
                return {
                  ...req,
                  method: 'POST',
                  path: '/guest/v1/events',
                  headers: { ...headers, 'content-type': 'application/json' },
                  body: JSON.stringify({
                    app_version: '1.0.0',
                    platform: 'web',
                    events: [{ id: randomUUID(), name: 'screen_viewed', occurred_at: new Date().toISOString() }],
                  }),
                };
              },
            },
          ],
        });
      const warm = await run(WARM);
      if (warm.non2xx) throw new Error(`${warm.non2xx} answers were not 2xx in the warm-up: ${JSON.stringify(warm.statusCodeStats)}`);
      const samples = [rssOf(server)];
      for (let done = 0; done < REQUESTS; done += STEP) {
        const r = await run(STEP);
        if (r.non2xx) throw new Error(`${r.non2xx} answers were not 2xx: ${JSON.stringify(r.statusCodeStats)}`);
        samples.push(rssOf(server));
      }
      console.log(
        `memory: server RSS over ${REQUESTS.toLocaleString('en')} guest requests (consent, check-in, one event; ${PEOPLE} people)`,
      );
      console.log(`  after the start       ${mb(started)}`);
      console.log(`  warm (${WARM.toLocaleString('en')} requests)  ${mb(samples[0]!)}`);
      console.log(`  every ${STEP.toLocaleString('en')} after   ${samples.slice(1).map(mb).join(', ')}`);
      console.log(`  growth once warm      ${mb(samples[samples.length - 1]! - samples[0]!)} (aim: none; idle aim 150 MB)`);
    } finally {
      await stop(server);
    }
  }),
);
