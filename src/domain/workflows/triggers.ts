import type { OutboxRow } from '../../db/outbox-dispatcher.js';
import { exec, rows, sql } from '../../db/sql.js';
import { compileAudience } from '../audiences/compile.js';
import { peopleFacts, type PersonRow } from '../audiences/people-facts.js';
import type { Rule } from '../audiences/rules.js';
import { CONTACT_CHANGED } from '../contacts/changes.js';
import { sqlTransaction, type Ctx } from '../context.js';
import { DATE_REACHED, enterOnDates } from './date-trigger.js';
import {
  byMode,
  enterOnEvents,
  enterPeople,
  liveWorkflows,
  WORKFLOW_EVENT,
  type Entering,
  type Published,
  type RunToStart,
} from './entry.js';
import { ruleNames } from './workflows.js';

// The triggers beside the event (entry.ts): a person's change (`workflow.change`, written with the
// change by contacts/changes.ts when a workflow watches one of its names) starts the workflows
// whose `attribute_changed` trigger names a changed attribute; and a change of what an audience
// reads (an attribute, a field, a tag, an event it counts) has the audiences of the app-mode's
// workflows read again for the person, by the audiences' own reader (audiences/people-facts.ts):
// one who now matches and did not (or was not seen) enters (`audience_entered`), one who no
// longer matches has left, and their runs of a workflow that exits on leaving get the `exit`
// signal, outcome `left_audience`. Whether a person is inside is kept per workflow and person
// (workflow_audience), so entering is a move from outside to inside. A rule over time ("last seen
// more than 7 days ago") is read when the person changes, not by the clock. Every trigger enters
// by one path (entry.ts's enterPeople).

/** The outcome of a run ended by its person leaving the workflow's audience. */
export const LEFT_AUDIENCE = 'left_audience';

/** What a workflow.change row carries. */
const changeOf = (row: OutboxRow) => ({ contactId: String(row.data.contact_id), names: (row.data.names as string[] | undefined) ?? [] });

/** The runs a batch of the workflows' rows starts: event triggers, attribute changes, people entering an audience, and dates reached. */
export async function enterOnTriggers(ctx: Ctx, batch: readonly OutboxRow[]): Promise<RunToStart[]> {
  const starts = await enterOnEvents(
    ctx,
    batch.filter((r) => r.topic === WORKFLOW_EVENT),
  );
  const changes = batch.filter((r) => r.topic === CONTACT_CHANGED);
  for (const [appModeId, list] of byMode(changes)) starts.push(...(await enterMode(ctx, appModeId, list)));
  // An audience is read again on an event it counts, too.
  const moves = await audienceMoves(ctx, batch);
  for (const [appModeId, entered] of moves.entered) starts.push(...(await enterPeople(ctx, appModeId, entered)));
  starts.push(
    ...(await enterOnDates(
      ctx,
      batch.filter((r) => r.topic === DATE_REACHED),
    )),
  );
  return starts;
}

async function enterMode(ctx: Ctx, appModeId: string, changes: OutboxRow[]): Promise<RunToStart[]> {
  const names = [...new Set(changes.flatMap((r) => changeOf(r).names))];
  const live = await liveWorkflows(
    ctx,
    appModeId,
    sql`v.definition->'trigger'->>'kind' = 'attribute_changed' AND v.definition->'trigger'->>'attribute' = ANY(${names}::text[])`,
  );
  if (!live.length) return [];
  const people = await peopleIn(ctx, appModeId, changes);
  const entering: Entering[] = [];
  for (const row of changes) {
    const { contactId, names: changed } = changeOf(row);
    if (!people.has(contactId)) continue;
    for (const w of live)
      if (changed.includes((w.definition.trigger as { attribute: string }).attribute))
        entering.push({ w, contactId, key: `change:${row.id}`, by: row });
  }
  return enterPeople(ctx, appModeId, entering);
}

