// POST /server/v1/events (500-event batches, bench/events.ts) as the event table grows: measured
// beside its floor (multi-row INSERT into the same table) with 0, 1 million and 10 million events
// already stored in the app-mode written to, so the ratio and the time per batch show whether a
// batch slows as a tenant's history grows. The stored rows are written by generate_series (a
// hundred thousand people, three names, a month of times), then analysed.
// `npx tsx bench/events-stored.ts` (about 10 minutes); BENCH_EVENTS_STORED=0,100000 for other levels.
import pg from 'pg';
import { exec, one, sql } from '../src/db/sql.js';
import { BENCH_SECRET_KEY, withBenchDatabase } from './database.js';
import { benchEvents, makeEventsApp, printEvents } from './events.js';

const LEVELS = (process.env.BENCH_EVENTS_STORED ?? '0,1000000,10000000').split(',').map(Number);
/** Rows written by one statement while filling. */
const CHUNK = 1_000_000;

/** Adds stored events to the app-mode until it holds `level` (those the benchmarks wrote counted). */
async function fill(url: string, appModeId: string, level: number): Promise<void> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    const held = Number(
      (await one<{ n: string }>({ pool }, sql`SELECT count(*) AS n FROM event WHERE app_mode_id = ${appModeId}::uuid`))!.n,
    );
    const started = Date.now();
    for (let from = held; from < level; from += CHUNK) {
      const to = Math.min(level, from + CHUNK) - 1;
      await exec(
        { pool },
        sql`
        INSERT INTO event (app_mode_id, id, external_id, name, occurred_at, received_at, source, platform, props)
        SELECT ${appModeId}::uuid, 'stored-' || g, 'person-' || (g % 100000), (ARRAY['page_seen', 'order_paid', 'signed_in'])[1 + g % 3],
               now() - (g % 2592000) * interval '1 second', now(), 'server', NULL, jsonb_build_object('path', '/p/' || (g % 100))
        FROM generate_series(${from}::bigint, ${to}::bigint) g
        ON CONFLICT DO NOTHING`,
      );
      process.stdout.write(`  stored ${(to + 1).toLocaleString('en')} (${Math.round((Date.now() - started) / 1000)} s)\r`);
    }
    await exec({ pool }, sql`VACUUM ANALYZE event`);
    if (level > held) console.log(`  filled to ${level.toLocaleString('en')} events in ${Math.round((Date.now() - started) / 1000)} s`);
  } finally {
    await pool.end();
  }
}

process.exit(
  await withBenchDatabase('crm_bench', async ({ url, adminUrl }) => {
    const { appModeId, serverKeys: keys } = await makeEventsApp(url, BENCH_SECRET_KEY);
    for (const level of LEVELS) {
      await fill(url, appModeId, level);
      printEvents(
        await benchEvents(adminUrl, BENCH_SECRET_KEY, keys, 'crm_bench'),
        `events: POST /server/v1/events, 500 per batch, 8 connections, ${level.toLocaleString('en')} events stored before`,
      );
    }
  }),
);
