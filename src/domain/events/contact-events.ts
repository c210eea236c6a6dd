import { type Event } from '../../generated/prisma/client.js';
import type { Ctx } from '../context.js';
import { decodeCursor, pageOf, pageSize, type Page } from '../paging.js';
import { empty, rows, sql } from '../../db/sql.js';

// A person's events, newest first, for the staff contact view. Many people are read in one
// statement (a list of contacts showing their latest events is one read, not one per person).

export interface EventPaging {
  first?: number | null;
  before?: string | null;
}

/** A page of events for each external id, all from the same starting point. */
export async function eventsOfContacts(
  ctx: Ctx,
  appModeId: string,
  externalIds: readonly string[],
  paging: EventPaging,
): Promise<Map<string, Page<Event>>> {
  const size = pageSize(paging.first);
  const [at, id] = paging.before ? decodeCursor(paging.before, 'before', ['time', 'text']) : [];
  // Each person's newest rows come from the (app_mode_id, external_id, occurred_at DESC) index.
  const found = await rows<Event>(
    ctx,
    sql`
    SELECT e.app_mode_id::text AS "appModeId", e.id, e.external_id AS "externalId", e.name, e.occurred_at AS "occurredAt",
           e.received_at AS "receivedAt", e.source, e.platform, e.props
    FROM unnest(${[...externalIds]}::text[]) AS p(external_id)
    CROSS JOIN LATERAL (
      SELECT * FROM event
      WHERE app_mode_id = ${appModeId}::uuid AND external_id = p.external_id
        ${paging.before ? sql`AND (occurred_at, id) < (${at}::timestamptz, ${id})` : empty}
      ORDER BY occurred_at DESC, id DESC
      LIMIT ${size + 1}
    ) e
    ORDER BY e.external_id, e.occurred_at DESC, e.id DESC`,
  );
  const byPerson = new Map<string, Event[]>(externalIds.map((x) => [x, []]));
  for (const row of found) byPerson.get(row.externalId)!.push(row);
  return new Map([...byPerson].map(([x, events]) => [x, pageOf(events, size, (e) => [e.occurredAt.toISOString(), e.id])]));
}