/** The contacts the rows name (a change by its contact id, an event by its external id), of the app-mode and not being erased: id → external id. */
async function peopleIn(ctx: Ctx, appModeId: string, list: readonly OutboxRow[]): Promise<Map<string, string>> {
  const ids = list.filter((r) => r.topic === CONTACT_CHANGED).map((r) => changeOf(r).contactId);
  const externalIds = list.filter((r) => r.topic === WORKFLOW_EVENT && r.externalId).map((r) => r.externalId!);
  const found = await rows<{ id: string; external_id: string }>(
    ctx,
    sql`SELECT id, external_id FROM contact WHERE app_mode_id = ${appModeId} AND erase_requested_at IS NULL
        AND (id = ANY(${[...new Set(ids)]}::text[]) OR external_id = ANY(${[...new Set(externalIds)]}::text[]))`,
  );
  return new Map(found.map((p) => [p.id, p.external_id]));
}

/** Per person the batch names (of the app-mode, not being erased): the first row naming them (their moves' key), and what of them changed. */
async function changedPeople(ctx: Ctx, appModeId: string, list: readonly OutboxRow[]) {
  const people = await peopleIn(ctx, appModeId, list);
  const byExternal = new Map([...people].map(([id, x]) => [x, id]));
  const seen = new Map<string, { first: OutboxRow; changed: Set<string> }>();
  for (const r of list) {
    const contactId = r.topic === CONTACT_CHANGED ? changeOf(r).contactId : byExternal.get(r.externalId!);
    if (!contactId || !people.has(contactId)) continue;
    const s = seen.get(contactId) ?? { first: r, changed: new Set<string>() };
    for (const n of r.topic === CONTACT_CHANGED ? changeOf(r).names : [`event:${String(r.data.name)}`]) s.changed.add(n);
    seen.set(contactId, s);
  }
  return seen;
}

/** The rows an audience is read again on: changes, and events of a person. */
const audienceRows = (batch: readonly OutboxRow[]) =>
  batch.filter((r) => r.topic === CONTACT_CHANGED || (r.topic === WORKFLOW_EVENT && r.externalId));

/** Who entered the workflows' audiences by the batch's changes and events (who left is read by runsLeaving). */
interface Moves {
  /** By app-mode: people now inside a live workflow's audience who were not. */
  entered: Map<string, Entering[]>;
}

/**
 * Reads the audiences again for the people the batch changed, and records who moved (in or out).
 * Each move is kept with the first row of the batch that named the person (`changed_by`), so the
 * batch handed on again finds its own moves again, and the batch's steers (which come after its
 * starts) find who left without reading the audiences again.
 */
