import { empty, raw, rows, sql } from '../../db/sql.js';
import type { Ctx } from '../context.js';
import { conflict, invalidField } from '../errors.js';
import { decodeCursor, encodeCursor, pageOf, pageSize, type Page } from '../paging.js';
import { otherOption, type Survey } from '../surveys/model.js';
import type { Variant } from './message-input.js';
import { messageIn } from './messages.js';

// The words people wrote to one question of a survey, for staff: the answers to a short or long text
// question, or the words beside Other of a choice, the most recently answered response first
// (its updated_at: a response answered again moves to the top), optionally those containing the
// search text in any case (its % _ \ taken literally). Test copies' answers are left out. Bounded: a
// page examines at most TEXT_EXAMINED responses of the survey (newest first, on the survey's
// (message_id, updated_at, contact_id) index); a search that finds fewer than a page among them
// answers what it found with a cursor to go on from the last one examined, so no request reads more.

export const MAX_TEXT_SEARCH = 200;
export const TEXT_EXAMINED = 5_000;

export interface TextAnswer {
  contactId: string;
  /** The words: the text answer, or those beside Other. */
  text: string;
  /** The words beside Other (a choice), not a text answer. */
  other: boolean;
  variant: string;
  /** When the response was last answered (or submitted). */
  answeredAt: Date;
  submitted: boolean;
}

interface Row {
  contact_id: string;
  at: string;
  variant: string;
  submitted: boolean;
  text: string | null;
}

/** The question's kind of words in any variant of the survey, or refused naming `question`. */
function wordsOf(variants: Variant[], question: string): 'text' | 'other' {
  for (const v of variants)
    for (const step of (v.content as unknown as Survey).steps)
      for (const q of step.questions ?? []) {
        if (q.id !== question) continue;
        if (q.type === 'short_text' || q.type === 'long_text') return 'text';
        if (q.options?.some((o) => o.id === otherOption)) return 'other';
        throw invalidField('question', `question ${question} takes no words: only short and long text, and Other beside a choice`);
      }
  throw invalidField('question', `names no question of this survey: ${question}`);
}

export async function surveyTextAnswers(
  ctx: Ctx,
  messageId: string,
  question: string,
  opts: { search?: string | null; first?: number | null; after?: string | null },
): Promise<Page<TextAnswer>> {
  const size = pageSize(opts.first);
  const text = opts.search?.trim() ?? '';
  if (text.length > MAX_TEXT_SEARCH) throw invalidField('search', `must be at most ${MAX_TEXT_SEARCH} characters`);
  const [at, id] = opts.after ? decodeCursor(opts.after, 'after', ['time', 'text']) : [];
  const message = await messageIn(ctx, messageId);
  if (message.kind !== 'survey') throw conflict('not_a_survey', 'Only a survey has answers.');
  const member = wordsOf(message.variants as unknown as Variant[], question) === 'text' ? 'text' : 'other';
  const pattern = `%${text.replace(/[\\%_]/g, '\\$&')}%`;
  const words = sql`(a.value ->> ${raw(`'${member}'`)})`;
  const before = opts.after ? sql`AND (r.updated_at, r.contact_id) < (${at}::timestamp AT TIME ZONE 'UTC', ${id})` : empty;
  // The cursor keeps updated_at as UTC text, so no session time zone comes between.
  const found = await rows<Row>(
    ctx,
    sql`
    SELECT r.contact_id, to_char(r.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS at, r.variant,
           r.submitted_at IS NOT NULL AS submitted, ${words} AS text
    FROM (SELECT contact_id, updated_at, variant, submitted_at, answers FROM survey_response r
          WHERE r.message_id = ${messageId} AND NOT r.test ${before}
          ORDER BY r.updated_at DESC, r.contact_id DESC LIMIT ${TEXT_EXAMINED}) r
    CROSS JOIN LATERAL jsonb_array_elements(r.answers) a
    WHERE a.value ->> 'question' = ${question} AND ${words} IS NOT NULL
      ${text ? sql`AND ${words} ILIKE ${pattern}` : empty}
    ORDER BY r.updated_at DESC, r.contact_id DESC
    LIMIT ${size + 1}`,
  );
  const page = pageOf(found, size, (r) => [r.at, r.contact_id]);
  if (found.length <= size) {
    // Fewer than a page: either every response was examined, or the bound stopped the scan.
    const [last] = await rows<{ contact_id: string; at: string }>(
      ctx,
      sql`SELECT r.contact_id, to_char(r.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS at FROM survey_response r
          WHERE r.message_id = ${messageId} AND NOT r.test ${before}
          ORDER BY r.updated_at DESC, r.contact_id DESC OFFSET ${TEXT_EXAMINED - 1} LIMIT 1`,
    );
    if (last) page.nextCursor = encodeCursor([last.at, last.contact_id]);
  }
  return {
    ...page,
    items: page.items.map((r) => ({
      contactId: r.contact_id,
      text: r.text!,
      other: member === 'other',
      variant: r.variant,
      answeredAt: new Date(`${r.at}Z`),
      submitted: r.submitted,
    })),
  };
}
