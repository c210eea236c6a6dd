import { join, one, raw, sql, type Sql } from '../../db/sql.js';
import { sqlTransaction, type Ctx, type TxCtx } from '../context.js';

// A run's record where staff read it (person_run, person_run_step): each step's activity takes the
// step in the transaction that records it, so a step's effect on the database and its record
// commit together, and a retried activity finds its visit recorded and does nothing twice. The
// step the run came from is closed first, with the way it was left (a wait: waited, event,
// timeout). A run whose record is gone (the person was erased) takes no step.

/** The step a run has just left and how. */
export interface Left {
  key: string;
  visit: number;
  way: string;
}

/** One visit of one step by a run. */
export interface Visit {
  runKey: string;
  contactId: string;
  step: { key: string; kind: string };
  visit: number;
  from?: Left;
}

/** How a step went: its outcome (passed, sent, skipped, failed, yes, no) and why, in a reason code and a line of detail. */
export interface Done {
  outcome: string;
  reason?: string;
  detail?: string;
}

/** Where a step leaves the run: at the step, active; or waiting on a timer (perhaps for an event too), or parked on an event only. */
export type Standing = { state: 'active' } | { state: 'waiting'; until: Date; waitsFor?: string } | { state: 'parked'; waitsFor: string };

/** What a step's effect is given: the transaction, and the person as they are (locked with the run). */
export interface Taking {
  tx: TxCtx;
  person: {
    id: string;
    appModeId: string;
    externalId: string;
    timeZone: string | null;
    tags: string[];
    attributes: Record<string, unknown>;
  };
}

/**
 * Whether a visit is still to be taken: false when its run's record is gone (an erase) or the
 * visit was recorded (before a restart); then takeStep answers what stands. Read before an effect
 * made outside the database (a post), so that one recorded is not made again.
 */
export async function stillToTake(ctx: Ctx, visit: Pick<Visit, 'runKey' | 'step' | 'visit'>): Promise<boolean> {
  const taken = await one<{ outcome: string | null }>(
    ctx,
    sql`SELECT s.outcome FROM person_run r LEFT JOIN person_run_step s ON s.run_id = r.id AND s.step_key = ${visit.step.key} AND s.visit = ${visit.visit}
        WHERE r.id = ${visit.runKey}`,
    { prepare: true },
  );
  return taken !== undefined && taken !== null && taken.outcome === null;
}

/** Adds to a workflow's step counters (statistics.ts): rows of (step, measure, n) from `source`, in this connection's slot. */
const counting = (name: string, workflowId: string, source: Sql): Sql => sql`${raw(name)} AS (
  INSERT INTO workflow_step_count (workflow_id, step_key, measure, slot, n)
  SELECT ${workflowId}, c.step_key, c.measure, (pg_backend_pid() % 8)::smallint, sum(c.n) FROM (${source}) c(step_key, measure, n)
  GROUP BY 1, 2, 3, 4 ORDER BY 2, 3
  ON CONFLICT (workflow_id, step_key, measure, slot) DO UPDATE SET n = workflow_step_count.n + excluded.n)`;

/** Closes the step left (a wait), if still open: its way out becomes its outcome, and it is counted as left. */
const closing = (runKey: string, workflowId: string, from: Left | undefined, now: Date): Sql[] =>
  from
    ? [
        sql`closed AS (
          UPDATE person_run_step SET left_at = ${now}, outcome = ${from.way}
          WHERE run_id = ${runKey} AND step_key = ${from.key} AND visit = ${from.visit} AND left_at IS NULL
          RETURNING step_key)`,
        counting('closed_count', workflowId, sql`SELECT step_key, m, n FROM closed, (VALUES ('waiting', -1), (${from.way}, 1)) v(m, n)`),
      ]
    : [];

/**
 * Takes a step once: its effect and its record in one transaction. Answers what was recorded: the
 * effect's now, or the visit's first record when the step was taken already (a retried activity),
 * or `erased` when the run's record is gone.
 */
