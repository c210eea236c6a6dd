import SchemaBuilder from '@pothos/core';
import ComplexityPlugin from '@pothos/plugin-complexity';
import PrismaPlugin from '@pothos/plugin-prisma';
import { getDatamodel } from '../generated/pothos-types.js';
import type PrismaTypes from '../generated/pothos-types.js';
import type { StaffContext } from './context.js';

// The one Pothos builder of the staff schema. The Prisma client comes from the request's
// context, so the schema is built (and printed) without a database.

export const builder = new SchemaBuilder<{
  Context: StaffContext;
  PrismaTypes: PrismaTypes;
  DefaultFieldNullability: false;
  Scalars: { ID: { Input: string; Output: string }; DateTime: { Input: Date; Output: Date }; JSON: { Input: unknown; Output: unknown } };
}>({
  // Complexity only records each field's cost; limits.ts checks it before execution.
  plugins: [PrismaPlugin, ComplexityPlugin],
  defaultFieldNullability: false,
  prisma: { client: (ctx) => ctx.svc.db, dmmf: getDatamodel(), exposeDescriptions: false, onUnusedQuery: null },
});

builder.scalarType('DateTime', {
  description: 'An instant, as an ISO 8601 string in UTC.',
  serialize: (value) => value.toISOString(),
  parseValue: (value) => {
    const date = new Date(String(value));
    if (Number.isNaN(date.getTime())) throw new TypeError('DateTime must be an ISO 8601 string');
    return date;
  },
});

export const StaffRole = builder.enumType('StaffRole', { values: ['owner', 'admin', 'agent'] as const });
export const Mode = builder.enumType('Mode', { values: ['live', 'test'] as const });

// The root types; each area adds its fields with builder.queryField, mutationField, subscriptionField.
builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});
