import type { OutboxRow } from '../../db/outbox-dispatcher.js';
import { exec, rows, sql } from '../../db/sql.js';
import { sqlTransaction, type Ctx } from '../context.js';
import { localTime } from '../inapp/schedule.js';
import { emit } from '../outbox.js';
import { enterPeople, liveWorkflows, type Entering, type RunToStart } from './entry.js';

// The `date_reached` trigger: a person enters on the day their date attribute plus the trigger's
// offsetDays is today on their clock (their contact's time zone, else UTC). A sweep (the service's
// housekeeping, every minute on each process) makes one pass an hour over each live such
// workflow's app-mode, a page of people at a time by contact id, its place kept in
// workflow_date_sweep (a pass is taken by one process at a time: the workflow's row, skipped when
// locked). The people due, and not entered already (once only, or again too soon), are written
// to the outbox (`workflow.date`, contact ids and dates only) and entered by the one entering path
// (entry.ts), their entry keyed by the date, so a person enters once per date however many passes
// see them due.

/** The outbox topic of people a date trigger's sweep found due: `{ workflow_id, people: [[contact_id, date]] }`. */
export const DATE_REACHED = 'workflow.date';
/** People read per page of a pass. */
export const DATE_PAGE = 1000;
/** Pages one sweep reads at most (over all workflows): the rest at the next sweep. */
const PAGES_PER_SWEEP = 20;
const HOUR = 3_600_000;
const DAY = 86_400_000;

/** A date `days` after `date` (both YYYY-MM-DD). */
const plusDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

/** Reads up to PAGES_PER_SWEEP pages of the passes due; the number of pages read (0: nothing to do now). */
export async function sweepDateTriggers(ctx: Ctx): Promise<number> {
  let pages = 0;
  while (pages < PAGES_PER_SWEEP && (await sweepPage(ctx))) pages++;
  return pages;
}

async function sweepPage(ctx: Ctx): Promise<boolean> {
  return sqlTransaction(ctx, async (tx) => {
    const now = tx.clock.now();
    const hour = new Date(Math.floor(now.getTime() / HOUR) * HOUR);
    // A workflow whose pass of this hour is not done (a pass under way is finished first), held by this process.
    const [w] = await rows<{ id: string; app_mode_id: string; attribute: string; offset: number; after: string | null; hour: Date | null }>(
      tx,
      sql`SELECT w.id, w.app_mode_id, v.definition->'trigger'->>'attribute' AS attribute,
                 coalesce((v.definition->'trigger'->>'offsetDays')::int, 0) AS offset, s.after_contact AS after, s.hour
          FROM workflow w JOIN workflow_version v ON v.workflow_id = w.id AND v.number = w.live_version
          LEFT JOIN workflow_date_sweep s ON s.workflow_id = w.id
          WHERE w.state = 'live' AND v.definition->'trigger'->>'kind' = 'date_reached'
            AND (s.workflow_id IS NULL OR s.after_contact IS NOT NULL OR s.hour < ${hour})
          ORDER BY w.id LIMIT 1
          FOR UPDATE OF w SKIP LOCKED`,
    );
    if (!w) return false;
    const after = w.after ?? '';
    const page = await rows<{ id: string; time_zone: string | null; at: string | null }>(
      tx,
      sql`SELECT k.id, k.time_zone, k.attributes->>${w.attribute} AS at FROM contact k
          WHERE k.app_mode_id = ${w.app_mode_id} AND k.id > ${after} AND k.erase_requested_at IS NULL
          ORDER BY k.id LIMIT ${DATE_PAGE}`,
    );
    const due = page.flatMap((p) => {
      if (!p.at || !/^\d{4}-\d{2}-\d{2}$/.test(p.at)) return [];
      const today = localTime(now, p.time_zone).date;
      return plusDays(p.at, w.offset) === today ? [{ contactId: p.id, date: today }] : [];
    });
    // Not those entered already and not to enter again yet (once only, or again within its days): the rest are entered by date.
    const waiting = due.length
      ? new Set(
          (
            await rows<{ contact_id: string }>(
              tx,
              sql`SELECT contact_id FROM workflow_entry WHERE workflow_id = ${w.id} AND contact_id = ANY(${due.map((d) => d.contactId)}::text[])
                  AND (again_after_days IS NULL OR last_started_at > ${now}::timestamp - make_interval(days => again_after_days))`,
            )
          ).map((e) => e.contact_id),
        )
      : new Set<string>();
    const people = due.filter((d) => !waiting.has(d.contactId)).map((d) => [d.contactId, d.date]);
    if (people.length) await emit(tx, DATE_REACHED, { appModeId: w.app_mode_id, data: { workflow_id: w.id, people } });
    const last = page.length === DATE_PAGE ? page[page.length - 1]!.id : null;
    const passHour = w.after !== null && w.hour ? w.hour : hour;
    await exec(
      tx,
      sql`INSERT INTO workflow_date_sweep (workflow_id, hour, after_contact) VALUES (${w.id}, ${passHour}, ${last})
          ON CONFLICT (workflow_id) DO UPDATE SET hour = excluded.hour, after_contact = excluded.after_contact`,
    );
    return true;
  });
}

/** The runs a batch of the sweep's rows starts: each person due, entered by the date (a later pass of the same day enters no one twice). */
export async function enterOnDates(ctx: Ctx, batch: readonly OutboxRow[]): Promise<RunToStart[]> {
  const starts: RunToStart[] = [];
  for (const row of batch) {
    const workflowId = String(row.data.workflow_id);
    const [w] = await liveWorkflows(ctx, row.appModeId, sql`w.id = ${workflowId} AND v.definition->'trigger'->>'kind' = 'date_reached'`);
    if (!w) continue;
    const people = row.data.people as [string, string][];
    const kept = new Set(
      (
        await rows<{ id: string }>(
          ctx,
          sql`SELECT id FROM contact WHERE app_mode_id = ${row.appModeId} AND erase_requested_at IS NULL
              AND id = ANY(${people.map(([id]) => id)}::text[])`,
        )
      ).map((k) => k.id),
    );
    const entering: Entering[] = people
      .filter(([id]) => kept.has(id))
      .map(([contactId, date]) => ({ w, contactId, key: `date:${date}`, by: row }));
    starts.push(...(await enterPeople(ctx, row.appModeId, entering)));
  }
  return starts;
}
