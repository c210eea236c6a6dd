import { rows, sql, type Sql } from '../../db/sql.js';
import { sqlTransaction, type Ctx } from '../context.js';
import type { Entry, Step, WorkflowGraph } from './definition.js';

// People entering workflows, by every trigger through one statement (enterPeople): an event a
// live workflow's trigger names (handed on through the outbox as `workflow.event`, written with
// the event itself), and the triggers of triggers.ts and date-trigger.ts, each enter the person
// once per person or again once the workflow's days have passed, decided in one statement on
// workflow_entry, so a trigger sent twice, or two at once, enters once. The run's id is its
// de-duplication key: the person and the workflow for once-only entry, with the trigger's own key
// for entry again (an event's id, a change's outbox row, an audience move's row, a date); the
// engine starts a run once by its id, so a batch handed on twice starts each run once.

/** The outbox topic of events a workflow hears (written by crm_ingest_events for names in workflow_listen). */
export const WORKFLOW_EVENT = 'workflow.event';

/** What a person's run of a workflow is started with (workflows/processes/workflow-run's input). */
export interface WorkflowRunInput {
  appModeId: string;
  workflowId: string;
  versionId: string;
  /** The run's own key (its entry de-duplication key, and its id): deliveries of its webhook steps are named by it. */
  runKey: string;
  contactId: string;
  steps: Step[];
  goalEvent?: string;
}

/** A `workflow.event` row as the consumers read it. */
export interface HeardEvent {
  id: bigint;
  txId: bigint;
  appModeId: string;
  externalId: string | null;
  data: Record<string, unknown>;
  createdAt: Date;
}

/** A workflow's live version, as entering reads it. */
export interface Live {
  id: string;
  version_id: string;
  version_number: number;
  definition: WorkflowGraph;
}

/** A published workflow as entering reads it, with its state (paused: takes no one new, its runs go on). */
export type Published = Live & { state: 'live' | 'paused' };

/** The live workflows of an app-mode (or those of `states`) whose live version meets `where` (over `v.definition`). */
export const liveWorkflows = (ctx: Ctx, appModeId: string, where: Sql, states: readonly ('live' | 'paused')[] = ['live']) =>
  rows<Published>(
    ctx,
    sql`SELECT w.id, w.state::text AS state, v.id AS version_id, v.number AS version_number, v.definition
        FROM workflow w JOIN workflow_version v ON v.workflow_id = w.id AND v.number = w.live_version
        WHERE w.app_mode_id = ${appModeId} AND w.state::text = ANY(${states}::text[]) AND ${where}`,
  );

/** Rows grouped by their app-mode. */
export function byMode<T extends { appModeId: string }>(list: readonly T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const r of list) out.set(r.appModeId, [...(out.get(r.appModeId) ?? []), r]);
  return out;
}

/** A person a trigger would enter into a workflow: `key` names the trigger (an event's id, a change's row, a date) for entry again; `by` is the outbox row that brought it. */
export interface Entering {
  w: Live;
  contactId: string;
  key: string;
  by: { txId: bigint; id: bigint };
}

/** The run id of a person's entry: one per person and workflow once only, one per trigger (its key) when entering again. */
export const runIdOf = (ctx: Ctx, workflowId: string, contactId: string, entry: Entry, key: string) =>
  `wfr_${ctx.svc.secrets.keyedHash('workflow-run', [workflowId, contactId, entry.once ? '' : key].join('\u0000')).slice(0, 32)}`;

export type RunToStart = { runId: string; input: WorkflowRunInput };

/** The runs the batch's events start: entry decided and each run's record made, in one transaction. */
export async function enterOnEvents(ctx: Ctx, heard: readonly HeardEvent[]): Promise<RunToStart[]> {
  const starts: RunToStart[] = [];
  for (const [appModeId, events] of byMode(heard.filter((h) => h.externalId))) starts.push(...(await enterMode(ctx, appModeId, events)));
  return starts;
}

async function enterMode(ctx: Ctx, appModeId: string, events: HeardEvent[]) {
  const names = [...new Set(events.map((e) => String(e.data.name)))];
  const live = await liveWorkflows(
    ctx,
    appModeId,
    sql`v.definition->'trigger'->>'kind' = 'event' AND v.definition->'trigger'->>'event' = ANY(${names}::text[])`,
  );
  if (!live.length) return [];
  const people = new Map(
    (
      await rows<{ id: string; external_id: string }>(
        ctx,
        sql`SELECT id, external_id FROM contact WHERE app_mode_id = ${appModeId} AND erase_requested_at IS NULL
            AND external_id = ANY(${[...new Set(events.map((e) => e.externalId!))]}::text[])`,
      )
    ).map((p) => [p.external_id, p.id]),
  );
  const list: Entering[] = [];
  for (const e of events) {
    const contactId = people.get(e.externalId!);
    if (!contactId) continue;
    for (const w of live)
      if ((w.definition.trigger as { event?: string }).event === e.data.name)
        list.push({ w, contactId, key: String(e.data.event_id), by: e });
  }
  return enterPeople(ctx, appModeId, list);
}

