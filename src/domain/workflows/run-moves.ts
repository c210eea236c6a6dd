import { rows, sql } from '../../db/sql.js';
import type { OutboxRow } from '../../db/outbox-dispatcher.js';
import { sqlTransaction, type Ctx, type StaffCaller } from '../context.js';
import { conflict, notFound } from '../errors.js';
import { emit } from '../outbox.js';
import type { Step, WorkflowGraph } from './definition.js';

// Moving a workflow's waiting runs to its live version. A run keeps the version it began on; staff
// may ask the runs waiting (on a timer) or parked (on an event) on older versions to move. A run
// moves only where the step it waits at is in the live version with the same kind; it then waits
// there with the timer it has, and walks the live version's steps from it. The others stay on their
// version, counted in the answer by version and step. The request writes one outbox row; the
// workflow-run process's consumer reads the runs a page at a time, by index, and sends each a
// `move` signal (its decide function records the move, moveWorkflowRun, and takes it).

/** The outbox topic of a request to move a workflow's waiting runs to its live version. */
export const RUNS_MOVED = 'workflow.runs_moved';
/** The most runs one request asks to move; the rest are counted (`notYet`) and moved by asking again. */
export const MAX_MOVED = 10_000;
/** Runs read and signalled at a time. */
export const MOVE_PAGE = 500;
/** The (version, step) pairs whose runs stay, listed in the answer at most. */
export const STAYING_SHOWN = 50;

/** Runs that stay on an older version: the step they wait at is not in the live version (or is another kind of step there). */
export interface StayingRuns {
  versionNumber: number;
  step: string;
  runs: number;
}

/** What a request to move answers. */
export interface RunsMove {
  /** The live version the runs are asked to move to. */
  versionNumber: number;
  /** Runs asked to move now (at most MAX_MOVED). */
  moving: number;
  /** Runs that could move beyond the bound: asked by the next request. */
  notYet: number;
  /** Runs that stay on their version, their step gone from the live version. */
  staying: number;
  /** The staying runs by version and step (the first STAYING_SHOWN pairs). */
  stayingAt: StayingRuns[];
}

/** The runs of a workflow that wait on a version older than `versionNumber`: waiting on a timer, or parked on an event. */
const WAITING_STATES = ['waiting', 'parked'] as const;

/**
 * Asks the workflow's runs waiting on older versions to move to its live version, where the step
 * each waits at is in it with the same kind: counted now (by version and step, one aggregate read)
 * and handed on by one outbox row in the same transaction. 409 `workflow_unpublished` before its
 * first version.
 */
export async function moveWaitingRuns(ctx: Ctx<StaffCaller>, workflowId: string): Promise<RunsMove> {
  return sqlTransaction(ctx, async (tx) => {
    // Shared with other moves, exclusive of a publish (which holds the row for update): the live version stays the one counted.
    const [w] = await rows<{ appModeId: string; liveVersion: number | null; versionId: string | null }>(
      tx,
      sql`SELECT w.app_mode_id AS "appModeId", w.live_version AS "liveVersion", v.id AS "versionId"
          FROM workflow w LEFT JOIN workflow_version v ON v.workflow_id = w.id AND v.number = w.live_version
          WHERE w.id = ${workflowId} FOR SHARE OF w`,
    );
    if (!w) throw notFound('No such workflow.');
    if (w.liveVersion === null || w.versionId === null) throw conflict('workflow_unpublished', 'Publish the workflow first.');
    const groups = await rows<{ versionNumber: number; step: string; runs: number; moves: boolean }>(
      tx,
      sql`
      WITH live AS (
        SELECT s->>'key' AS key, s->>'kind' AS kind FROM workflow_version v, jsonb_array_elements(v.definition->'steps') s
        WHERE v.id = ${w.versionId}
      ), waiting AS (
        SELECT version_id, version_number, at_step, count(*)::int AS runs FROM person_run
        WHERE workflow_id = ${workflowId} AND app_mode_id = ${w.appModeId} AND state = ANY(${[...WAITING_STATES]}::"PersonRunState"[])
          AND version_number < ${w.liveVersion}
        GROUP BY 1, 2, 3
      )
      SELECT g.version_number AS "versionNumber", g.at_step AS step, g.runs,
        EXISTS (SELECT 1 FROM workflow_version o, jsonb_array_elements(o.definition->'steps') s JOIN live ON live.key = s->>'key' AND live.kind = s->>'kind'
                WHERE o.id = g.version_id AND s->>'key' = g.at_step) AS moves
      FROM waiting g ORDER BY g.version_number, g.at_step`,
    );
    const movable = groups.filter((g) => g.moves).reduce((n, g) => n + g.runs, 0);
    const stay = groups.filter((g) => !g.moves);
    const moving = Math.min(movable, MAX_MOVED);
    if (moving > 0)
      await emit(tx, RUNS_MOVED, {
        appModeId: w.appModeId,
        data: { workflow_id: workflowId, version_id: w.versionId, version_number: w.liveVersion, at_most: moving },
      });
    return {
      versionNumber: w.liveVersion,
      moving,
      notYet: movable - moving,
      staying: stay.reduce((n, g) => n + g.runs, 0),
      stayingAt: stay.slice(0, STAYING_SHOWN).map(({ versionNumber, step, runs }) => ({ versionNumber, step, runs })),
    };
  });
}

