import type pg from 'pg';
import { subjectHash } from '../contacts/erasure.js';
import { inTransaction, sqlTransaction, type Ctx, type GuestCaller } from '../context.js';
import { answerFirst, OUTBOX_CHANNEL } from '../outbox.js';
import { WriteGroups } from '../../db/groups.js';
import { exec, rows, sql, type Sql } from '../../db/sql.js';
import type { LiveMessage } from './live-messages.js';
import { CONTROL } from './message-input.js';
import { NEW_SESSION, RECENT_SESSIONS } from './sessions.js';
import { dayOf, INAPP_COUNTED } from './stats.js';

// What a check-in changed, written in one statement (so in one transaction and one round trip),
// with its outbox rows: messages answered (receipts, `message.sent`), people counted in a control
// group, goals reached (`goal.reached`), test copies delivered, the counts (`inapp.counted`), and
// the answer kept for the throttled check-ins after it. Each is counted once, whatever check-ins
// overlap: the statement says which rows it changed, and only those are answered and posted; the
// answer is kept only when everything chosen was written (else the caller keeps the one it gives).
// The person is held against an erase for the statement (crm_erased): erased meanwhile, nothing
// is written.
//
// Group commit (src/db/groups.ts), as the guest events do: while two groups are being written, the
// check-ins' writes that come meanwhile wait and go together, each person's statement as alone but
// all in one transaction (one commit: one flush to disk, and one hold of PostgreSQL's notify lock,
// which every transaction that notifies holds through its commit), and the answers kept for
// throttled check-ins in one UPDATE. A write with nothing waiting beside it goes alone, as before.

export interface Answered {
  message: LiveMessage;
  variant: string;
}

export interface Recorded {
  erased: boolean;
  /** The messages answered anew, and the test copies delivered, by this check-in. */
  answered: string[];
  tests: string[];
  /** Whether `answer` was kept (everything chosen was written). */
  kept: boolean;
}

interface Row {
  erased: boolean;
  answered: string[] | null;
  tests: string[] | null;
  kept: boolean;
}

/** What a check-in chose, as it is recorded (checkin.ts chooses). */
export interface ChoiceToRecord {
  answered: Answered[];
  controls: { message: LiveMessage }[];
  goals: string[];
  /** Test messages shown to a test phone: counted by id. */
  tests: { id: string }[];
}

