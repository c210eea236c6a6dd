import { describe, expect, it } from 'vitest';
import { readContent } from '../inapp/content.js';
import { unknownWords } from '../inapp/known-words.js';
import { takeAnswers, walk, type SurveyAnswer } from './answers.js';
import { MAX_OTHER_RUNES, MAX_SHORT_ANSWER_RUNES, otherOption, runes, type Survey } from './model.js';

// The survey model's checks, pure: a broken survey is refused naming its step and branch.

const para = (text: string) => [{ type: 'paragraph', spans: [{ text }] }];
const thanks = { id: 'thanks', thankYou: true, blocks: para('Thank you') };
const nps = { id: 'score', type: 'nps', title: 'How likely are you to recommend us?', attribute: 'nps_score' };
const why = { id: 'why', type: 'long_text', title: 'What went wrong?' };
const praise = {
  id: 'praise',
  type: 'single',
  title: 'What do you like?',
  options: [
    { id: 'speed', label: 'Speed' },
    { id: otherOption, label: 'Other' },
  ],
};

const read = (content: unknown, attributes: Record<string, string> = {}) =>
  readContent('survey', content, { link: () => undefined, attributeType: (n) => attributes[n] }, 'content');
const fields = (content: unknown, attributes?: Record<string, string>) => {
  const r = read(content, attributes);
  return 'errors' in r ? r.errors : [];
};

interface RawSurvey {
  steps: { id: string; next?: string; branches?: { to: string; [k: string]: unknown }[]; [k: string]: unknown }[];
}

const branching: RawSurvey = {
  steps: [
    {
      id: 'rate',
      questions: [nps],
      branches: [
        { question: 'score', range: { min: 0, max: 6 }, to: 'detractor' },
        { question: 'score', range: { min: 7, max: 10 }, to: 'promoter' },
      ],
    },
    { id: 'detractor', questions: [why], next: 'thanks' },
    { id: 'promoter', questions: [praise] },
    thanks,
  ],
};

