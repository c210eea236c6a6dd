import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.js';
import type { Survey } from '../surveys/model.js';
import { compileAudience, type PersonFacts } from './compile.js';
import { readAudience, type Vocabulary } from './rules.js';
import { questionShapes, surveyIdsIn, surveyMatcher, surveyNeedKey, type SurveyNeed } from './survey-rule.js';

// An audience condition on a person's answers to a survey, without a server: read against the
// app-mode's surveys (every bad member refused by its path), compiled into the positive needs the
// SQL finds (survey-answers.ts; the black-box test finds people with it) and their negations.

const A: Survey = {
  steps: [
    {
      id: 'rate',
      questions: [
        { id: 'score', type: 'nps', title: 'Score' },
        { id: 'stars', type: 'rating', title: 'Stars', min: 1, max: 5 },
      ],
    },
    {
      id: 'more',
      questions: [
        {
          id: 'pick',
          type: 'multiple',
          title: 'Pick',
          options: [
            { id: 'chat', label: 'Chat' },
            { id: 'mail', label: 'Mail' },
          ],
        },
        { id: 'why', type: 'long_text', title: 'Why' },
      ],
    },
    { id: 'end', thankYou: true, blocks: [] },
  ],
};
// Variant b has another option, and a wider star scale.
const B: Survey = {
  steps: [
    {
      id: 'rate',
      questions: [
        { id: 'stars', type: 'rating', title: 'Stars', min: 0, max: 7 },
        { id: 'pick', type: 'single', title: 'Pick', options: [{ id: 'phone', label: 'Phone' }] },
      ],
    },
    { id: 'end', thankYou: true, blocks: [] },
  ],
};

const vocabulary: Vocabulary = { attributes: new Map(), events: new Set(), surveys: new Map([['s1', questionShapes([A, B])]]) };

function refusedFields(rule: unknown): string[] {
  try {
    readAudience(rule, vocabulary);
  } catch (err) {
    return (err as DomainError).errors.map((e) => `${e.field}: ${e.message}`);
  }
  return [];
}

/** A person whose answers meet exactly these needs. */
const person = (...met: SurveyNeed[]): PersonFacts => ({
  now: new Date(),
  externalId: 'u1',
  contact: { email: null, displayName: null, provider: null, timeZone: null, signedUpAt: null, createdAt: null, tags: [] },
  attributes: {},
  language: null,
  platform: null,
  appVersion: null,
  eventCount: () => 0,
  surveyMatch: (need) => met.some((m) => surveyNeedKey(m) === surveyNeedKey(need)),
});