export async function recordCheckin(
  ctx: Ctx<GuestCaller>,
  contactId: string,
  sessionId: string,
  choice: ChoiceToRecord,
  answer: { json: string; hash: string },
): Promise<Recorded> {
  const { appId, appModeId, externalId } = ctx.caller;
  const at = ctx.clock.now();
  const now = at.toISOString();
  const ids = choice.answered.map((a) => a.message.id);
  const tests = choice.tests.map((t) => t.id);
  const notErased = sql`NOT (SELECT gone FROM erased)`;
  answerFirst(ctx);
  const statement = sql`
      WITH erased AS (SELECT crm_erased(${appId}, ARRAY[${externalId}], ARRAY[${subjectHash(ctx.svc, appId, externalId)}], ${now}::timestamptz) <> '{}' AS gone),
      sent AS (
        INSERT INTO inapp_receipt AS r (message_id, contact_id, app_mode_id, variant, assigned_at, sent_at, last_sent_at, last_session, recent_sessions, sent_count)
        SELECT x.m, ${contactId}, ${appModeId}, x.v, ${now}::timestamptz, ${now}::timestamptz, ${now}::timestamptz, ${sessionId}, ARRAY[${sessionId}::text], 1
        FROM unnest(${ids}::text[], ${choice.answered.map((a) => a.variant)}::text[]) AS x(m, v) WHERE ${notErased}
        ON CONFLICT (message_id, contact_id) DO UPDATE
          SET sent_at = coalesce(r.sent_at, EXCLUDED.sent_at), last_sent_at = EXCLUDED.last_sent_at, last_session = EXCLUDED.last_session,
            recent_sessions = ${RECENT_SESSIONS}, sent_count = r.sent_count + 1
          WHERE ${NEW_SESSION} AND NOT r.control
        RETURNING r.message_id, r.variant, r.sent_count = 1 AS first),
      controls AS (
        INSERT INTO inapp_receipt (message_id, contact_id, app_mode_id, variant, control, assigned_at)
        SELECT m, ${contactId}, ${appModeId}, ${CONTROL}, true, ${now}::timestamptz FROM unnest(${choice.controls.map((c) => c.message.id)}::text[]) AS m WHERE ${notErased}
        ON CONFLICT (message_id, contact_id) DO NOTHING
        RETURNING message_id),
      reached AS (
        UPDATE inapp_receipt SET goal_reached_at = ${now}::timestamptz
        WHERE contact_id = ${contactId} AND message_id = ANY(${choice.goals}::text[]) AND goal_reached_at IS NULL AND ${notErased}
        RETURNING message_id, variant, control),
      delivered AS (
        UPDATE inapp_test_send SET delivered_at = ${now}::timestamptz WHERE id = ANY(${tests}::text[]) AND delivered_at IS NULL AND ${notErased}
        RETURNING id),
      counts AS (
        SELECT json_agg(json_build_object('messageId', c.m, 'variant', c.v, 'control', c.c, 'counter', c.counter, 'day', ${dayOf(at)}::text)) AS list
        FROM (SELECT message_id, variant, false, 'sent' FROM sent WHERE first
              UNION ALL SELECT message_id, ${CONTROL}::text, true, 'sent' FROM controls
              UNION ALL SELECT message_id, variant, control, 'goalReached' FROM reached) AS c(m, v, c, counter)),
      posted AS (
        INSERT INTO outbox_event (app_mode_id, topic, external_id, data, created_at)
        SELECT ${appModeId}, o.topic, o.person, o.data, ${now}::timestamptz AT TIME ZONE 'UTC'
        FROM (SELECT 1 AS i, 'message.sent' AS topic, ${externalId} AS person, jsonb_build_object('message_id', message_id, 'variant', variant, 'session_id', ${sessionId}::text) AS data FROM sent
              UNION ALL SELECT 2, 'goal.reached', ${externalId}, jsonb_build_object('message_id', message_id, 'variant', variant) FROM reached
              UNION ALL SELECT 3, ${INAPP_COUNTED}, NULL, jsonb_build_object('counts', list) FROM counts WHERE list IS NOT NULL) AS o
        ORDER BY o.i
        RETURNING 1),
      kept AS (
        UPDATE inapp_checkin SET answer = ${answer.json}::jsonb, answer_hash = ${answer.hash}
        WHERE contact_id = ${contactId} AND ${notErased} AND (SELECT count(*) FROM sent) = ${ids.length}::int AND (SELECT count(*) FROM delivered) = ${tests.length}::int
        RETURNING 1)
      SELECT (SELECT gone FROM erased) AS erased, (SELECT json_agg(message_id) FROM sent) AS answered, (SELECT json_agg(id) FROM delivered) AS tests,
             EXISTS (SELECT 1 FROM kept) AS kept,
             (SELECT count(*) FROM (SELECT pg_notify(${OUTBOX_CHANNEL}, '') FROM posted LIMIT 1) AS n) AS notified`;
  const row = inTransaction(ctx) ? await recordOn(ctx, statement) : await groupsOf(ctx).records.write({ ctx, contactId, statement });
  return { erased: row.erased, answered: row.answered ?? [], tests: row.tests ?? [], kept: row.kept };
}

const RECORD = 'crm_inapp_record';

async function recordOn(on: Parameters<typeof rows>[0], statement: Sql): Promise<Row> {
  const [row] = await rows<Row>(on, statement, { prepare: RECORD });
  return row!;
}

