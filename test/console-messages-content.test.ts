import { describe, expect, it } from 'vitest';
import { audienceOf, fromEditContent, modelOf, toEditContent } from '../console/src/screens/messages-content.js';

// The console's message editor gives back what it has no field for: a carousel's members, a
// screen's image, background and style, a block's formatting members, an option's emoji; and the
// audience editor keeps the rules its rows cannot hold (events, nested groups) as they were read.

describe("the console's message content and audience models", () => {
  it('give a carousel back as read, members the editor has no field for included', () => {
    const carousel = {
      progress: 'bar',
      skip: true,
      screens: [
        {
          id: 'one',
          layout: 'image_top',
          image: { url: 'https://example.com/a.png', alt: 'A' },
          background: { kind: 'color', color: '#112233' },
          style: { accent: '#ff0000' },
          blocks: [{ type: 'paragraph', spans: [{ text: 'Hi ' }, { text: 'there', bold: true }], size: 'large', align: 'center' }],
          buttons: [{ id: 'go', label: 'Go', style: 'secondary', screen: 'two' }],
        },
        {
          id: 'two',
          blocks: [{ type: 'heading', level: 2, spans: [{ text: 'Pick' }] }],
          choice: {
            options: [
              { id: 'x', label: 'X', emoji: '🙂', next: 'end' },
              { id: 'y', label: 'Y' },
            ],
          },
          next: 'one',
        },
      ],
    };
    expect(fromEditContent('carousel', toEditContent(carousel))).toEqual(carousel);
    const post = {
      blocks: [{ type: 'paragraph', spans: [{ text: 'News' }] }],
      buttons: [{ id: 'b1', label: 'Read', link: 'https://example.com' }],
      style: { corner: 'large' },
    };
    expect(fromEditContent('post', toEditContent(post))).toEqual(post);
  });

  it('keep an audience rule the rows cannot hold as it was read', () => {
    const event = { event: 'order_placed', did: true, withinDays: 30 };
    const nested = {
      any: [
        { field: 'platform', op: 'in', value: ['ios'] },
        { attribute: 'vip', op: 'is', value: true, type: 'boolean' },
      ],
    };
    const rule = {
      all: [
        { attribute: 'plan', op: 'is', value: 'pro', type: 'string' },
        event,
        nested,
        { attribute: 'age', op: 'gte', value: 18, type: 'number' },
      ],
    };
    const model = modelOf(rule);
    expect(model.rows.map((r) => r.subject)).toEqual(['attribute:plan', 'attribute:age']);
    expect(model.kept).toEqual([event, nested]);
    expect(audienceOf(model)).toEqual({
      all: [{ attribute: 'plan', op: 'is', value: 'pro' }, { attribute: 'age', op: 'gte', value: 18 }, event, nested],
    });
    expect(audienceOf(modelOf(null))).toBeNull();
  });

  it("holds survey conditions as survey rows and gives them back as the service's rule takes them", () => {
    const conditions = [
      { survey: 's1', question: 'q1', range: { min: 0, max: 6 } },
      { survey: 's1', question: 'q3', options: ['other', 'tea'] },
      { survey: 's1', submitted: false },
      { survey: 's1', answered: true },
      { survey: 's1', question: 'q2', answered: false },
    ];
    // Two forms at once, or a member the row has no field for: kept as read.
    const odd = [
      { survey: 's1', submitted: true, answered: true },
      { survey: 's1', submitted: true, note: 'x' },
    ];
    const model = modelOf({ any: [...conditions, ...odd] });
    expect(model.surveys.map((r) => [r.question, r.rule])).toEqual([
      ['q1', 'range'],
      ['q3', 'options'],
      ['', 'not_submitted'],
      ['', 'answered'],
      ['q2', 'not_answered'],
    ]);
    expect(model.kept).toEqual(odd);
    expect(audienceOf(model)).toEqual({ any: [...conditions, ...odd] });
    // Attribute rows first, then the survey rows, then the kept rules: a refusal names each by its place.
    const mixed = modelOf({ all: [odd[0], conditions[0], { attribute: 'plan', op: 'is', value: 'pro' }] });
    expect(audienceOf(mixed)).toEqual({ all: [{ attribute: 'plan', op: 'is', value: 'pro' }, conditions[0], odd[0]] });
  });
});
