import { GraphQLError, type GraphQLErrorOptions } from 'graphql';
import type { DomainError } from '../domain/errors.js';

// A domain refusal in GraphQL's own error format: its code, status, title and fields in extensions.

/** A domain refusal as a GraphQL error, for refusals made outside any resolver too. */
export function asGraphQLError(
  original: DomainError,
  at: Pick<GraphQLErrorOptions, 'nodes' | 'source' | 'positions' | 'path'> = {},
): GraphQLError {
  return new GraphQLError(original.detail, {
    ...at,
    extensions: {
      ...original.data,
      code: original.code,
      status: original.status,
      title: original.title,
      errors: original.errors,
      ...(original.headers['Retry-After'] ? { retryAfter: Number(original.headers['Retry-After']) } : {}),
    },
  });
}
