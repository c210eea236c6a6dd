import { sql, type Sql } from '../../db/sql.js';
import { arrayLiteral } from '../sql.js';
import type { EventNeed } from './compile.js';

// The event counts an audience reads (compile.ts's needs: a name, and a window of days or ever),
// in one place for every reader of a person's facts: the check-in (one person) and the audience's
// count (a page of people). `events` is a relation of the person's events (`ev`: name,
// occurred_at); the counts come as a JSON array in the needs' order.

/** The needs as PostgreSQL array literals (names, and days with NULL for ever). */
export function needLiterals(needs: EventNeed[]): { names: string; days: string } {
  return { names: arrayLiteral(needs.map((e) => e.name)), days: `{${needs.map((e) => e.withinDays ?? 'NULL').join(',')}}` };
}

/** The counts of each need over `events` (aliased ev), as a JSON array in the needs' order. */
export const eventCountsSql = (events: Sql, lists: { names: string; days: string }, now: Date): Sql =>
  sql`(SELECT json_agg((SELECT count(*) FROM ${events} WHERE ev.name = q.n AND (q.d IS NULL OR ev.occurred_at >= ${now}::timestamptz - q.d * interval '1 day')) ORDER BY q.i)
        FROM unnest(${lists.names}::text[], ${lists.days}::int[]) WITH ORDINALITY AS q(n, d, i))`;

/** A person's eventCount (compile.ts's PersonFacts) from the counts read in the needs' order. */
export function eventCounter(needs: EventNeed[], counts: number[]): (name: string, withinDays: number | null) => number {
  const byNeed = new Map(needs.map((e, i) => [`${e.name}\u0000${e.withinDays ?? ''}`, counts[i] ?? 0]));
  return (name, withinDays) => byNeed.get(`${name}\u0000${withinDays ?? ''}`) ?? 0;
}