/**
 * Enters people into workflows, whatever the trigger: entry decided in one statement on
 * workflow_entry and each entered run's record made, in one transaction. One candidate per
 * workflow and person: the first (a second in one batch cannot enter again). Callers pass only
 * people not being erased.
 */
export async function enterPeople(ctx: Ctx, appModeId: string, entering: readonly Entering[]): Promise<RunToStart[]> {
  const candidates = new Map<string, Entering & { runId: string }>();
  for (const c of entering) {
    const key = `${c.w.id} ${c.contactId}`;
    if (!candidates.has(key)) candidates.set(key, { ...c, runId: runIdOf(ctx, c.w.id, c.contactId, c.w.definition.entry, c.key) });
  }
  if (!candidates.size) return [];
  const list = [...candidates.values()];
  return sqlTransaction(ctx, async (tx) => {
    const now = tx.clock.now();
    const again = list.map((c) => (c.w.definition.entry.once ? null : (c.w.definition.entry as { againAfterDays: number }).againAfterDays));
    // Entered when new, when it is this run's own entry (a batch handed on again), or when its days have passed.
    const entered = await rows<{ last_run_id: string }>(
      tx,
      sql`
      WITH entered AS (
        INSERT INTO workflow_entry (workflow_id, contact_id, last_run_id, last_started_at, again_after_days)
        SELECT * FROM unnest(${list.map((c) => c.w.id)}::text[], ${list.map((c) => c.contactId)}::text[], ${list.map((c) => c.runId)}::text[],
                             ${list.map(() => now.toISOString())}::timestamp[], ${again}::int[])
        ON CONFLICT (workflow_id, contact_id) DO UPDATE SET
          last_run_id = excluded.last_run_id, last_started_at = excluded.last_started_at, again_after_days = excluded.again_after_days
        WHERE workflow_entry.last_run_id = excluded.last_run_id
           OR (excluded.again_after_days IS NOT NULL
               AND workflow_entry.last_started_at <= excluded.last_started_at - make_interval(days => excluded.again_after_days))
        RETURNING last_run_id
      ), made AS (
        INSERT INTO person_run (id, app_mode_id, workflow_id, version_id, version_number, contact_id, state, at_step, since, started_at,
                                trigger_tx, trigger_row)
        SELECT c.run_id, ${appModeId}, c.workflow_id, c.version_id, c.version_number, c.contact_id, 'active', c.first_step, ${now}, ${now},
               c.trigger_tx, c.trigger_row
        FROM unnest(${list.map((c) => c.runId)}::text[], ${list.map((c) => c.w.id)}::text[], ${list.map((c) => c.w.version_id)}::text[],
                    ${list.map((c) => c.w.version_number)}::int[], ${list.map((c) => c.contactId)}::text[],
                    ${list.map((c) => c.w.definition.steps[0]!.key)}::text[], ${list.map((c) => String(c.by.txId))}::bigint[],
                    ${list.map((c) => String(c.by.id))}::bigint[])
          AS c(run_id, workflow_id, version_id, version_number, contact_id, first_step, trigger_tx, trigger_row)
        WHERE c.run_id IN (SELECT last_run_id FROM entered)
        ON CONFLICT (id) DO NOTHING
      )
      SELECT last_run_id FROM entered`,
    );
    const granted = new Set(entered.map((e) => e.last_run_id));
    return list
      .filter((c) => granted.has(c.runId))
      .map(({ w, contactId, runId }) => ({
        runId,
        input: {
          appModeId,
          workflowId: w.id,
          versionId: w.version_id,
          runKey: runId,
          contactId,
          steps: w.definition.steps,
          ...(w.definition.exit.goalEvent && { goalEvent: w.definition.exit.goalEvent }),
        },
      }));
  });
}

/** The runs an event wakes: the person's runs under way, started by an event before it (in outbox order), of workflows that hear its name (by index). */
export async function runsHearing(ctx: Ctx, heard: readonly HeardEvent[]): Promise<{ runId: string; name: string }[]> {
  const some = heard.filter((h) => h.externalId);
  if (!some.length) return [];
  return (await rows<{ id: string; name: string }>(ctx, hearingStatement(some))).map((r) => ({ runId: r.id, name: r.name }));
}

/** runsHearing's statement: each event's person by the contact's key, their runs by person_run's index on the person, the workflow's names by workflow_listen's key. */
export const hearingStatement = (some: readonly HeardEvent[]): Sql => sql`
      SELECT r.id, x.name
      FROM unnest(${some.map((h) => h.appModeId)}::text[], ${some.map((h) => h.externalId)}::text[], ${some.map((h) => String(h.data.name))}::text[],
                  ${some.map((h) => String(h.txId))}::bigint[], ${some.map((h) => String(h.id))}::bigint[]) AS x(app_mode_id, external_id, name, tx_id, id)
      JOIN contact k ON k.app_mode_id = x.app_mode_id AND k.external_id = x.external_id
      JOIN person_run r ON r.contact_id = k.id AND r.state <> 'ended' AND (r.trigger_tx, r.trigger_row) < (x.tx_id, x.id)
      WHERE EXISTS (SELECT 1 FROM workflow_listen l WHERE l.app_mode_id = x.app_mode_id AND l.event = x.name AND l.workflow_id = r.workflow_id)`;
