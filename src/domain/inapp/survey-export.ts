import { empty, rows, sql } from '../../db/sql.js';
import type { Ctx, Services, StaffCaller } from '../context.js';
import { signedDownloads } from '../downloads/signed-address.js';
import { conflict, notFound } from '../errors.js';
import type { KeptAnswer } from '../surveys/answers.js';
import { headerRow, questionColumns, responseRow } from '../surveys/csv.js';
import type { Survey } from '../surveys/model.js';
import type { Variant } from './message-input.js';
import { messageIn } from './messages.js';

// A survey's responses as a CSV download for staff (the staff API's `exportSurveyResponses`): a
// signed, short-lived address of the public route `GET /public/v1/survey-exports/{token}`, as a
// person's export is (src/domain/contacts/export-address.ts: the same signing, under a key of its
// own, so no other address opens it). The token names the app-mode and the survey; nothing about it
// is kept, and any server process answers it. The file is streamed: CSV_PAGE responses read at a
// time in the order they were started (the survey's (message_id, started_at, contact_id) index),
// each page written before the next is read, so a survey of any size is never held in memory. One
// row per response (test copies left out), no person named: when it was started and submitted, its
// variant, and each question's answer as words (src/domain/surveys/csv.ts, which keeps formulas out).

export const SURVEY_EXPORT_PATH = '/public/v1/survey-exports/';
export const SURVEY_EXPORT_SECONDS = 300;
/** Responses read at a time. */
export const CSV_PAGE = 500;

const downloads = signedDownloads({
  name: 'survey-export',
  path: SURVEY_EXPORT_PATH,
  seconds: SURVEY_EXPORT_SECONDS,
  contentType: 'text/csv',
});

export interface SurveyExportTerms {
  appModeId: string;
  messageId: string;
  expiresAt: Date;
}

async function surveyOf(ctx: Ctx, messageId: string) {
  const message = await messageIn(ctx, messageId);
  if (message.kind !== 'survey') throw conflict('not_a_survey', 'Only a survey has responses.');
  return message;
}

/** The address (staff checked they may read the survey's app-mode), valid SURVEY_EXPORT_SECONDS. */
export async function surveyExportAddress(ctx: Ctx<StaffCaller>, messageId: string): Promise<{ url: string; expiresAt: Date }> {
  const message = await surveyOf(ctx, messageId);
  return downloads.address(ctx, message.appModeId, messageId);
}

export const surveyExportToken = (svc: Pick<Services, 'secrets'>, terms: SurveyExportTerms): string =>
  downloads.token(svc, { appModeId: terms.appModeId, id: terms.messageId, expiresAt: terms.expiresAt });

/** What a token this service signed names: 403 `address_invalid` (forged, altered, not a survey export's) or `address_expired`. */
export function openSurveyExportAddress(ctx: Ctx, token: string): SurveyExportTerms {
  const { appModeId, id, expiresAt } = downloads.open(ctx, token);
  return { appModeId, messageId: id, expiresAt };
}

interface ResponsePage {
  contact_id: string;
  started_at: Date;
  submitted_at: Date | null;
  variant: string;
  answers: KeptAnswer[];
}

/** The survey's CSV (404 for a survey no longer there): its file name, and its text a page of responses at a time. */
export async function surveyCsv(ctx: Ctx, terms: SurveyExportTerms): Promise<{ fileName: string; chunks: AsyncGenerator<string> }> {
  const message = await ctx.db.inAppMessage.findFirst({ where: { id: terms.messageId, appModeId: terms.appModeId, kind: 'survey' } });
  if (!message) throw notFound('No such survey.');
  const columns = questionColumns((message.variants as unknown as Variant[]).map((v) => v.content as unknown as Survey));
  async function* chunks(): AsyncGenerator<string> {
    // A byte order mark: spreadsheets then read the file as UTF-8.
    yield `\uFEFF${headerRow(columns)}`;
    let after: { at: Date; id: string } | undefined;
    for (;;) {
      const page: ResponsePage[] = await rows<ResponsePage>(
        ctx,
        sql`SELECT contact_id, started_at, submitted_at, variant, answers FROM survey_response
            WHERE message_id = ${terms.messageId} AND NOT test
              ${after ? sql`AND (started_at, contact_id) > (${after.at}::timestamptz, ${after.id})` : empty}
            ORDER BY started_at, contact_id LIMIT ${CSV_PAGE}`,
      );
      if (page.length)
        yield page
          .map((r) =>
            responseRow(columns, { startedAt: r.started_at, submittedAt: r.submitted_at, variant: r.variant, answers: r.answers }),
          )
          .join('');
      if (page.length < CSV_PAGE) return;
      after = { at: page.at(-1)!.started_at, id: page.at(-1)!.contact_id };
    }
  }
  return { fileName: `survey-${terms.messageId}.csv`, chunks: chunks() };
}
