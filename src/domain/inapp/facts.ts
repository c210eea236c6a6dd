import { subjectHash } from '../contacts/erasure.js';
import { UNREAD } from '../conversations/conversations.js';
import type { Ctx, GuestCaller } from '../context.js';
import { HEARS, JOINS } from '../preferences/hears.js';
import { rows } from '../../db/sql.js';
import { arrayLiteral } from '../sql.js';
import type { Kind } from './content.js';
import type { LiveMode } from './live-messages.js';
import { raw, sql, type Sql } from '../../db/sql.js';
import { eventCountsSql, needLiterals } from '../audiences/event-counts.js';
import { surveyMatchesSql, surveyNeedsParam } from '../audiences/survey-answers.js';

// What a check-in needs to know of the person, in one statement (one round trip, no transaction
// of its own): crm_inapp_checkin holds and checks them against an erase, makes the contact on
// first sight and claims the check-in's slot; a throttled check-in reads nothing more. Otherwise,
// beside it: the contact's fields and attributes, the event counts and survey answers the live
// audiences read, the
// person's receipts, the goals reached by an event, test copies waiting, whether they are a test
// phone, their all-off switch and the in-app topics they hear of, their unread notices, and
// whether the service has the declared links the app's digest names, and the messenger's unread
// count. The statement is prepared once per connection for each shape (which parts the live
// messages need), so PostgreSQL plans it once.

/** The spacing of check-ins: a sooner one is answered from the last (the spec's 20 seconds). */
export const CHECKIN_SPACING_SECONDS = 20;

export interface ReceiptFact {
  messageId: string;
  kind: Kind;
  variant: string;
  control: boolean;
  lastSentAt: Date | null;
  /** The sessions it was answered in, the last few (sessions.ts). */
  sessions: string[];
  seen: boolean;
  dismissed: boolean;
  completed: boolean;
  goalReached: boolean;
  /** When the goal's days start: seen, or for the control group when it was counted. */
  goalFrom: Date | null;
}

export interface TestFact {
  id: string;
  kind: Kind;
  variant: string;
  content: unknown;
  screens: string[];
}

export interface PersonRead {
  contact: {
    email: string | null;
    displayName: string | null;
    language: string | null;
    timeZone: string | null;
    provider: string | null;
    signedUpAt: Date | null;
    createdAt: Date | null;
    tags: string[];
    attributes: Record<string, unknown>;
  };
  /** In the order of the mode's event needs. */
  eventCounts: number[];
  /** In the order of the mode's survey needs: whether the person's answers meet each. */
  surveyMatches: boolean[];
  receipts: ReceiptFact[];
  goalsByEvent: string[];
  tests: TestFact[];
  /** The messages workflows sent the person: shown as if they were in each one's audience. */
  workflowSent: Set<string>;
  testPhone: boolean;
  allOff: boolean;
  hears: Set<string>;
  unreadNotices: number;
  /** The messenger's unread parts (0 while the messenger is off). */
  unread: number;
  /** Whether the service has the declared links of the check-in's digest (true when none was named). */
  linksKnown: boolean;
}

export type Facts =
  | { erased: true }
  | { erased: false; contactId: string; throttled: true; lastAt: Date; lastAnswer: unknown; lastHash: string | null }
  | { erased: false; contactId: string; throttled: false; claimedAt: Date; lastHash: string | null; person: PersonRead };

const NEW_CONTACT: PersonRead['contact'] = {
  email: null,
  displayName: null,
  language: null,
  timeZone: null,
  provider: null,
  signedUpAt: null,
  createdAt: null,
  tags: [],
  attributes: {},
};

interface Row {
  erased: boolean;
  contact_id: string | null;
  throttled: boolean;
  last_at: Date | null;
  last_answer: unknown;
  last_hash: string | null;
  facts: {
    contact: (Omit<PersonRead['contact'], 'signedUpAt' | 'createdAt'> & { signedUpAt: string | null; createdAt: string | null }) | null;
    events: number[] | null;
    surveys: boolean[] | null;
    receipts:
      | {
          m: string;
          k: Kind;
          v: string;
          c: boolean;
          sent: string | null;
          s: string[] | null;
          seen: boolean;
          dis: boolean;
          done: boolean;
          goal: boolean;
          from: string | null;
        }[]
      | null;
    goals: string[] | null;
    tests: TestFact[] | null;
    workflowSent: string[] | null;
    testPhone: boolean;
    allOff: boolean;
    hears: string[] | null;
    notices: number;
    unread: number;
    linksKnown: boolean;
  } | null;
}

