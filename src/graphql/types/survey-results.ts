import { conflict } from '../../domain/errors.js';
import { messageIn } from '../../domain/inapp/messages.js';
import { liveSurveyResults, RESULTS_EVERY_MS, type SurveyResultsEvent } from '../../domain/inapp/survey-live.js';
import { SURVEY_EXPORT_SECONDS, surveyExportAddress } from '../../domain/inapp/survey-export.js';
import { surveyResults } from '../../domain/inapp/survey-results.js';
import { MAX_TEXT_SEARCH, surveyTextAnswers, TEXT_EXAMINED, type TextAnswer } from '../../domain/inapp/survey-text-answers.js';
import type { Nps, QuestionResults, VariantResults } from '../../domain/surveys/results.js';
import { builder, connectionType } from '../builder.js';
import { asStaff } from '../context.js';
import { connectionOf } from '../pages.js';
import { liveFor } from '../subscription-access.js';

// A survey's results on the staff API (every member who reads the app-mode): per variant, shown,
// started and completed; per question, views and exits on the paths taken, drop-off, the answers'
// distribution and the NPS (docs/areas/surveys.md).

const SurveyNps = builder.objectRef<Nps>('SurveyNps').implement({
  description: 'The share of 9–10 minus the share of 0–6, in points from -100 to 100.',
  fields: (t) => ({
    answered: t.exposeInt('answered'),
    promoters: t.exposeInt('promoters'),
    passives: t.exposeInt('passives'),
    detractors: t.exposeInt('detractors'),
    score: t.exposeFloat('score'),
  }),
});

const SurveyValueCount = builder.objectRef<{ value: string; count: number }>('SurveyValueCount').implement({
  fields: (t) => ({
    value: t.exposeString('value', { description: 'A number of the scale, or an option id.' }),
    count: t.exposeInt('count'),
  }),
});

const SurveyQuestionResults = builder.objectRef<QuestionResults>('SurveyQuestionResults').implement({
  fields: (t) => ({
    question: t.exposeString('question'),
    type: t.exposeString('type'),
    title: t.exposeString('title'),
    views: t.exposeInt('views', { description: "People whose path reached the question's step (the first step: everyone shown)." }),
    exits: t.exposeInt('exits', { description: 'People who stopped at it without answering or submitting.' }),
    dropOff: t.exposeFloat('dropOff', { nullable: true, description: "exits over the question's own views; null with no views." }),
    answered: t.exposeInt('answered'),
    distribution: t.field({ type: [SurveyValueCount], resolve: (q) => q.distribution }),
    nps: t.field({ type: SurveyNps, nullable: true, resolve: (q) => q.nps }),
  }),
});

const SurveyVariantResults = builder.objectRef<VariantResults>('SurveyVariantResults').implement({
  fields: (t) => ({
    variant: t.exposeString('variant'),
    shown: t.exposeInt('shown'),
    started: t.exposeInt('started', { description: 'Answered at least once.' }),
    completed: t.exposeInt('completed', { description: 'Submitted.' }),
    questions: t.field({ type: [SurveyQuestionResults], resolve: (v) => v.questions }),
  }),
});

builder.queryField('surveyResults', (t) =>
  t.field({
    type: [SurveyVariantResults],
    description: "A survey's results per variant (test copies' answers left out); not_a_survey for another kind.",
    args: { messageId: t.arg.id({ required: true }) },
    authScopes: (_root, { messageId }) => ({ read: { inAppMessageId: messageId } }),
    resolve: (_root, { messageId }, ctx) => surveyResults(asStaff(ctx), messageId),
  }),
);

const SurveyResultsEventRef = builder.objectRef<SurveyResultsEvent>('SurveyResultsEvent').implement({
  description: "A survey's results as they are now: replace what you show.",
  fields: (t) => ({
    version: t.exposeString('version', { description: 'Name it as `after` to resume from here.' }),
    reload: t.exposeBoolean('reload', { description: 'The first answer, or after a gap.' }),
    results: t.field({ type: [SurveyVariantResults], resolve: (e) => e.value }),
  }),
});

