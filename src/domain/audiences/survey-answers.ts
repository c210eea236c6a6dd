import { sql, type Sql } from '../../db/sql.js';
import type { SurveyNeed } from './survey-rule.js';

// The survey answers an audience looks for (survey-rule.ts's needs), found by SQL on survey_response
// for every reader of a person's facts: the check-in (one person) and the audience's count (a page
// of people). The needs go as one JSON parameter, so a statement's text is the same whatever the
// needs (the check-in's is prepared once per shape); the answer is a JSON array of booleans in the
// needs' order. Each need is one look-up of the response by its key (message_id, contact_id), then
// of its answers (at most 50): submitted; answered at all or that question; a number in the range;
// any of the options picked. Test copies' responses never count.

/** The needs as the statement's parameter. */
export const surveyNeedsParam = (needs: readonly SurveyNeed[]): string => JSON.stringify(needs);

/** Whether `person` (an expression of the contact's id) meets each need, as a JSON array of booleans in the needs' order. */
export const surveyMatchesSql = (needs: string, person: Sql): Sql =>
  sql`(SELECT json_agg(EXISTS (
         SELECT 1 FROM survey_response sr
         WHERE sr.message_id = n.value ->> 'survey' AND sr.contact_id = ${person} AND NOT sr.test
           AND CASE n.value ->> 'form'
             WHEN 'submitted' THEN sr.submitted_at IS NOT NULL
             WHEN 'answered' THEN CASE WHEN n.value ? 'question'
               THEN EXISTS (SELECT 1 FROM jsonb_array_elements(sr.answers) a WHERE a.value ->> 'question' = n.value ->> 'question')
               ELSE jsonb_array_length(sr.answers) > 0 END
             WHEN 'range' THEN EXISTS (SELECT 1 FROM jsonb_array_elements(sr.answers) a
               WHERE a.value ->> 'question' = n.value ->> 'question' AND jsonb_typeof(a.value -> 'number') = 'number'
                 AND (a.value ->> 'number')::numeric BETWEEN (n.value ->> 'min')::numeric AND (n.value ->> 'max')::numeric)
             WHEN 'options' THEN EXISTS (SELECT 1 FROM jsonb_array_elements(sr.answers) a
               WHERE a.value ->> 'question' = n.value ->> 'question' AND jsonb_typeof(a.value -> 'options') = 'array'
                 AND (a.value -> 'options') ?| ARRAY(SELECT jsonb_array_elements_text(n.value -> 'options')))
             ELSE false END) ORDER BY n.ordinality)
       FROM jsonb_array_elements(${needs}::jsonb) WITH ORDINALITY AS n(value, ordinality))`;
