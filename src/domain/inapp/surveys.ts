import { randomUUID } from 'node:crypto';
import { holdToType, type AttributeType, type AttributeValue } from '../contacts/attributes.js';
import { noteChanged, surveyName } from '../contacts/changes.js';
import { transaction, type Ctx, type GuestCaller, type TxCtx } from '../context.js';
import { conflict, DomainError, notFound, type FieldError } from '../errors.js';
import { liveMode } from './live-messages.js';
import { personOf } from './person.js';
import { surveyAnswered } from './survey-live.js';
import { counted, dayOf } from './stats.js';
import { requireInApp } from './switch.js';
import { drawVariant } from './variants.js';
import { emit } from '../outbox.js';
import { exec, one, rows, sql } from '../../db/sql.js';
import { takeAnswers, type KeptAnswer, type SurveyAnswer } from '../surveys/answers.js';
import type { Survey } from '../surveys/model.js';

// The guest routes of a survey: POST /guest/v1/surveys/{message_id}/answers keeps the answers so
// far (a later answer to a question replaces the earlier, those the path no longer passes are
// dropped), and POST /surveys/{message_id}/submit completes it with every answer on the path
// taken: the answers written to the attributes the questions name (never for a test copy), the
// survey's receipt completed (counted once, as a `completed` receipt is), and `survey.completed`
// posted. One request, one transaction; the person's response row is locked first, so of many
// submits at once one completes it and the others find it submitted (409). A survey that does not
// exist, is not live, was never answered to this person (their check-in or an open, or for a test
// the copy delivered), or while in-app messages are off, is 404. Each answer and submit (not a test
// copy's) tells the survey's live results (survey-live.ts).

export const SURVEY_COMPLETED = 'survey.completed';

export interface SurveyRequest {
  messageId: string;
  variant: string;
  answers: SurveyAnswer[];
  test?: boolean;
}

const missing = () => notFound('No such survey, or it is not live.');

const answerInvalid = (errors: FieldError[]) =>
  new DomainError(
    422,
    'answer_invalid',
    'An answer does not fit its question',
    errors.map((e) => `${e.field}: ${e.message}`).join('; '),
    errors,
  );

interface Found {
  survey: Survey;
  /** The variant shown. */
  variant: string;
  /** The variant the person is counted in (the control group's, for one who opened it by a link). */
  counted: string;
  control: boolean;
}

/** The survey as this person was given it, or 404. */
async function surveyFor(tx: TxCtx<GuestCaller>, contactId: string, input: SurveyRequest): Promise<Found> {
  const { appModeId } = tx.caller;
  if (input.test) {
    const [copy] = await rows<{ content: Survey; variant: string }>(
      tx,
      sql`SELECT content, variant FROM inapp_test_send
          WHERE id = ${input.messageId} AND app_mode_id = ${appModeId} AND contact_id = ${contactId} AND kind = 'survey' AND delivered_at IS NOT NULL`,
    );
    if (!copy) throw missing();
    return { survey: copy.content, variant: copy.variant, counted: copy.variant, control: false };
  }
  const message = (await liveMode(tx, appModeId)).messages.find((m) => m.id === input.messageId && m.kind === 'survey');
  if (!message) throw missing();
  const [receipt] = await rows<{ variant: string; control: boolean }>(
    tx,
    sql`SELECT variant, control FROM inapp_receipt WHERE message_id = ${message.id} AND contact_id = ${contactId} AND sent_at IS NOT NULL`,
  );
  if (!receipt) throw missing();
  // The variant is the one the person was given, whatever the request names; one in the control
  // group (or whose variant was removed) who opened it by a link was shown the one drawn among the shown.
  const shown =
    message.variants.find((v) => v.key === receipt.variant) ??
    message.variants.find((v) => v.key === drawVariant({ ...message, controlWeight: 0 }, tx.caller.externalId))!;
  return { survey: shown.content as Survey, variant: shown.key, counted: receipt.variant, control: receipt.control };
}

