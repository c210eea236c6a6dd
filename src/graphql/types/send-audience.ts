import { MAX_CONDITIONS, type AudienceInput } from '../../domain/audiences/send-audience.js';
import { builder } from '../builder.js';
import { JSONValue } from '../json.js';

// Who a push or an email goes to, as staff name it: one person, everyone, or an attribute filter.

const AttributeCondition = builder.inputType('SendAttributeCondition', {
  fields: (t) => ({
    name: t.string({ required: true, description: 'A custom attribute of the app.' }),
    value: t.field({
      type: JSONValue,
      required: true,
      description: 'A value of the attribute’s type; for a list attribute, one string the list holds.',
    }),
  }),
});

export const SendAudienceInput = builder.inputType('SendAudienceInput', {
  description: 'Exactly one of these.',
  fields: (t) => ({
    externalId: t.string({ description: 'One person.' }),
    everyone: t.boolean({ description: 'true: every person of the app-mode.' }),
    attributes: t.field({
      type: [AttributeCondition],
      description: `The people whose attributes hold every condition (1 to ${MAX_CONDITIONS}).`,
    }),
  }),
});

/** The input as the domain reads it. */
export const sendAudienceOf = (audience: typeof SendAudienceInput.$inferInput): AudienceInput => ({
  ...audience,
  attributes: audience.attributes?.map((c) => ({ name: c.name, value: c.value })),
});
