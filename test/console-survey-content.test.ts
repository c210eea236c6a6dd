import { describe, expect, it } from 'vitest';
import * as content from '../console/src/screens/messages-survey-content.js';
import * as changes from '../console/src/screens/messages-survey-edits.js';
import { questionShapes } from '../src/domain/audiences/survey-rule.js';
import { ATTRIBUTE_TYPE, NPS_MAX, NPS_MIN, QUESTION_TYPES, otherOption, type Survey } from '../src/domain/surveys/model.js';

// The console's survey editor gives a survey back as it read it (every question type, branches by
// a range and by values, members it has no field for), speaks the model's words, and keeps its
// branches naming what they named when a step, a question or an option is renamed or removed.

const edits = { ...content, ...changes };

const para = (text: string) => [{ type: 'paragraph', spans: [{ text }] }];
const SURVEY = {
  nextLabel: 'On',
  submitLabel: 'Send it',
  theme: { accent: '#123456' },
  steps: [
    {
      id: 'rate',
      blocks: para('Two minutes, no more.'),
      questions: [
        { id: 'score', type: 'nps', title: 'How likely?', lowLabel: 'Never', highLabel: 'Surely', attribute: 'nps_score' },
        { id: 'stars', type: 'rating', title: 'Stars?', display: 'stars', min: 1, max: 5, required: false },
      ],
      branches: [
        { question: 'score', range: { min: 0, max: 6 }, to: 'why' },
        { question: 'score', range: { min: 7, max: 10 }, to: 'pick' },
      ],
    },
    { id: 'why', questions: [{ id: 'why', type: 'long_text', title: 'Why?', placeholder: 'Tell us' }], next: 'thanks' },
    {
      id: 'pick',
      questions: [
        {
          id: 'best',
          type: 'single',
          title: 'Best?',
          required: true,
          attribute: 'liked',
          options: [
            { id: 'speed', label: 'Speed' },
            { id: otherOption, label: 'Something else' },
          ],
        },
        {
          id: 'uses',
          type: 'multiple',
          title: 'Uses?',
          options: [
            { id: 'chat', label: 'Chat' },
            { id: 'mail', label: 'Mail' },
          ],
        },
        {
          id: 'plan',
          type: 'dropdown',
          title: 'Plan?',
          options: [
            { id: 'free', label: 'Free' },
            { id: 'pro', label: 'Pro' },
          ],
        },
        { id: 'note', type: 'short_text', title: 'A note?', description: 'Optional words', attribute: 'note' },
      ],
      branches: [{ question: 'best', values: ['speed'], to: 'thanks' }],
      next: 'thanks',
    },
    { id: 'thanks', thankYou: true, blocks: para('Thank you!') },
  ],
};

describe("the console's survey editor model", () => {
  it('gives a survey back as read, members it has no field for included', () => {
    expect(edits.fromEditSurvey(edits.toEditSurvey(SURVEY))).toEqual(SURVEY);
  });

  it("speaks the service model's words", () => {
    expect(edits.QUESTION_TYPES).toEqual(QUESTION_TYPES);
    expect(edits.ATTRIBUTE_TYPE).toEqual(ATTRIBUTE_TYPE);
    expect([edits.otherOption, edits.NPS_MIN, edits.NPS_MAX]).toEqual([otherOption, NPS_MIN, NPS_MAX]);
  });

  it('keeps branches naming a renamed step, question or option, and drops a removed option', () => {
    const e = edits.toEditSurvey(SURVEY);
    const renamed = edits.renameStep(e, 'why', 'why-not');
    expect(renamed[0]!.branches.map((b) => b.to)).toEqual(['why-not', 'pick']);
    const pick = e.steps[2]!;
    expect(edits.renameQuestion(pick, 'best', 'favourite')[0]!.question).toBe('favourite');
    // An option's id follows its words while it was made from them; a branch's values follow it.
    const best = pick.questions[0]!;
    const fresh = edits.newOptions();
    const made = edits.relabel([...best.options, ...fresh], fresh[0]!.key, 'Great prices');
    expect(made.map((o) => o.id)).toEqual(['speed', otherOption, 'great-prices', 'option-2']);
    const speed = edits.relabel(best.options, best.options[0]!.key, 'Quickness');
    expect(speed[0]!.id).toBe('speed'); // written by hand: kept
    const renamedOption = best.options.map((o) => (o.id === 'speed' ? { ...o, id: 'fast' } : o));
    expect(edits.followOptions(pick.branches, 'best', best.options, renamedOption)[0]!.values).toEqual(['fast']);
    expect(edits.followOptions(pick.branches, 'best', best.options, best.options.slice(1))[0]!.values).toEqual([]);
  });

  it('fits a rating to its display and starts new parts with free ids', () => {
    const q = { ...edits.newQuestion([]), max: 10 };
    expect(edits.fitScale({ ...q, display: 'stars' }).max).toBe(5);
    expect(edits.ratingMaxes('emoji', 0)).toEqual([2, 3, 4]);
    expect(edits.ratingMaxes('numbers', 1)).toEqual([3, 4, 5, 6, 7, 8, 9, 10]);
    const e = edits.toEditSurvey(SURVEY);
    expect(edits.newQuestion(['q1', 'q2']).id).toBe('q3');
    expect(edits.newStep(e).id).toBe('step-1');
    expect(edits.newBranch(e.steps[0]!.questions[0]!, 'thanks')).toMatchObject({ by: 'range', min: 0, max: 10, to: 'thanks' });
    expect(edits.newBranch(e.steps[2]!.questions[0]!, 'thanks')).toMatchObject({ by: 'values', values: [] });
    expect(edits.stepName(e.steps, 'thanks')).toBe('The thank-you step (thanks)');
    expect(edits.stepName(e.steps, 'pick')).toBe('Step 3 (pick)');
  });

  it("reads a survey's questions for an audience condition as the service's rule does", () => {
    const other = {
      steps: [
        {
          id: 'rate',
          questions: [
            { id: 'score', type: 'nps', title: 'How likely, again?' },
            { id: 'stars', type: 'rating', title: 'Stars?', display: 'numbers', min: 0, max: 7 },
          ],
        },
        {
          id: 'pick',
          questions: [
            {
              id: 'best',
              type: 'single',
              title: 'Best?',
              options: [
                { id: 'tea', label: 'Tea!' },
                { id: 'cake', label: 'Cake' },
              ],
            },
          ],
        },
        { id: 'thanks', thankYou: true, blocks: para('Thanks') },
      ],
    };
    const variants = [SURVEY, other];
    const read = content.surveyQuestions(variants);
    const shapes = questionShapes(variants as unknown as Survey[]);
    expect(read.map((q) => q.id)).toEqual([...shapes.keys()]);
    for (const q of read) {
      const shape = shapes.get(q.id)!;
      expect(q.type).toBe(shape.type);
      expect(q.scale).toEqual(shape.scale);
      expect(q.options?.map((o) => o.id).sort()).toEqual(shape.options && [...shape.options].sort());
    }
    // The words of the first variant asking each.
    expect(read.find((q) => q.id === 'score')!.title).toBe('How likely?');
    expect(read.find((q) => q.id === 'stars')!.scale).toEqual({ min: 0, max: 7 });
  });
});