describe('survey model', () => {
  it('takes a branching survey and walks it by range and by value', () => {
    const r = read(branching, { nps_score: 'number' });
    expect(r).not.toHaveProperty('errors');
    const s = (r as { content: Survey }).content;
    const answers = (list: SurveyAnswer[]) => new Map(list.map((a) => [a.question, a]));
    expect(
      walk(
        s,
        answers([
          { question: 'score', number: 3 },
          { question: 'why', text: 'slow' },
        ]),
      ),
    ).toEqual({
      steps: ['rate', 'detractor', 'thanks'],
      complete: true,
    });
    expect(walk(s, answers([{ question: 'score', number: 9 }]))).toEqual({
      steps: ['rate', 'promoter'],
      complete: false,
      missing: 'praise',
    });
  });

  it('refuses a cycle naming the step and the branch', () => {
    const looping = structuredClone(branching);
    looping.steps[2]!.next = 'rate';
    expect(fields(looping)).toEqual([
      { field: 'content.steps.2.next', message: 'step promoter leads back to step rate: a survey may not loop' },
    ]);
    const viaBranch = structuredClone(branching);
    viaBranch.steps[1]!.next = 'rate';
    expect(fields(viaBranch)[0]).toEqual({
      field: 'content.steps.1.next',
      message: 'step detractor leads back to step rate: a survey may not loop',
    });
  });

  it('refuses a dead end, a branch naming no step and an unreachable step, naming each', () => {
    const deadEnd = { steps: [{ id: 'rate', questions: [nps], next: 'thanks' }, thanks, { id: 'after', questions: [why] }] };
    expect(fields(deadEnd)).toEqual([{ field: 'content.steps.2.next', message: expect.stringMatching(/^step after is a dead end/) }]);
    const nowhere = structuredClone(branching);
    nowhere.steps[0]!.branches![1]!.to = 'nowhere';
    expect(fields(nowhere)).toEqual([
      { field: 'content.steps.0.branches.1.to', message: "step rate's branch 1 names no step of this survey: nowhere" },
    ]);
    const skipped = { steps: [{ id: 'rate', questions: [nps], next: 'thanks' }, { id: 'lost', questions: [why] }, thanks] };
    expect(fields(skipped)).toEqual([{ field: 'content.steps.1', message: 'step lost cannot be reached from the first step' }]);
  });

  it('refuses ranges that leave the scale, overlap or leave a gap', () => {
    const withRanges = (ranges: [number, number][]) => ({
      steps: [
        { id: 'rate', questions: [nps], branches: ranges.map(([min, max]) => ({ question: 'score', range: { min, max }, to: 'thanks' })) },
        thanks,
      ],
    });
    expect(
      fields(
        withRanges([
          [0, 6],
          [6, 10],
        ]),
      ),
    ).toEqual([{ field: 'content.steps.0.branches.1.range', message: "step rate's branch 1 overlaps branch 0 at 6" }]);
    expect(
      fields(
        withRanges([
          [0, 5],
          [7, 10],
        ]),
      ),
    ).toEqual([
      { field: 'content.steps.0.branches', message: 'step rate: the ranges on question score must cover its scale; 6 is in none' },
    ]);
    const rating = { ...nps, type: 'rating', display: 'stars', min: 1, max: 5 };
    const outside = {
      steps: [{ id: 'rate', questions: [rating], branches: [{ question: 'score', range: { min: 0, max: 5 }, to: 'thanks' }] }, thanks],
    };
    expect(unknownWords(outside)).toEqual([]);
    expect(unknownWords({ steps: [{ questions: [{ ...rating, display: 'hearts' }] }] })).toEqual(['steps.0.questions.0.display']);
    expect(fields(outside)).toEqual([
      { field: 'content.steps.0.branches.0.range', message: "step rate's branch 0: the range must fit the scale 1 to 5" },
    ]);
  });

  it('refuses value branches on unknown options, overlapping values and an attribute of another type', () => {
    const bad = structuredClone(branching);
    bad.steps[2] = {
      id: 'promoter',
      questions: [praise],
      branches: [
        { question: 'praise', values: ['speed', 'price'], to: 'thanks' },
        { question: 'praise', values: ['speed'], to: 'thanks' },
      ],
    };
    expect(fields(bad, { nps_score: 'number' })).toEqual([
      { field: 'content.steps.2.branches.0.values.1', message: "step promoter's branch 0: price is not an option of question praise" },
      { field: 'content.steps.2.branches.1.values.0', message: "step promoter's branch 1 overlaps branch 0 at speed" },
    ]);
    expect(fields(branching, { nps_score: 'string' })).toEqual([
      { field: 'content.steps.0.questions.0.attribute', message: 'names a string attribute: a nps answer is written as a number' },
    ]);
    expect(fields(branching, { nps_score: 'undefined_strict' })).toEqual([
      { field: 'content.steps.0.questions.0.attribute', message: 'is not defined for this app, which has strict data on' },
    ]);
    expect(fields({ steps: [{ id: 'a', questions: [{ ...why, attribute: 'email' }] }, thanks] })[0]!.field).toBe(
      'content.steps.0.questions.0.attribute',
    );
  });

  it('holds answers to their questions: range, options, runes, the path', () => {
    const s = (read(branching) as { content: Survey }).content;
    const errs = (sent: SurveyAnswer[], submit = false) => {
      const r = takeAnswers(s, [], sent, { submit });
      return 'errors' in r ? r.errors.map((e) => e.field) : [];
    };
    expect(errs([{ question: 'score', number: 11 }])).toEqual(['answers.0.number']);
    expect(
      errs([
        { question: 'score', number: 9 },
        { question: 'praise', options: ['price'] },
      ]),
    ).toEqual(['answers.1.options']);
    expect(
      errs([
        { question: 'score', number: 9 },
        { question: 'why', text: 'x' },
      ]),
    ).toEqual(['answers.1.question']);
    expect(
      errs([
        { question: 'score', number: 9 },
        { question: 'praise', options: [otherOption], other: '👍🏽'.repeat(MAX_OTHER_RUNES / 2) },
      ]),
    ).toEqual([]);
    expect(
      errs([
        { question: 'score', number: 9 },
        { question: 'praise', options: [otherOption], other: 'x'.repeat(MAX_OTHER_RUNES + 1) },
      ]),
    ).toEqual(['answers.1.other']);
    expect(errs([{ question: 'score', number: 9 }], true)).toEqual(['answers']);
    expect(runes('e\u0301'.repeat(3))).toBe(6);
    expect(runes('😀'.repeat(MAX_SHORT_ANSWER_RUNES))).toBe(MAX_SHORT_ANSWER_RUNES);
  });
});
