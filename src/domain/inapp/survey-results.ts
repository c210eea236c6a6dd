import { rows, sql } from '../../db/sql.js';
import type { Ctx } from '../context.js';
import { conflict } from '../errors.js';
import type { Survey } from '../surveys/model.js';
import { SurveyResults, type ResponseRow, type VariantResults } from '../surveys/results.js';
import type { Variant } from './message-input.js';
import { messageIn } from './messages.js';
import { statsOf } from './stats.js';

// A survey's results for staff: each variant's own survey folded over its responses, read
// RESULTS_PAGE at a time (any number of responses in bounded memory), beside how many each variant
// was shown to (the message's `seen` statistics). Test copies' answers are not results.

const RESULTS_PAGE = 1000;

export async function surveyResults(ctx: Ctx, messageId: string): Promise<VariantResults[]> {
  const message = await messageIn(ctx, messageId);
  if (message.kind !== 'survey') throw conflict('not_a_survey', 'Only a survey has results.');
  const variants = message.variants as unknown as Variant[];
  const folds = new Map(variants.map((v) => [v.key, new SurveyResults(v.content as unknown as Survey)]));
  for (let after = ''; ;) {
    const page = await rows<ResponseRow & { contactId: string }>(
      ctx,
      sql`SELECT contact_id AS "contactId", variant, answers, path, submitted_at IS NOT NULL AS submitted
          FROM survey_response WHERE message_id = ${messageId} AND NOT test AND contact_id > ${after}
          ORDER BY contact_id LIMIT ${RESULTS_PAGE}`,
    );
    for (const row of page) folds.get(row.variant)?.add(row);
    if (page.length < RESULTS_PAGE) break;
    after = page.at(-1)!.contactId;
  }
  const stats = await statsOf(ctx, messageId);
  return variants.flatMap((v) => {
    const seen = stats.variants.find((s) => s.variant === v.key && !s.control)?.seen ?? 0;
    return folds
      .get(v.key)!
      .results(new Map([[v.key, seen]]))
      .filter((r) => r.variant === v.key);
  });
}
