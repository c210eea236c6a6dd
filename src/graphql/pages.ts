import SchemaBuilder, { BasePlugin, PothosValidationError, type PothosOutputFieldConfig, type SchemaTypes } from '@pothos/core';
import type { GraphQLFieldResolver } from 'graphql';
import { DomainError } from '../domain/errors.js';
import { cursorRefusal, pageSize, pageSizeRefusal, type Page } from '../domain/paging.js';

// One page type serves every staff list: a Relay connection, read forwards.
//
//   members(workspaceId: $w, first: 50, after: $cursor) { edges { node { … } cursor } pageInfo { hasNextPage endCursor } }
//
// `first` is 1 to MAX_PAGE (DEFAULT_PAGE when left out) and refused beyond, never cut short; the
// next page starts after `endCursor`. A cursor is a keyset position, never an offset, so rows
// written meanwhile neither repeat nor go missing. Lists the domain reads arrive as its Page (the
// cursor carries the row's sort key) and become connections with connectionOf. Plain lists are
// prismaConnection / relatedConnection: the cursor is the row's unique key, each list's order ends
// in a unique column, and Prisma reads past that row's place in the order. It finds the place
// through the row, so the page after a row deleted since it was listed comes back empty.

/** The relay plugin's connection fields without their backward arguments (last, before), and with `first` checked. */
class ForwardPagesPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override onOutputFieldConfig(fieldConfig: PothosOutputFieldConfig<Types>): PothosOutputFieldConfig<Types> {
    const { last, before, ...args } = fieldConfig.args;
    if (!last || !before || !args.first || !args.after) return fieldConfig;
    return { ...fieldConfig, args, extensions: { ...fieldConfig.extensions, forwardPages: true } };
  }

  override wrapResolve(resolver: GraphQLFieldResolver<unknown, Types['Context'], object>, fieldConfig: PothosOutputFieldConfig<Types>) {
    if (!fieldConfig.extensions?.forwardPages) return resolver;
    return (parent: unknown, args: { first?: number | null }, ctx: Types['Context'], info: Parameters<typeof resolver>[3]) => {
      pageSize(args.first);
      return resolver(parent, args, ctx, info);
    };
  }
}

const pluginName = 'forwardPages';

declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      forwardPages: ForwardPagesPlugin<Types>;
    }
  }
}

SchemaBuilder.registerPlugin(pluginName, ForwardPagesPlugin);
export default pluginName;

/**
 * Pothos checks the page arguments of a planned list itself, while planning the query of the
 * field above it (a negative `first`, an `after` it cannot read): the domain's refusals instead.
 */
export function pageArgumentRefusal(error: unknown): DomainError | undefined {
  if (!(error instanceof PothosValidationError)) return undefined;
  if (error.message.startsWith('Argument "first"')) return pageSizeRefusal();
  if (/cursor/i.test(error.message)) return cursorRefusal('after');
  return undefined;
}

/**
 * A page of a list the domain reads backwards in time, whose cursor it calls `before`: here it is
 * the connection's `after`, and a refusal of the cursor says so.
 */
export async function olderPage<T>(read: Promise<T>): Promise<T> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof DomainError && err.errors.some((e) => e.field === 'before')) throw cursorRefusal('after');
    throw err;
  }
}

/**
 * A page the domain read, as a connection; `after` is the cursor it was read after. The next page
 * starts at the domain's own `nextCursor` when there is one.
 */
export function connectionOf<T>(page: Page<T>, after: string | null | undefined) {
  return {
    edges: page.items.map((node, i) => ({ node, cursor: page.cursors[i]! })),
    pageInfo: {
      hasNextPage: page.nextCursor !== null,
      hasPreviousPage: !!after,
      startCursor: page.cursors[0] ?? null,
      endCursor: page.nextCursor ?? page.cursors[page.cursors.length - 1] ?? null,
    },
  };
}
