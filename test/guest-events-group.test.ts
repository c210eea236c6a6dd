import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from './support/db.js';

// crm_guest_events_group writes a group of guest event batches set-wise (one statement for all the
// people, one for all the events and counts). Its answers and rows must be those of writing each
// batch by crm_guest_events one after another, in the group's order, in one transaction: the same
// group is written both ways, in two apps seeded alike, and everything they wrote is compared.

let db: pg.Client;
let url: string;
beforeAll(async () => {
  url = await createTestDatabase();
  db = new pg.Client({ connectionString: url });
  await db.connect();
});
afterAll(() => db?.end());

const ERASED_DETAIL = 'This person was erased.';
const T0 = Date.parse('2026-11-20T10:00:00.000Z');

interface Side {
  appId: string;
  modes: [string, string];
}

/** An app with two modes; in its first mode a person with an SDK, one who turned product events off, one erased, one stored event. */
async function seed(label: string): Promise<Side> {
  const ws = randomUUID();
  const appId = randomUUID();
  const modes: [string, string] = [randomUUID(), randomUUID()];
  await db.query(`INSERT INTO workspace (id, name) VALUES ($1, $2)`, [ws, label]);
  await db.query(`INSERT INTO app (id, workspace_id, name) VALUES ($1, $2, $3)`, [appId, ws, label]);
  for (const [i, id] of modes.entries())
    await db.query(
      `INSERT INTO app_mode (id, app_id, mode, app_key, identity_secret_enc, inbound_secret_enc, brand_name)
       VALUES ($1, $2, $3, $4, 'x', 'x', $5)`,
      [id, appId, i === 0 ? 'live' : 'test', `key-${id}`, label],
    );
  const contact = (external: string, sdk: string | null, off = false) =>
    db.query(
      `INSERT INTO contact (id, app_mode_id, external_id, last_sdk, product_events_off, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $6)`,
      [randomUUID(), modes[0], external, sdk, off, new Date(T0 - 86_400_000)],
    );
  await contact('known', 'sdk/1');
  await contact('back', 'a');
  await contact('off', null, true);
  // Erased, and being erased (the contact not yet removed).
  await contact('erasing', 'sdk/1');
  for (const who of ['gone', 'erasing'])
    await db.query(`INSERT INTO erase_request (id, app_id, subject_hash, requested_at, blocked_until) VALUES ($1, $2, $3, $4, $5)`, [
      randomUUID(),
      appId,
      `hash-${who}`,
      new Date(T0 - 3_600_000),
      new Date(T0 + 30 * 86_400_000),
    ]);
  await db.query(
    `INSERT INTO event (app_mode_id, id, external_id, name, occurred_at, received_at, source, platform, props)
     VALUES ($1, 'stored', 'known', 'app_opened', $2, $2, 'guest', 'ios', '{}')`,
    [modes[0], new Date(T0 - 60_000)],
  );
  return { appId, modes };
}

interface Batch {
  mode: 0 | 1;
  who: string;
  sdk: string | null;
  platform: string;
  events: { id: string; name?: string; day?: number; props?: object }[];
  refused?: { index: number; id: string; name: string; reason: string; detail: string }[];
}

