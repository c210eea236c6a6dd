import {
  CSV_PAGE,
  openSurveyExportAddress,
  surveyCsv,
  SURVEY_EXPORT_PATH,
  SURVEY_EXPORT_SECONDS,
} from '../../src/domain/inapp/survey-export.js';
import type { RequestLog } from '../../src/http/observability.js';
import { defineRoute } from '../http/route.js';
import { surveyCsvAnswer } from '../presenters/surveys.js';
import { SurveyExportParams } from './survey-exports.schemas.js';

// A team member's download of a survey's responses as CSV: the address the staff API's
// `exportSurveyResponses` gives (src/domain/inapp/survey-export.ts), the signed token in the path its only credential.

export const getSurveyExportDownload = defineRoute({
  method: 'get',
  path: `${SURVEY_EXPORT_PATH}{token}`,
  surface: 'public',
  tag: 'In-app messages',
  summary: `A survey's responses as a CSV file, by the signed address the staff API's exportSurveyResponses gave a team member (good for ${SURVEY_EXPORT_SECONDS / 60} minutes, for that one survey); the token is the only credential`,
  params: SurveyExportParams,
  responses: {
    200: {
      description:
        `CSV (RFC 4180, UTF-8 with a byte order mark, a header row): one row per response, test copies left out, in the order they were started: ` +
        `started_at, submitted_at, variant, then one column per question with the answer as words. A cell starting with = + - @, a tab or a carriage return ` +
        `has a ' put before it. Content-Disposition: attachment (survey-<id>.csv), Cache-Control: no-store. Written while it is read, ${CSV_PAGE} responses ` +
        'at a time; a failure mid-way closes the connection before the end.',
      contentType: 'text/csv',
    },
    403: {
      description:
        'address_expired: the address is older than its minutes (ask the staff API for another); address_invalid: altered, forged, or not a survey export address',
    },
    404: { description: 'The survey is gone' },
  },
  errors: [400, 403, 404, 429],
  async handle(ctx, { params }) {
    const terms = openSurveyExportAddress(ctx.state.context, params.token);
    const { fileName, chunks } = await surveyCsv(ctx.state.context, terms);
    // The request's log line names the app-mode (never the token: the log names the route's template).
    (ctx.state as { log?: RequestLog }).log?.setBindings({ app_mode: terms.appModeId });
    return surveyCsvAnswer(ctx, fileName, chunks);
  },
});
