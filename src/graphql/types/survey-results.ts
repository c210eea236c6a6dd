import { surveyResults } from '../../domain/inapp/survey-results.js';
import type { Nps, QuestionResults, VariantResults } from '../../domain/surveys/results.js';
import { builder } from '../builder.js';
import { asStaff } from '../context.js';

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