describe('a survey condition', () => {
  it('is read with the questions of every variant: ranges within the widest scale, options of any variant', () => {
    expect(questionShapes([A, B]).get('stars')).toEqual({ type: 'rating', scale: { min: 0, max: 7 } });
    expect(questionShapes([A, B]).get('pick')).toMatchObject({ type: 'multiple', options: new Set(['chat', 'mail', 'phone']) });
    for (const ok of [
      { survey: 's1', submitted: true },
      { survey: 's1', answered: false },
      { survey: 's1', question: 'why', answered: true },
      { survey: 's1', question: 'score', range: { min: 0, max: 6 } },
      { survey: 's1', question: 'stars', range: { min: 6, max: 7 } },
      { survey: 's1', question: 'pick', options: ['phone', 'chat'] },
    ])
      expect(refusedFields(ok), JSON.stringify(ok)).toEqual([]);
  });

  it('refuses a survey the app-mode lacks, a question the survey lacks, and a form that does not fit the question, naming the path', () => {
    expect(
      refusedFields({
        all: [
          { survey: 'nope', submitted: true },
          { survey: 's1', question: 'nope', answered: true },
          { survey: 's1', question: 'why', range: { min: 1, max: 2 } },
          { survey: 's1', question: 'score', options: ['chat'] },
          { survey: 's1', question: 'score', range: { min: 0, max: 11 } },
          { survey: 's1', question: 'score', range: { min: 7, max: 6 } },
          { survey: 's1', question: 'score', range: { min: 0.5, max: 6 } },
          { survey: 's1', question: 'pick', options: ['fax'] },
          { survey: 's1', question: 'pick', options: [] },
          { survey: 's1', range: { min: 0, max: 6 } },
          { survey: 's1', question: 'score', submitted: true },
          { survey: 's1', answered: true, submitted: true },
          { survey: 's1' },
          { survey: 's1', answered: 'yes' },
        ],
      }),
    ).toEqual([
      'audience.all.0.survey: names no survey of this app',
      'audience.all.1.question: names no question of this survey',
      'audience.all.2.range: goes with a rating or NPS question, not long_text',
      'audience.all.3.options: goes with a choice or dropdown question, not nps',
      'audience.all.4.range: must be { min, max }, whole numbers from 0 to 10, min not above max',
      'audience.all.5.range: must be { min, max }, whole numbers from 0 to 10, min not above max',
      'audience.all.6.range: must be { min, max }, whole numbers from 0 to 10, min not above max',
      'audience.all.7.options: names no option of question pick: fax',
      'audience.all.8.options: must be a list of 1 to 100 option ids',
      'audience.all.9.question: is required with range',
      'audience.all.10.question: goes with answered, range or options, not submitted',
      'audience.all.11: must have exactly one of answered, submitted, range (a number answer) or options (options picked)',
      'audience.all.12: must have exactly one of answered, submitted, range (a number answer) or options (options picked)',
      'audience.all.13.answered: must be true or false',
    ]);
  });

  it('compiles into positive needs, each once, a "did not" testing its need negated', () => {
    const detractor: SurveyNeed = { survey: 's1', question: 'score', form: 'range', min: 0, max: 6 };
    const submitted: SurveyNeed = { survey: 's1', form: 'submitted' };
    const rule = readAudience(
      {
        any: [
          { survey: 's1', question: 'score', range: { min: 0, max: 6 } },
          {
            all: [
              { survey: 's1', submitted: false },
              { survey: 's1', answered: true },
            ],
          },
          { survey: 's1', question: 'score', range: { min: 0, max: 6 } },
        ],
      },
      vocabulary,
    );
    const compiled = compileAudience(rule);
    expect(compiled.surveys).toEqual([detractor, submitted, { survey: 's1', form: 'answered' }]);
    expect(compiled.events).toEqual([]);
    const started: SurveyNeed = { survey: 's1', form: 'answered' };
    expect(compiled.test(person(detractor))).toBe(true);
    // Started and not submitted: still to follow up.
    expect(compiled.test(person(started))).toBe(true);
    expect(compiled.test(person(started, submitted))).toBe(false);
    expect(compiled.test(person())).toBe(false);
  });

  it('finds the surveys a rule names, bounded, before it is read', () => {
    expect(
      surveyIdsIn({
        all: [{ survey: 'a', submitted: true }, { any: [{ survey: 'b' }, { field: 'email', op: 'exists' }] }, { survey: 'a' }],
      }),
    ).toEqual(['a', 'b']);
    expect(surveyIdsIn(null)).toEqual([]);
    expect(surveyIdsIn({ survey: 7 })).toEqual([]);
  });

  it('reads the matches the SQL answered in the needs’ order', () => {
    const needs: SurveyNeed[] = [
      { survey: 's1', form: 'submitted' },
      { survey: 's1', question: 'pick', form: 'options', options: ['chat'] },
    ];
    const match = surveyMatcher(needs, [false, true]);
    expect(match({ survey: 's1', form: 'submitted' })).toBe(false);
    expect(match({ survey: 's1', question: 'pick', form: 'options', options: ['chat'] })).toBe(true);
    expect(match({ survey: 's1', form: 'answered' })).toBe(false);
  });
});