const at = (s: string | null) => (s === null ? null : new Date(s));

/** A PostgreSQL array literal of a mode's names or day counts, made once per compiled mode (pg would escape each element on every check-in). */
const literals = new WeakMap<LiveMode, { names: string; days: string; topics: string; surveys: string }>();
function literalsOf(mode: LiveMode) {
  let kept = literals.get(mode);
  if (!kept) {
    kept = { ...needLiterals(mode.events), topics: arrayLiteral(mode.topics), surveys: surveyNeedsParam(mode.surveys) };
    literals.set(mode, kept);
  }
  return kept;
}

/**
 * The statement: the same text for every check-in of an app-mode whose live messages need the same
 * parts, and one of few texts in all (`shape` names it: which parts are there).
 */
export function factsStatement(
  ctx: Ctx<GuestCaller>,
  mode: LiveMode,
  opts: { linksDigest?: string },
): { query: Sql; shape: string; now: Date } {
  const { appId, appModeId, externalId, sdk } = ctx.caller;
  const now = ctx.clock.now();
  const lists = literalsOf(mode);
  const hears = mode.topics.length
    ? sql`(SELECT json_agg(t.key) FROM preference_topic t CROSS JOIN (SELECT 'in_app'::"PreferenceChannel" AS ch) x
        LEFT JOIN contact k ON k.id = ci.person_id ${JOINS}
        WHERE t.app_mode_id = ${appModeId} AND t.key = ANY(${lists.topics}::text[]) AND ${HEARS})`
    : sql`NULL`;
  const links =
    opts.linksDigest === undefined
      ? sql`true`
      : sql`EXISTS (SELECT 1 FROM app_link_set l WHERE l.app_mode_id = ${appModeId} AND l.digest = ${opts.linksDigest})`;
  const events = mode.events.length ? eventCountsSql(sql`ev`, lists, now) : sql`NULL`;
  const surveys = mode.surveys.length ? surveyMatchesSql(lists.surveys, sql`ci.person_id`) : sql`NULL`;
  const goalFrom = sql`CASE WHEN r.control THEN r.assigned_at ELSE r.seen_at END`;
  const unread = ctx.caller.settings.messengerOn
    ? sql`(SELECT coalesce(sum(${UNREAD(raw('c'))}), 0) FROM conversation c WHERE c.app_mode_id = ${appModeId} AND c.contact_id = ci.person_id)`
    : sql`0`;
  const query = sql`
    WITH ci AS (SELECT * FROM crm_inapp_checkin(${appId}, ${appModeId}, ${externalId}, ${subjectHash(ctx.svc, appId, externalId)}, ${sdk ?? null},
                  ${now}::timestamptz, ${`${CHECKIN_SPACING_SECONDS} seconds`}::interval)),
         ev AS MATERIALIZED (SELECT e.name, e.occurred_at FROM event e
                  WHERE e.app_mode_id = ${appModeId}::uuid AND e.external_id = ${externalId} AND e.name = ANY(${lists.names}::text[]))
    SELECT ci.is_erased AS erased, ci.person_id AS contact_id, ci.is_throttled AS throttled, ci.last_checkin_at AS last_at,
           ci.last_answer, ci.last_hash,
      CASE WHEN ci.is_erased OR ci.is_throttled THEN NULL ELSE json_build_object(
        'contact', (SELECT json_build_object('email', k.email, 'displayName', k.display_name, 'language', k.language, 'timeZone', k.time_zone,
                      'provider', k.provider, 'signedUpAt', k.signed_up_at AT TIME ZONE 'UTC', 'createdAt', k.created_at AT TIME ZONE 'UTC',
                      'tags', k.tags, 'attributes', k.attributes)
                    FROM contact k WHERE k.id = ci.person_id),
        'events', ${events},
        'surveys', ${surveys},
        'receipts', (SELECT json_agg(json_build_object('m', r.message_id, 'k', m.kind, 'v', r.variant, 'c', r.control, 'sent', r.last_sent_at,
                       's', r.recent_sessions, 'seen', r.seen_at IS NOT NULL, 'dis', r.dismissed_at IS NOT NULL, 'done', r.completed_at IS NOT NULL,
                       'goal', r.goal_reached_at IS NOT NULL, 'from', ${goalFrom}))
                     FROM inapp_receipt r JOIN inapp_message m ON m.id = r.message_id
                     WHERE r.contact_id = ci.person_id),
        'goals', (SELECT json_agg(r.message_id) FROM inapp_receipt r JOIN inapp_message m ON m.id = r.message_id
                  WHERE r.contact_id = ci.person_id AND r.goal_reached_at IS NULL AND m.goal_event IS NOT NULL
                    AND ${goalFrom} > ${now}::timestamptz - interval '366 days'
                    AND EXISTS (SELECT 1 FROM event e WHERE e.app_mode_id = ${appModeId}::uuid AND e.external_id = ${externalId} AND e.name = m.goal_event
                                  AND e.occurred_at >= ${goalFrom} AND e.occurred_at <= ${goalFrom} + m.goal_days * interval '1 day')),
        'tests', (SELECT json_agg(json_build_object('id', t.id, 'kind', t.kind, 'variant', t.variant, 'content', t.content, 'screens', t.screens) ORDER BY t.created_at, t.id)
                  FROM inapp_test_send t WHERE t.contact_id = ci.person_id AND t.delivered_at IS NULL),
        'workflowSent', (SELECT json_agg(w.message_id) FROM inapp_workflow_send w WHERE w.contact_id = ci.person_id),
        'testPhone', EXISTS (SELECT 1 FROM inapp_test_phone p WHERE p.contact_id = ci.person_id),
        'allOff', coalesce((SELECT s.all_off FROM preference_state s WHERE s.contact_id = ci.person_id), false),
        'hears', ${hears},
        'notices', (SELECT count(*) FROM notice n WHERE n.contact_id = ci.person_id AND n.read_at IS NULL),
        'unread', ${unread},
        'linksKnown', ${links}
      ) END AS facts
    FROM ci`;
  const shape = [
    mode.events.length > 0,
    mode.topics.length > 0,
    ctx.caller.settings.messengerOn,
    opts.linksDigest !== undefined,
    mode.surveys.length > 0,
  ]
    .map(Number)
    .join('');
  return { query, shape, now };
}