/** Writes in one group at most: its transaction stays short. */
const MAX_GROUP = 32;
/** Groups in flight at once per process: one waits on its commit's flush while the next is written. */
const GROUPS_IN_FLIGHT = 2;

interface RecordWrite {
  ctx: Ctx<GuestCaller>;
  contactId: string;
  statement: Sql;
}

interface StoreWrite {
  ctx: Ctx<GuestCaller>;
  contactId: string;
  answer: string;
  hash: string;
}

/** Check-ins' record writes of this process waiting for a group. */
export const recordWritesWaiting = (svc: { pool: pg.Pool }): number => groups.get(svc.pool)?.records.waitingCount ?? 0;

/** A process's groups, one pair per pool. */
const groups = new WeakMap<pg.Pool, { records: WriteGroups<RecordWrite, Row>; stores: WriteGroups<StoreWrite, void> }>();

function groupsOf(ctx: Ctx<GuestCaller>) {
  let kept = groups.get(ctx.svc.pool);
  if (!kept) {
    kept = {
      records: new WriteGroups<RecordWrite, Row>({
        max: MAX_GROUP,
        inFlight: GROUPS_IN_FLIGHT,
        key: (w) => w.contactId,
        alone: (w) => recordOn(w.ctx, w.statement),
        // Each person's statement as alone, one after another in one transaction.
        together: (ws) =>
          sqlTransaction(ws[0]!.ctx, async (tx) => {
            const out: Row[] = [];
            for (const w of ws) out.push(await recordOn(tx, w.statement));
            return out;
          }),
      }),
      stores: new WriteGroups<StoreWrite, void>({
        max: MAX_GROUP * 2,
        inFlight: GROUPS_IN_FLIGHT,
        key: (w) => w.contactId,
        alone: (w) => storeAnswers([w]),
        together: async (ws) => (await storeAnswers(ws), ws.map(() => undefined)),
      }),
    };
    groups.set(ctx.svc.pool, kept);
  }
  return kept;
}

/** The answer a throttled check-in is answered with, kept without waiting for its disk flush (it is only timing). */
export async function storeAnswer(ctx: Ctx<GuestCaller>, contactId: string, answer: string, hash: string): Promise<void> {
  // In a caller's transaction, written in it (and that transaction keeps its own durability).
  if (inTransaction(ctx))
    await exec(ctx, sql`UPDATE inapp_checkin SET answer = ${answer}::jsonb, answer_hash = ${hash} WHERE contact_id = ${contactId}`);
  else await groupsOf(ctx).stores.write({ ctx, contactId, answer, hash });
}

/** Answers kept without waiting for their disk flush (it is only timing): one statement for one or many. */
async function storeAnswers(ws: StoreWrite[]): Promise<void> {
  await exec(
    ws[0]!.ctx,
    {
      text: `WITH quick AS (SELECT set_config('synchronous_commit', 'off', true))
     UPDATE inapp_checkin k SET answer = x.answer::jsonb, answer_hash = x.hash
     FROM unnest($1::text[], $2::text[], $3::text[]) AS x(contact_id, answer, hash)
     WHERE k.contact_id = x.contact_id AND EXISTS (SELECT 1 FROM quick)`,
      values: [ws.map((w) => w.contactId), ws.map((w) => w.answer), ws.map((w) => w.hash)],
    },
    { prepare: 'crm_inapp_store_group' },
  );
}

/** The answer kept for the throttled check-ins (null until a first check-in keeps one); undefined once the person's row is gone (erased). */
export async function keptAnswer(ctx: Ctx<GuestCaller>, contactId: string): Promise<{ answer: unknown; hash: string | null } | undefined> {
  const [row] = await rows<{ answer: unknown; answer_hash: string | null }>(
    ctx,
    sql`SELECT answer, answer_hash FROM inapp_checkin WHERE contact_id = ${contactId}`,
    { prepare: 'crm_inapp_kept' },
  );
  return row && { answer: row.answer, hash: row.answer_hash };
}
