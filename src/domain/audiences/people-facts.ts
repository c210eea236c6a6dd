import { sql, type Sql } from '../../db/sql.js';
import type { CompiledAudience, PersonFacts } from './compile.js';
import { eventCounter, eventCountsSql, needLiterals } from './event-counts.js';
import { surveyMatchesSql, surveyNeedsParam } from './survey-answers.js';
import { surveyMatcher } from './survey-rule.js';

// The facts an audience's predicate reads of people outside a check-in (contact `k`): the
// contact's fields and attributes, the event counts the rule needs (event-counts.ts) and the survey
// answers it looks for (survey-answers.ts), as the columns of one SELECT over `contact k`. What
// only a check-in says (platform, app version, screen) is unknown here (null).

export interface PersonRow {
  external_id: string;
  email: string | null;
  display_name: string | null;
  provider: string | null;
  time_zone: string | null;
  signed_up_at: Date | null;
  created_at: Date;
  tags: string[];
  attributes: Record<string, unknown>;
  language: string | null;
  events: number[] | null;
  surveys: boolean[] | null;
}

/** The columns to select from `contact k` for `audience`, and each row read as a person's facts. */
export function peopleFacts(
  appModeId: string,
  audience: CompiledAudience,
  now: Date,
): { columns: Sql; factsOf: (p: PersonRow) => PersonFacts } {
  const needs = audience.events;
  const lists = needLiterals(needs);
  const events = needs.length
    ? eventCountsSql(
        sql`(SELECT e.name, e.occurred_at FROM event e WHERE e.app_mode_id = ${appModeId}::uuid AND e.external_id = k.external_id
               AND e.name = ANY(${lists.names}::text[])) ev`,
        lists,
        now,
      )
    : sql`NULL`;
  const surveys = audience.surveys.length ? surveyMatchesSql(surveyNeedsParam(audience.surveys), sql`k.id`) : sql`NULL`;
  return {
    columns: sql`k.external_id, k.email, k.display_name, k.provider, k.time_zone, k.signed_up_at, k.created_at, k.tags, k.attributes,
                 k.language, ${events} AS events, ${surveys} AS surveys`,
    factsOf: (p) => ({
      now,
      externalId: p.external_id,
      contact: {
        email: p.email,
        displayName: p.display_name,
        provider: p.provider,
        timeZone: p.time_zone,
        signedUpAt: p.signed_up_at,
        createdAt: p.created_at,
        tags: p.tags,
      },
      attributes: p.attributes,
      language: p.language,
      platform: null,
      appVersion: null,
      eventCount: eventCounter(needs, (p.events ?? []).map(Number)),
      surveyMatch: surveyMatcher(audience.surveys, p.surveys ?? []),
    }),
  };
}