// Each line is a case a set-wise write could get wrong.
const GROUP: Batch[] = [
  // A new person: made once for the group, with the last SDK named (batches 3 and 6); the same id twice in a batch: its last kept.
  { mode: 0, who: 'new', sdk: null, platform: 'ios', events: [{ id: 'e1' }, { id: 'e2', props: { v: 1 } }, { id: 'e2', props: { v: 2 } }] },
  // Known: an id already stored is not kept again; a refusal recorded; the SDK changed.
  {
    mode: 0,
    who: 'known',
    sdk: 'sdk/2',
    platform: 'ios',
    events: [{ id: 'stored' }, { id: 'e3', day: -1 }],
    refused: [{ index: 2, id: 'r1', name: 'app_opened', reason: 'too_old', detail: 'Events older than a week are refused.' }],
  },
  // Erased: nothing written, not even its refusals; the others of the group are written.
  {
    mode: 0,
    who: 'gone',
    sdk: 'sdk/2',
    platform: 'ios',
    events: [{ id: 'e4' }],
    refused: [{ index: 1, id: 'r2', name: 'app_opened', reason: 'too_old', detail: 'x' }],
  },
  // The new person again: e1 was kept by batch 0 (so not here), e5 is.
  {
    mode: 0,
    who: 'new',
    sdk: 'sdk/9',
    platform: 'web',
    events: [
      { id: 'e1', props: { late: true } },
      { id: 'e5', name: 'screen_viewed' },
    ],
  },
  // Product events off: nothing kept, no refusal recorded.
  {
    mode: 0,
    who: 'off',
    sdk: null,
    platform: 'ios',
    events: [{ id: 'e6' }],
    refused: [{ index: 1, id: 'r3', name: 'app_opened', reason: 'too_old', detail: 'x' }],
  },
  // The same external id and event id in the other mode: another person, another event.
  { mode: 1, who: 'new', sdk: 'other', platform: 'android', events: [{ id: 'e1' }] },
  { mode: 0, who: 'new', sdk: 'sdk/10', platform: 'ios', events: [] },
  // Changed and changed back: written (updated_at moves), ending as it was.
  { mode: 0, who: 'back', sdk: 'b', platform: 'ios', events: [{ id: 'e7' }] },
  { mode: 0, who: 'back', sdk: 'a', platform: 'ios', events: [{ id: 'e8' }] },
  // Nothing to write but the person; an SDK named again unchanged does not move updated_at.
  { mode: 0, who: 'known', sdk: 'sdk/2', platform: 'ios', events: [] },
  { mode: 0, who: 'twice', sdk: 's', platform: 'ios', events: [{ id: 'e9' }] },
  { mode: 0, who: 'twice', sdk: null, platform: 'ios', events: [{ id: 'e9' }, { id: 'e10' }] },
  { mode: 0, who: 'twice', sdk: 's', platform: 'ios', events: [{ id: 'e11', day: -2 }] },
  { mode: 0, who: 'erasing', sdk: 'sdk/3', platform: 'ios', events: [{ id: 'e12' }] },
  // A refusal alone, of a person seen first here.
  {
    mode: 0,
    who: 'refused-only',
    sdk: null,
    platform: 'ios',
    events: [],
    refused: [{ index: 0, id: '', name: 'x', reason: 'invalid', detail: 'd' }],
  },
];

/** The group's batches as crm_guest_events_group reads them, for one side (each batch a second later than the one before). */
function batches(side: Side, group: Batch[] = GROUP) {
  return group.map((b, n) => ({
    app_id: side.appId,
    app_mode_id: side.modes[b.mode],
    external_id: b.who,
    hash: `hash-${b.who}`,
    sdk: b.sdk,
    now: new Date(T0 + n * 1000).toISOString(),
    platform: b.platform,
    idx: b.events.map((_, i) => i),
    ids: b.events.map((e) => e.id),
    names: b.events.map((e) => e.name ?? 'app_opened'),
    occurred: b.events.map((e) => T0 - 60_000 + (e.day ?? 0) * 86_400_000),
    props: b.events.map((e) => e.props ?? {}),
    refused: (b.refused ?? []).map((r) => ({ ...r, external_id: null })),
  }));
}

/** Everything a side's modes hold that a guest event batch writes, its modes named by their place. */
async function written(side: Side) {
  // Rows by mode (its place), then as each query orders them.
  const place = (mode: string) => side.modes.indexOf(mode);
  const q = async (text: string) =>
    (await db.query(text, [side.modes])).rows.map((r) => ({ ...r, m: place(r.m) })).sort((a, b) => a.m - b.m);
  return {
    contacts: await q(`SELECT app_mode_id AS m, external_id, last_sdk, product_events_off,
                              (extract(epoch FROM created_at) * 1000)::float8 AS created, (extract(epoch FROM updated_at) * 1000)::float8 AS updated
                       FROM contact WHERE app_mode_id = ANY($1) ORDER BY 1, 2`),
    events: await q(`SELECT app_mode_id::text AS m, id, external_id, name, occurred_at, received_at, source, platform, props
                     FROM event WHERE app_mode_id::text = ANY($1) ORDER BY 1, 2`),
    counts: await q(`SELECT app_mode_id::text AS m, day, name, platform, sum(count)::int AS count
                     FROM event_daily_count WHERE app_mode_id::text = ANY($1) GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`),
    refused: await q(`SELECT app_mode_id AS m, source, event_id, name, external_id, index, reason, detail,
                             (extract(epoch FROM received_at) * 1000)::float8 AS received
                      FROM refused_event WHERE app_mode_id = ANY($1) ORDER BY 1, 9, 6, 3`),
  };
}

