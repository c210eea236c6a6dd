import { GraphQLError, Kind } from 'graphql';
import { DomainError } from '../domain/errors.js';
import type { Logger } from '../lib/logger.js';
import { pageArgumentRefusal } from './pages.js';
import { asGraphQLError } from './refusal.js';
import { DATETIME_MESSAGE, DateTimeRefusal, inputRefusal } from './text-input.js';

/**
 * A domain refusal becomes a GraphQL error carrying the same `code`, `status` and field list as
 * the REST problem documents. GraphQL's own errors (syntax, validation, bad variables) pass as
 * they are. Anything else is logged and masked as `internal`: clients never see internals.
 */
export function staffErrors(log: Logger): (error: unknown) => GraphQLError {
  return (error) => {
    const at =
      error instanceof GraphQLError ? { nodes: error.nodes, source: error.source, positions: error.positions, path: error.path } : {};
    const original = error instanceof GraphQLError ? error.originalError : error;
    // A variable that is not a DateTime: named as `variables.<name>` (literals are refused in validation).
    if (original instanceof DateTimeRefusal && error instanceof GraphQLError) return dateTimeVariableRefusal(error);
    const refusal = original instanceof DomainError ? original : pageArgumentRefusal(original);
    if (refusal) return asGraphQLError(refusal, at);
    if (isGraphQLsOwn(error)) return error;
    log.error({ err: original }, 'staff GraphQL operation failed');
    return new GraphQLError('Something went wrong on our side; try again later.', { ...at, extensions: { code: 'internal', status: 500 } });
  };
}

/** An error GraphQL made itself, wrapping nothing a resolver threw. */
const isGraphQLsOwn = (error: unknown): error is GraphQLError =>
  error instanceof GraphQLError && (!error.originalError || isGraphQLsOwn(error.originalError));

/** A variable's DateTime refusal, naming the variable (and the member of it, when inside an input object). */
function dateTimeVariableRefusal(error: GraphQLError): GraphQLError {
  const node = error.nodes?.[0];
  const name = node?.kind === Kind.VARIABLE_DEFINITION ? node.variable.name.value : undefined;
  const inside = /^Variable "\$[^"]+" got invalid value .*? at "[^".[]+((?:\.|\[)[^"]*)";/.exec(error.message)?.[1] ?? '';
  const refused = inputRefusal(name ? `variables.${name}${inside.replace(/\[(\d+)\]/g, '.$1')}` : 'variables', DATETIME_MESSAGE);
  return new GraphQLError(refused.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    extensions: refused.extensions,
  });
}
