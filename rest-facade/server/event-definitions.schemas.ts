import { z } from 'zod';
import { MAX_DEFINITION_PROPS, MAX_PROP_KEY, MAX_PROPS, PROP_TYPES } from '../../src/domain/events/props.js';

// Each definition is checked by the domain, which refuses a bad one with a reason and keeps the
// others: the document says what fits, the answer says what did not.
const Definition = z
  .object({
    name: z.string().meta({
      pattern: '^[A-Za-z0-9][A-Za-z0-9 _.:/-]{0,99}$',
      description: 'Letters, digits, spaces and _ . : / -, starting with a letter or digit, at most 100',
    }),
    description: z.string().optional().meta({ maxLength: 500 }),
    category: z.string().optional().meta({ pattern: '^[\\w-]{1,40}$', description: "A word of the customer's own, at most 40 characters" }),
    source: z
      .string()
      .optional()
      .meta({ enum: ['server', 'both'], description: 'server, or both when the app (client) sends it too; server when left out' }),
    props: z
      .array(z.object({ key: z.string().meta({ minLength: 1, maxLength: MAX_PROP_KEY }), type: z.string().meta({ enum: PROP_TYPES }) }))
      .optional()
      .meta({
        maxItems: MAX_PROPS,
        description: `At most ${MAX_PROPS} in one declaration; an event holds at most ${MAX_DEFINITION_PROPS} in all`,
      }),
  })
  .meta({ id: 'Definition' });

export const EventDefinitions = z
  .object({
    definitions: z
      .array(Definition)
      .max(500)
      .describe(
        'At most 500 in one request (400 beyond); each definition is then checked on its own, and one that does not fit is refused in the answer while the others are taken',
      ),
  })
  .meta({ id: 'EventDefinitions' });

export const DeclaredEvents = z
  .object({
    definitions: z
      .array(
        z.object({
          name: z.string().describe('The name as sent'),
          outcome: z
            .enum(['created', 'props_added', 'unchanged', 'refused'])
            .describe(
              'created: the event is new; props_added: it existed and gained props; unchanged: it already held all of this; refused: nothing of it was taken',
            ),
          reason: z.string().optional().describe('Why, when refused; left out otherwise'),
        }),
      )
      .describe('One per definition sent, in order'),
  })
  .meta({ id: 'DeclaredEvents' });
