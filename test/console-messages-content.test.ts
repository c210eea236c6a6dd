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
});