builder.subscriptionField('surveyResultsChanged', (t) =>
  t.field({
    type: SurveyResultsEventRef,
    description:
      `A survey's results (as surveyResults answers them), then the results again after people answer or submit it, from any server process, in order, ` +
      `resumable with \`after\`. Answers that come close together are answered once: the results are read at most once every ` +
      `${RESULTS_EVERY_MS / 1000} second per survey and server process, for all its subscribers. not_a_survey for another kind.`,
    args: { messageId: t.arg.id({ required: true }), after: t.arg.string() },
    authScopes: (_root, { messageId }) => ({ read: { inAppMessageId: messageId } }),
    subscribe: async (_root, { messageId, after }, ctx) => {
      const message = await messageIn(asStaff(ctx), messageId);
      if (message.kind !== 'survey') throw conflict('not_a_survey', 'Only a survey has results.');
      return liveFor(ctx, { inAppMessageId: messageId }, 'read', (signal) =>
        liveSurveyResults(asStaff(ctx), message.appModeId, messageId, { after, signal }),
      );
    },
    resolve: (event) => event,
  }),
);

const SurveyTextAnswerRef = builder.objectRef<TextAnswer>('SurveyTextAnswer').implement({
  description: 'The words one person wrote to a question of a survey.',
  fields: (t) => ({
    contactId: t.exposeID('contactId', { description: 'The person (Contact.id).' }),
    text: t.exposeString('text', { description: 'The text answer, or the words beside Other.' }),
    other: t.exposeBoolean('other', { description: 'The words beside Other of a choice, not a text answer.' }),
    variant: t.exposeString('variant'),
    answeredAt: t.expose('answeredAt', { type: 'DateTime', description: 'When the response was last answered or submitted.' }),
    submitted: t.exposeBoolean('submitted'),
  }),
});

builder.queryField('surveyTextAnswers', (t) =>
  t.connection(
    {
      type: SurveyTextAnswerRef,
      description:
        "The words people wrote to one question of a survey (a short or long text question, or Other's words beside a choice), the most recently " +
        `answered first; search finds text in them in any case (at most ${MAX_TEXT_SEARCH} characters). Test copies are left out. A page examines at ` +
        `most ${TEXT_EXAMINED} responses: a search may answer fewer than \`first\` with hasNextPage, to go on from where it stopped. ` +
        'not_a_survey for another kind; a question of another type is refused naming `question`.',
      args: { messageId: t.arg.id({ required: true }), question: t.arg.string({ required: true }), search: t.arg.string() },
      authScopes: (_root, { messageId }) => ({ read: { inAppMessageId: messageId } }),
      resolve: async (_root, { messageId, question, search, first, after }, ctx) =>
        connectionOf(await surveyTextAnswers(asStaff(ctx), messageId, question, { search, first, after }), after),
    },
    connectionType(SurveyTextAnswerRef, 'SurveyTextAnswer'),
  ),
);

const SurveyExportAddress = builder.objectRef<{ url: string; expiresAt: Date }>('SurveyExportAddress').implement({
  description: "Where to download a survey's responses as CSV: an address of this service, signed, good for a few minutes.",
  fields: (t) => ({
    url: t.exposeString('url', {
      description:
        'GET answers the CSV as a file (`GET /public/v1/survey-exports/{token}`): one row per response. The address is the credential: do not share or log it.',
    }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime', description: 'After this the address is refused (403 address_expired).' }),
  }),
});

builder.mutationField('exportSurveyResponses', (t) =>
  t.field({
    type: SurveyExportAddress,
    description:
      `An address to download a survey's responses as CSV, streamed: one row per response (test copies left out, no person named), when it was ` +
      `started and submitted, its variant, then each question's answer as words. Good for ${SURVEY_EXPORT_SECONDS / 60} minutes and for this survey ` +
      'only; every member who reads the app-mode. not_a_survey for another kind.',
    args: { messageId: t.arg.id({ required: true }) },
    authScopes: (_root, { messageId }) => ({ read: { inAppMessageId: messageId } }),
    resolve: (_root, { messageId }, ctx) => surveyExportAddress(asStaff(ctx), messageId),
  }),
);