export async function takeStep(
  ctx: Ctx,
  visit: Visit,
  effect: (t: Taking) => Promise<Done & { standing?: Standing }>,
): Promise<Done & { until?: Date }> {
  return sqlTransaction(ctx, async (tx) => {
    const now = tx.clock.now();
    type Found = {
      done: boolean;
      outcome: string | null;
      reason: string | null;
      detail: string | null;
      until: Date | null;
      workflowId: string;
    };
    const found = await one<Found & Taking['person']>(
      tx,
      sql`
      SELECT s.id IS NOT NULL AS done, s.outcome, s.reason, s.detail, r.until, r.workflow_id AS "workflowId",
             k.id, k.app_mode_id AS "appModeId", k.external_id AS "externalId", k.time_zone AS "timeZone", k.tags, k.attributes
      FROM person_run r JOIN contact k ON k.id = r.contact_id
      LEFT JOIN person_run_step s ON s.run_id = r.id AND s.step_key = ${visit.step.key} AND s.visit = ${visit.visit}
      WHERE r.id = ${visit.runKey}
      FOR UPDATE OF r, k`,
      { prepare: true },
    );
    if (!found) return { outcome: 'skipped', reason: 'erased' };
    if (found.done)
      return {
        ...doneOf({ outcome: found.outcome ?? 'waiting', reason: found.reason, detail: found.detail }),
        ...(found.until && { until: found.until }),
      };
    const { done: _d, outcome: _o, reason: _r, detail: _t, until: _u, workflowId, ...person } = found;
    const done = await effect({ tx, person });
    const standing = done.standing ?? { state: 'active' };
    const open = standing.state !== 'active';
    await one(
      tx,
      sql`
      WITH ${join([
        ...closing(visit.runKey, workflowId, visit.from, now),
        counting(
          'visit_count',
          workflowId,
          sql`VALUES (${visit.step.key}, 'entered', 1), (${visit.step.key}, ${open ? 'waiting' : done.outcome}, 1)`,
        ),
        sql`visited AS (
          INSERT INTO person_run_step (run_id, step_key, kind, visit, entered_at, left_at, outcome, reason, detail)
          VALUES (${visit.runKey}, ${visit.step.key}, ${visit.step.kind}, ${visit.visit}, ${now}, ${open ? null : now},
                  ${open ? null : done.outcome}, ${done.reason ?? null}, ${done.detail ?? null}))`,
      ])}
      UPDATE person_run SET at_step = ${visit.step.key}, state = ${standing.state}::"PersonRunState", since = ${now},
        until = ${standing.state === 'waiting' ? standing.until : null},
        waits_for = ${standing.state === 'active' ? null : (standing.waitsFor ?? null)}
      WHERE id = ${visit.runKey}
      RETURNING 1`,
      { prepare: true },
    );
    return { ...doneOf(done), ...(standing.state === 'waiting' && { until: standing.until }) };
  });
}

/** A step skipped, with its reason code and, perhaps, a line of detail. */
export const skipped = (reason: string, detail?: string): Done => ({ outcome: 'skipped', reason, ...(detail && { detail }) });

/** Takes a step whose outcome was decided outside the transaction (after a post, a hand-over): its record alone. */
export const recordStep = (ctx: Ctx, visit: Visit, done: Done) => takeStep(ctx, visit, async () => done);

const doneOf = (d: { outcome: string; reason?: string | null; detail?: string | null }): Done => ({
  outcome: d.outcome,
  ...(d.reason && { reason: d.reason }),
  ...(d.detail && { detail: d.detail }),
});

/**
 * A step begun and not yet done (a webhook between its tries; a send held until its window opens,
 * `until`): the step left is closed and the run shown at this step, active (or waiting until then),
 * from when it entered the step; its visit is recorded when done (takeStep).
 */
export async function stepBegun(ctx: Ctx, visit: Visit & { at: string; workflowId: string }, until?: Date): Promise<void> {
  const now = ctx.clock.now();
  const also = closing(visit.runKey, visit.workflowId, visit.from, now);
  await one(
    ctx,
    sql`
    ${also.length ? sql`WITH ${join(also)}` : sql``}
    UPDATE person_run SET at_step = ${visit.step.key}, state = ${until ? 'waiting' : 'active'}::"PersonRunState", since = ${new Date(visit.at)},
      until = ${until ?? null}, waits_for = NULL
    WHERE id = ${visit.runKey} AND state <> 'ended'
    RETURNING 1`,
    { prepare: true },
  );
}

/** Records the run's end: the step left closed, the run ended with its outcome at the step it ended at. Idempotent. */
export async function endRun(
  ctx: Ctx,
  end: { runKey: string; workflowId: string; at: string; outcome: string; from?: Left },
): Promise<void> {
  const now = ctx.clock.now();
  await one(
    ctx,
    sql`
    WITH ${join([
      ...closing(end.runKey, end.workflowId, end.from, now),
      sql`ended AS (
        UPDATE person_run SET state = 'ended', outcome = ${end.outcome}, at_step = ${end.at}, since = ${now}, ended_at = ${now},
          until = NULL, waits_for = NULL
        WHERE id = ${end.runKey} AND state <> 'ended'
        RETURNING at_step)`,
      counting('end_count', end.workflowId, sql`SELECT at_step, ${`end:${end.outcome}`}, 1 FROM ended`),
    ])}
    SELECT 1 FROM ended`,
    { prepare: true },
  );
}

/**
 * Records a waiting run on the newer version it moves to (its version, and the event its step waits
 * for there), in one statement. Idempotent; a run ended or gone (erased) is left as it is.
 */
export async function moveRun(ctx: Ctx, move: { runKey: string; workflowId: string; versionId: string; waitsFor?: string }): Promise<void> {
  await one(
    ctx,
    sql`
    UPDATE person_run r SET version_id = v.id, version_number = v.number,
      waits_for = CASE WHEN r.state IN ('waiting', 'parked') THEN ${move.waitsFor ?? null} ELSE r.waits_for END
    FROM workflow_version v
    WHERE r.id = ${move.runKey} AND r.state <> 'ended' AND v.id = ${move.versionId} AND v.workflow_id = r.workflow_id
    RETURNING 1`,
  );
}

/** Runs removed while waiting (an erase): no longer counted as waiting at their step. */
export async function uncountWaiting(tx: TxCtx, runs: { workflowId: string; atStep: string }[]): Promise<void> {
  for (const workflowId of new Set(runs.map((r) => r.workflowId))) {
    const steps = runs.filter((r) => r.workflowId === workflowId).map((r) => r.atStep);
    await one(tx, sql`WITH ${counting('gone', workflowId, sql`SELECT s, 'waiting', -1 FROM unnest(${steps}::text[]) s`)} SELECT 1`);
  }
}