export async function audienceMoves(ctx: Ctx, batch: readonly OutboxRow[]): Promise<Moves> {
  const moves: Moves = { entered: new Map() };
  for (const [appModeId, list] of byMode(audienceRows(batch))) {
    const names = [...new Set(list.flatMap((r) => (r.topic === CONTACT_CHANGED ? changeOf(r).names : [])))];
    const events = [...new Set(list.flatMap((r) => (r.topic === WORKFLOW_EVENT ? [String(r.data.name)] : [])))];
    // The audience workflows (live or paused: a paused one's runs still leave) that watch one of the names or count one of the events, by index.
    const workflows = await liveWorkflows(
      ctx,
      appModeId,
      sql`v.definition->'trigger'->>'kind' = 'audience_entered'
          AND (w.id IN (SELECT workflow_id FROM workflow_watch WHERE app_mode_id = ${appModeId} AND name = ANY(${names}::text[]))
               OR w.id IN (SELECT workflow_id FROM workflow_listen WHERE app_mode_id = ${appModeId} AND event = ANY(${events}::text[])))`,
      ['live', 'paused'],
    );
    if (!workflows.length) continue;
    const seen = await changedPeople(ctx, appModeId, list);
    const inside: { w: Published; contactId: string }[] = [];
    const outside: { w: Published; contactId: string }[] = [];
    const now = ctx.clock.now();
    for (const w of workflows) {
      const rule = (w.definition.trigger as { audience: Rule }).audience;
      const reads = new Set(ruleNames(rule).map((n) => n.watched ?? `event:${n.event}`));
      const who = [...seen].filter(([, s]) => [...s.changed].some((n) => reads.has(n))).map(([id]) => id);
      if (!who.length) continue;
      const audience = compileAudience(rule);
      const { columns, factsOf } = peopleFacts(appModeId, audience, now);
      const facts = await rows<PersonRow & { id: string }>(
        ctx,
        sql`SELECT k.id, ${columns} FROM contact k WHERE k.id = ANY(${who}::text[])`,
      );
      const matching = new Set(facts.filter((p) => audience.test(factsOf(p))).map((p) => p.id));
      for (const contactId of who) (matching.has(contactId) ? inside : outside).push({ w, contactId });
    }
    if (!inside.length && !outside.length) continue;
    const key = (contactId: string) => String(seen.get(contactId)!.first.id);
    const moved = await sqlTransaction(ctx, async (tx) => {
      const entered = await rows<{ workflow_id: string; contact_id: string; changed_by: string }>(
        tx,
        sql`INSERT INTO workflow_audience (workflow_id, contact_id, inside, changed_by)
            SELECT w, c, true, k FROM unnest(${inside.map((m) => m.w.id)}::text[], ${inside.map((m) => m.contactId)}::text[],
                                             ${inside.map((m) => key(m.contactId))}::bigint[]) AS x(w, c, k)
            ORDER BY w, c
            ON CONFLICT (workflow_id, contact_id) DO UPDATE SET inside = true, changed_by = excluded.changed_by
            WHERE NOT workflow_audience.inside OR workflow_audience.changed_by = excluded.changed_by
            RETURNING workflow_id, contact_id, changed_by::text`,
      );
      // Those who left: their runs are ended by the batch's steers (runsLeaving), which read these moves.
      await exec(
        tx,
        sql`UPDATE workflow_audience a SET inside = false, changed_by = x.k
            FROM unnest(${outside.map((m) => m.w.id)}::text[], ${outside.map((m) => m.contactId)}::text[],
                        ${outside.map((m) => key(m.contactId))}::bigint[]) AS x(w, c, k)
            WHERE a.workflow_id = x.w AND a.contact_id = x.c AND a.inside`,
      );
      return { entered };
    });
    const live = new Map(workflows.filter((w) => w.state === 'live').map((w) => [w.id, w]));
    const entering: Entering[] = moved.entered.flatMap((m) => {
      const w = live.get(m.workflow_id);
      return w ? [{ w, contactId: m.contact_id, key: `audience:${m.changed_by}`, by: seen.get(m.contact_id)!.first }] : [];
    });
    if (entering.length) moves.entered.set(appModeId, entering);
  }
  return moves;
}

/**
 * The runs under way of people the batch moved out of a workflow's audience (as the batch's starts
 * recorded the moves: audienceMoves, by the person's first row of the batch), of versions that exit
 * on leaving: each to end, outcome left_audience. Read by index, the audiences not read again.
 */
export async function runsLeaving(ctx: Ctx, batch: readonly OutboxRow[]): Promise<{ runId: string }[]> {
  const moved: { contactId: string; key: string }[] = [];
  for (const [appModeId, list] of byMode(audienceRows(batch)))
    for (const [contactId, s] of await changedPeople(ctx, appModeId, list)) moved.push({ contactId, key: String(s.first.id) });
  if (!moved.length) return [];
  return (
    await rows<{ id: string }>(
      ctx,
      sql`SELECT r.id FROM unnest(${moved.map((m) => m.contactId)}::text[], ${moved.map((m) => m.key)}::bigint[]) AS x(c, k)
          JOIN workflow_audience a ON a.contact_id = x.c AND a.changed_by = x.k AND NOT a.inside
          JOIN person_run r ON r.contact_id = a.contact_id AND r.workflow_id = a.workflow_id AND r.state <> 'ended'
          JOIN workflow_version v ON v.id = r.version_id
          WHERE (v.definition->'exit'->>'leavesAudience')::boolean IS TRUE`,
    )
  ).map((r) => ({ runId: r.id }));
}