export async function readFacts(ctx: Ctx<GuestCaller>, mode: LiveMode, opts: { linksDigest?: string }): Promise<Facts> {
  const { query, shape, now } = factsStatement(ctx, mode, opts);
  const [row] = await rows<Row>(ctx, query, { prepare: `crm_inapp_facts_${shape}` });
  if (row!.erased) return { erased: true };
  if (row!.throttled)
    return {
      erased: false,
      contactId: row!.contact_id!,
      throttled: true,
      lastAt: new Date(row!.last_at!),
      lastAnswer: row!.last_answer,
      lastHash: row!.last_hash,
    };
  const f = row!.facts!;
  const contact = f.contact ? { ...f.contact, signedUpAt: at(f.contact.signedUpAt), createdAt: at(f.contact.createdAt) } : NEW_CONTACT;
  return {
    erased: false,
    contactId: row!.contact_id!,
    throttled: false,
    claimedAt: now,
    lastHash: row!.last_hash,
    person: {
      contact,
      eventCounts: (f.events ?? []).map(Number),
      surveyMatches: f.surveys ?? [],
      receipts: (f.receipts ?? []).map((r) => ({
        messageId: r.m,
        kind: r.k,
        variant: r.v,
        control: r.c,
        lastSentAt: at(r.sent),
        sessions: r.s ?? [],
        seen: r.seen,
        dismissed: r.dis,
        completed: r.done,
        goalReached: r.goal,
        goalFrom: at(r.from),
      })),
      goalsByEvent: f.goals ?? [],
      tests: f.tests ?? [],
      workflowSent: new Set(f.workflowSent ?? []),
      testPhone: f.testPhone,
      allOff: f.allOff,
      hears: new Set(f.hears ?? []),
      unreadNotices: Number(f.notices),
      unread: Number(f.unread),
      linksKnown: f.linksKnown,
    },
  };
}