/** Takes answers (`submit` false) or completes the survey (`submit` true). */
export async function answerSurvey(ctx: Ctx<GuestCaller>, input: SurveyRequest, opts: { submit: boolean }): Promise<void> {
  requireInApp(ctx);
  const { appModeId, externalId } = ctx.caller;
  // The live survey is read before the transaction: it is in memory, and a 404 costs no connection.
  if (!input.test && !(await liveMode(ctx, appModeId)).messages.some((m) => m.id === input.messageId && m.kind === 'survey'))
    throw missing();
  const now = ctx.clock.now();
  await transaction(ctx, async (tx) => {
    const contact = await personOf(tx);
    if (!contact) throw missing();
    const found = await surveyFor(tx, contact.id, input);
    await exec(
      tx,
      sql`INSERT INTO survey_response (message_id, contact_id, app_mode_id, variant, test, started_at, updated_at)
          VALUES (${input.messageId}, ${contact.id}, ${appModeId}, ${found.variant}, ${input.test === true}, ${now}, ${now})
          ON CONFLICT (message_id, contact_id) DO NOTHING`,
    );
    const kept = await one<{ answers: KeptAnswer[]; submitted_at: Date | null }>(
      tx,
      sql`SELECT answers, submitted_at FROM survey_response WHERE message_id = ${input.messageId} AND contact_id = ${contact.id} FOR UPDATE`,
    );
    if (!kept) throw missing();
    if (kept.submitted_at) throw conflict('survey_submitted', 'This survey has been submitted: it takes no more answers.');
    const taken = takeAnswers(found.survey, kept.answers, input.answers, opts);
    if ('errors' in taken) throw answerInvalid(taken.errors);
    await exec(
      tx,
      sql`UPDATE survey_response SET answers = ${JSON.stringify(taken.answers)}::jsonb, path = ${taken.walk.steps}::text[], updated_at = ${now},
            submitted_at = ${opts.submit ? now : null}
          WHERE message_id = ${input.messageId} AND contact_id = ${contact.id}`,
    );
    if (!input.test) {
      await surveyAnswered(tx, appModeId, input.messageId, opts.submit);
      // A workflow whose audience reads this survey's answers reads the person's again.
      await noteChanged(tx, { appModeId, contactId: contact.id, externalId, names: [surveyName(input.messageId)] });
    }
    if (!opts.submit) return;
    if (input.test) {
      await exec(tx, sql`UPDATE inapp_test_send SET completed_at = coalesce(completed_at, ${now}) WHERE id = ${input.messageId}`);
      return;
    }
    await writeAttributes(tx, contact.id, found.survey, taken.answers);
    const [first] = await rows(
      tx,
      sql`UPDATE inapp_receipt SET completed_at = ${now}
          WHERE message_id = ${input.messageId} AND contact_id = ${contact.id} AND completed_at IS NULL RETURNING 1`,
    );
    if (first)
      await counted(tx, appModeId, [
        { messageId: input.messageId, variant: found.counted, control: found.control, counter: 'completed', day: dayOf(now) },
      ]);
    await emit(tx, SURVEY_COMPLETED, {
      appModeId,
      externalId,
      data: {
        message_id: input.messageId,
        variant: found.variant,
        completed_at: now.toISOString(),
        // Numbers and options picked; the words a person wrote (text, other) may hold anything and stay here.
        answers: taken.answers.flatMap((a): Pick<SurveyAnswer, 'question' | 'number' | 'options'>[] =>
          a.number !== undefined
            ? [{ question: a.question, number: a.number }]
            : a.options
              ? [{ question: a.question, options: a.options }]
              : [],
        ),
      },
    });
  });
}

/** The answers whose questions name an attribute, written as its type; one defined on first sight unless the app has strict data. */
async function writeAttributes(tx: TxCtx<GuestCaller>, contactId: string, survey: Survey, answers: KeptAnswer[]): Promise<void> {
  const { appModeId, externalId, settings } = tx.caller;
  const questions = new Map(survey.steps.flatMap((s) => (s.questions ?? []).map((q) => [q.id, q] as const)));
  const wanted = new Map<string, { value: AttributeValue; type: AttributeType }>();
  for (const a of answers) {
    const q = questions.get(a.question);
    if (!q?.attribute) continue;
    const value: AttributeValue | undefined = a.number ?? (q.type === 'multiple' ? a.options : a.options ? a.options[0] : a.text?.trim());
    if (value !== undefined)
      wanted.set(q.attribute, { value, type: q.type === 'multiple' ? 'list' : a.number !== undefined ? 'number' : 'string' });
  }
  if (!wanted.size) return;
  const names = [...wanted.keys()];
  if (!settings.strictData)
    await tx.db.attributeDefinition.createMany({
      data: names.map((name) => ({ id: randomUUID(), appModeId, name, type: wanted.get(name)!.type, needsReview: true })),
      skipDuplicates: true,
    });
  const defs = await tx.db.attributeDefinition.findMany({ where: { appModeId, name: { in: names } }, select: { name: true, type: true } });
  const values: Record<string, AttributeValue> = {};
  // An attribute staff have since defined as another type, or that strict data leaves undefined, is not written.
  for (const d of defs) {
    const held = holdToType(d.type as AttributeType, wanted.get(d.name)!.value);
    if ('value' in held && d.type === wanted.get(d.name)!.type) values[d.name] = held.value;
  }
  if (!Object.keys(values).length) return;
  const written = JSON.stringify(values);
  const [changed] = await rows<{ names: string[] }>(
    tx,
    sql`WITH before AS (SELECT attributes FROM contact WHERE id = ${contactId} FOR UPDATE)
        UPDATE contact k SET attributes = k.attributes || ${written}::jsonb, updated_at = ${tx.clock.now()}
        FROM before b
        WHERE k.id = ${contactId} AND k.attributes || ${written}::jsonb IS DISTINCT FROM k.attributes
        RETURNING ARRAY(SELECT e.key FROM jsonb_each(${written}::jsonb) e WHERE b.attributes -> e.key IS DISTINCT FROM e.value) AS names`,
  );
  if (!changed) return;
  await emit(tx, 'contact.updated', { appModeId, externalId, data: { external_id: externalId } });
  await noteChanged(tx, { appModeId, contactId, externalId, names: changed.names });
}
