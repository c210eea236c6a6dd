import { describe, expect, it } from 'vitest';
import type { Survey } from './model.js';
import { npsOf, SurveyResults } from './results.js';

const SURVEY: Survey = {
  steps: [
    {
      id: 'score',
      questions: [{ id: 'nps', type: 'nps', title: 'Recommend us?' }],
      branches: [
        { question: 'nps', range: { min: 0, max: 6 }, to: 'why' },
        { question: 'nps', range: { min: 7, max: 10 }, to: 'liked' },
      ],
    },
    { id: 'why', questions: [{ id: 'why', type: 'long_text', title: 'What should be better?' }], next: 'thanks' },
    {
      id: 'liked',
      questions: [
        {
          id: 'best',
          type: 'single',
          title: 'What do you like best?',
          options: [
            { id: 'prices', label: 'Prices' },
            { id: 'plants', label: 'Plants' },
          ],
        },
      ],
      next: 'thanks',
    },
    { id: 'thanks', thankYou: true },
  ],
};

describe('NPS', () => {
  it('scores each of the eleven answers by its value: 0–6 detract, 7–8 pass, 9–10 promote', () => {
    for (let n = 0; n <= 10; n++) {
      const counts = Array.from({ length: 11 }, (_, i) => (i === n ? 1 : 0));
      expect(npsOf(counts).score, `a single ${n}`).toBe(n <= 6 ? -100 : n <= 8 ? 0 : 100);
    }
    // Two promoters, one passive, one detractor: (2 - 1) / 4.
    expect(npsOf([0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 1])).toMatchObject({ answered: 4, promoters: 2, passives: 1, detractors: 1, score: 25 });
    expect(npsOf(Array(11).fill(0)).score).toBe(0);
    expect(npsOf([1, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]).score).toBe(33.3);
  });
});

describe('drop-off with branching', () => {
  it('divides exits by the question’s own views on the paths taken, counting those shown who never answered', () => {
    const r = new SurveyResults(SURVEY);
    r.add({ variant: 'a', answers: [{ question: 'nps', number: 3 }], path: ['score', 'why'], submitted: false });
    r.add({
      variant: 'a',
      answers: [
        { question: 'nps', number: 9 },
        { question: 'best', options: ['plants'] },
      ],
      path: ['score', 'liked', 'thanks'],
      submitted: true,
    });
    r.add({ variant: 'a', answers: [{ question: 'nps', number: 8 }], path: ['score', 'liked'], submitted: false });
    const [a] = r.results(new Map([['a', 4]]));
    expect(a).toMatchObject({ variant: 'a', shown: 4, started: 3, completed: 1 });
    const by = Object.fromEntries(a!.questions.map((q) => [q.question, q]));
    expect([by.nps!.views, by.nps!.exits, by.nps!.dropOff]).toEqual([4, 1, 0.25]);
    expect([by.why!.views, by.why!.exits, by.why!.dropOff]).toEqual([1, 1, 1]);
    expect([by.best!.views, by.best!.exits, by.best!.dropOff]).toEqual([2, 1, 0.5]);
    expect(by.best!.distribution).toEqual([
      { value: 'prices', count: 0 },
      { value: 'plants', count: 1 },
    ]);
    expect(by.nps!.distribution.filter((d) => d.count)).toEqual([
      { value: '3', count: 1 },
      { value: '8', count: 1 },
      { value: '9', count: 1 },
    ]);
    expect(by.nps!.nps).toMatchObject({ answered: 3, score: 0 });
    expect(by.why!.distribution).toEqual([]);
  });

  it('keeps variants apart, and answers a variant shown to no one who answered', () => {
    const r = new SurveyResults(SURVEY);
    r.add({ variant: 'b', answers: [], path: ['score'], submitted: false });
    const results = r.results(new Map([['a', 2]]));
    expect(results.map((v) => [v.variant, v.shown, v.started])).toEqual([
      ['a', 2, 0],
      ['b', 1, 0],
    ]);
    expect(results[0]!.questions[0]).toMatchObject({ views: 2, exits: 2, dropOff: 1 });
  });
});
