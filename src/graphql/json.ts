import { valueFromASTUntyped } from 'graphql';
import { builder } from './builder.js';

// Values whose shape is the data's own: attribute values, event props, what an erase removed.
export const JSONValue = builder.scalarType('JSON', {
  description: 'Any JSON value, as it is kept.',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: (ast) => valueFromASTUntyped(ast),
});