describe('a group of guest event batches written set-wise', () => {
  it('answers and writes as its batches written one after another: erased, events off, new people, ids sent twice, SDKs', async () => {
    const [grouped, oneByOne] = [await seed('grouped'), await seed('one by one')];

    const { rows: answers } = await db.query('SELECT n, erased, events_off, accepted FROM crm_guest_events_group($1::json, $2)', [
      JSON.stringify(batches(grouped)),
      ERASED_DETAIL,
    ]);

    const alone: { erased: boolean; events_off: boolean; accepted: number }[] = [];
    await db.query('BEGIN');
    for (const b of batches(oneByOne)) {
      const { rows } = await db.query(
        `SELECT erased, events_off, accepted FROM crm_guest_events($1, $2::text, $3, $4, $5, $6::timestamptz, $7,
           $8::int[], $9::text[], $10::text[], $11::bigint[], $12::jsonb[], $13::json, $14)`,
        [
          b.app_id,
          b.app_mode_id,
          b.external_id,
          b.hash,
          b.sdk,
          b.now,
          b.platform,
          b.idx,
          b.ids,
          b.names,
          b.occurred,
          b.props.map((p) => JSON.stringify(p)),
          JSON.stringify(b.refused),
          ERASED_DETAIL,
        ],
      );
      alone.push(rows[0]);
    }
    await db.query('COMMIT');

    expect(answers).toEqual(alone.map((a, n) => ({ n, ...a })));
    // What the cases above make of it, so that both ways cannot be wrong alike.
    expect(answers.map((a) => (a.erased ? 'erased' : a.events_off ? 'off' : a.accepted))).toEqual([
      2,
      1,
      'erased',
      1,
      'off',
      1,
      0,
      1,
      1,
      0,
      1,
      1,
      1,
      'erased',
      0,
    ]);
    const [got, want] = [await written(grouped), await written(oneByOne)];
    expect(got).toEqual(want);
    expect(got.contacts.map((c) => [c.m, c.external_id, c.last_sdk, c.updated - T0])).toEqual([
      [0, 'back', 'a', 8000],
      [0, 'erasing', 'sdk/1', -86_400_000],
      [0, 'known', 'sdk/2', 1000],
      [0, 'new', 'sdk/10', 6000],
      [0, 'off', null, -86_400_000],
      [0, 'refused-only', null, 14_000],
      [0, 'twice', 's', 10_000],
      [1, 'new', 'other', 5000],
    ]);
    expect(got.events.filter((e) => e.id === 'e2').map((e) => e.props)).toEqual([{ v: 2 }]);
    expect(got.refused.map((r) => r.event_id)).toEqual(['r1', null]);
  });
});

describe('a group whose new person another transaction makes meanwhile', () => {
  it('waits for it, then writes the SDK on the contact the other made, as a batch alone would', async () => {
    const side = await seed('raced');
    const other = new pg.Client({ connectionString: url });
    await other.connect();
    try {
      // The other transaction's first sight of the person holds the key until it commits.
      await other.query('BEGIN');
      await other.query(
        `INSERT INTO contact (id, app_mode_id, external_id, last_sdk, created_at, updated_at) VALUES ($1, $2, 'raced', 'sdk/other', $3, $3)`,
        [randomUUID(), side.modes[0], new Date(T0 - 1000)],
      );
      const group = [
        { mode: 0, who: 'raced', sdk: 'sdk/mine', platform: 'ios', events: [{ id: 'r1' }] },
        { mode: 0, who: 'known', sdk: null, platform: 'ios', events: [{ id: 'r2' }] },
      ] satisfies Batch[];
      const pid = (await db.query('SELECT pg_backend_pid() AS pid')).rows[0].pid as number;
      const answer = db.query('SELECT n, erased, events_off, accepted FROM crm_guest_events_group($1::json, $2)', [
        JSON.stringify(batches(side, group)),
        ERASED_DETAIL,
      ]);
      await expect
        .poll(
          async () => (await other.query(`SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1`, [pid])).rows[0]?.wait_event_type,
        )
        .toBe('Lock');
      await other.query('COMMIT');
      expect((await answer).rows.map((r) => r.accepted)).toEqual([1, 1]);
      const person = (await written(side)).contacts.find((c) => c.external_id === 'raced')!;
      expect([person.last_sdk, person.created - T0, person.updated - T0]).toEqual(['sdk/mine', -1000, 0]);
    } finally {
      await other.end();
    }
  });
});