/**
 * What a batch asks of runs (`steers`, its events and cancels), then the moves its RUNS_MOVED rows
 * ask for, a page at a time: the workflow-run process's steering (workflows/processes/workflow-run/wiring.ts).
 */
export const withMoves = <Steer>(steers: (ctx: Ctx, rows: readonly OutboxRow[]) => Promise<Steer[]>) =>
  async function* (ctx: Ctx, batch: readonly OutboxRow[]): AsyncGenerator<(Steer | MoveSteer)[]> {
    yield await steers(ctx, batch);
    yield* runsToMove(
      ctx,
      batch.filter((r) => r.topic === RUNS_MOVED),
    );
  };

/** A `move` signal to a run: what its decide function takes (workflows/processes/workflow-run/decide.ts). */
export interface MoveSteer {
  runId: string;
  signal: 'move';
  payload: { versionId: string; steps: Step[]; goalEvent?: string };
}

/**
 * The `move` signals a batch's RUNS_MOVED rows ask for, a page at a time: each row's waiting and
 * parked runs on older versions whose step is in the row's version with the same kind, read by
 * index (a workflow's runs of one state, newest first) MOVE_PAGE at a time, at most the row's
 * `at_most`. Only a page of runs is held at once, whatever the number of runs.
 */
export async function* runsToMove(ctx: Ctx, moved: readonly OutboxRow[]): AsyncGenerator<MoveSteer[]> {
  for (const row of moved) {
    const workflowId = String(row.data.workflow_id);
    const versionId = String(row.data.version_id);
    const versionNumber = Number(row.data.version_number);
    let left = Number(row.data.at_most);
    const [version] = await rows<{ definition: WorkflowGraph }>(
      ctx,
      sql`SELECT definition FROM workflow_version WHERE id = ${versionId} AND workflow_id = ${workflowId} AND app_mode_id = ${row.appModeId}`,
    );
    if (!version) continue; // the workflow was deleted meanwhile
    const { steps, exit } = version.definition;
    const payload = { versionId, steps, ...(exit.goalEvent && { goalEvent: exit.goalEvent }) };
    const liveKinds = new Map(steps.map((s) => [s.key, s.kind]));
    /** Each older version's step kinds, read once per version met. */
    const kindsOf = new Map<string, Map<string, string>>();
    for (const state of WAITING_STATES) {
      let after: { startedAt: Date; id: string } | undefined;
      while (left > 0) {
        const page = await rows<{ id: string; versionId: string; atStep: string; startedAt: Date }>(
          ctx,
          sql`SELECT id, version_id AS "versionId", at_step AS "atStep", started_at AS "startedAt" FROM person_run
              WHERE workflow_id = ${workflowId} AND state = ${state}::"PersonRunState" AND app_mode_id = ${row.appModeId}
                ${after ? sql`AND (started_at, id) < (${after.startedAt}, ${after.id})` : sql``}
                AND version_number < ${versionNumber}
              ORDER BY started_at DESC, id DESC LIMIT ${MOVE_PAGE}`,
        );
        if (!page.length) break;
        after = page.at(-1)!;
        const unknown = [...new Set(page.map((r) => r.versionId))].filter((v) => !kindsOf.has(v));
        if (unknown.length) {
          for (const v of unknown) kindsOf.set(v, new Map());
          const found = await rows<{ id: string; key: string; kind: string }>(
            ctx,
            sql`SELECT v.id, s->>'key' AS key, s->>'kind' AS kind FROM workflow_version v, jsonb_array_elements(v.definition->'steps') s
                WHERE v.id = ANY(${unknown}::text[])`,
          );
          for (const f of found) kindsOf.get(f.id)!.set(f.key, f.kind);
        }
        const asked = page
          .filter((r) => {
            const kind = kindsOf.get(r.versionId)!.get(r.atStep);
            return kind !== undefined && liveKinds.get(r.atStep) === kind;
          })
          .slice(0, left);
        left -= asked.length;
        if (asked.length) yield asked.map((r) => ({ runId: r.id, signal: 'move' as const, payload }));
        if (page.length < MOVE_PAGE) break;
      }
    }
  }
}
