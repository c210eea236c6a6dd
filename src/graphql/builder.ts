import SchemaBuilder from '@pothos/core';
import ComplexityPlugin from '@pothos/plugin-complexity';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import { DEFAULT_PAGE, MAX_PAGE } from '../domain/paging.js';
import { getDatamodel } from '../generated/pothos-types.js';
import type PrismaTypes from '../generated/pothos-types.js';
import { staffScopes, type StaffScopes } from './access.js';
import { unauthenticated, type StaffContext } from './context.js';
import { parseDateTime } from './text-input.js';
import { costByPageSize, PAGE_ITEMS_COST } from './limits.js';
import ForwardPagesPlugin from './pages.js';

// The one Pothos builder of the staff schema. The Prisma client comes from the request's
// context, so the schema is built (and printed) without a database.
//
// Where reads live. A plain read of rows, which Pothos can plan, is a Prisma query in the field
// itself (t.prismaField, t.prismaConnection, t.relatedConnection): the plugin selects what the
// document asks for and joins nested lists instead of reading them row by row. Anything with a
// rule lives in src/domain/ and the field calls it: search, erase state, typed attributes, paging
// over raw SQL, who may do what. Permissions are declared on the field (authScopes, access.ts),
// never checked by hand in a resolver; every list is a connection (pages.ts).

export const builder = new SchemaBuilder<{
  Context: StaffContext;
  PrismaTypes: PrismaTypes;
  AuthScopes: StaffScopes;
  DefaultFieldNullability: false;
  DefaultEdgesNullability: false;
  DefaultNodeNullability: false;
  Scalars: { ID: { Input: string; Output: string }; DateTime: { Input: Date; Output: Date }; JSON: { Input: unknown; Output: unknown } };
}>({
  // Scope auth first, so no other plugin's wrapper runs for a refused field. Complexity only
  // records each field's cost; limits.ts checks it before execution.
  plugins: [ScopeAuthPlugin, PrismaPlugin, RelayPlugin, ComplexityPlugin, ForwardPagesPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    authScopes: staffScopes,
    // Targets are small objects made per field: cached by value, once per request.
    cacheKey: (value) => JSON.stringify(value),
    authorizeOnSubscribe: true,
    // Action scopes throw their own refusal (not_found, role_forbids); only `staff` fails plainly.
    unauthorizedError: () => unauthenticated(),
  },
  prisma: {
    client: (ctx) => ctx.svc.db,
    dmmf: getDatamodel(),
    exposeDescriptions: false,
    // A prismaField that reads without the planned query reads rows twice: say so while developing.
    onUnusedQuery: process.env.NODE_ENV === 'production' ? null : 'warn',
    defaultConnectionSize: DEFAULT_PAGE,
    maxConnectionSize: MAX_PAGE,
  },
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    // Lists only: no Node interface, no node(id:) lookups around the permission checks.
    nodeQueryOptions: false,
    nodesQueryOptions: false,
    edgesFieldOptions: { nullable: false, complexity: PAGE_ITEMS_COST },
    nodeFieldOptions: { nullable: false },
    defaultConnectionFieldOptions: { complexity: costByPageSize },
  },
});

builder.scalarType('DateTime', {
  description: 'An instant, as an ISO 8601 string in UTC.',
  serialize: (value) => value.toISOString(),
  // Strictly: RFC 3339 with a real calendar date; a refusal names its argument (text-input.ts, errors.ts).
  parseValue: parseDateTime,
});

export const StaffRole = builder.enumType('StaffRole', { values: ['owner', 'admin', 'agent'] as const });
export const Mode = builder.enumType('Mode', { values: ['live', 'test'] as const });

// The root types; each area adds its fields with builder.queryField, mutationField, subscriptionField.
// Every root field needs a session unless it says otherwise (skipTypeScopes: signIn).
builder.queryType({ authScopes: { staff: true } });
builder.mutationType({ authScopes: { staff: true } });
builder.subscriptionType({ authScopes: { staff: true } });

/**
 * The connection type of a node type, `<Name>Connection { edges { node cursor } pageInfo }`, shared
 * by every list of it: pass it as a connection field's connection options.
 */
export const connectionType = <T extends Parameters<typeof builder.connectionObject>[0]['type']>(type: T, name: string) =>
  builder.connectionObject({ type, name: `${name}Connection` }, { name: `${name}Edge` });
