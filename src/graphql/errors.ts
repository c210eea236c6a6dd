import { GraphQLError, Kind } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { DomainError, UNAVAILABLE_RETRY_AFTER_SECONDS, unavailableRefusal } from '../domain/errors.js';
import type { Logger } from '../lib/logger.js';
import { pageArgumentRefusal } from './pages.js';
import { asGraphQLError } from './refusal.js';
import { DATETIME_MESSAGE, DateTimeRefusal, inputRefusal } from './text-input.js';

/**
 * A domain refusal becomes a GraphQL error carrying the same `code`, `status` and field list as
 * the REST problem documents. GraphQL's own errors (syntax, validation, bad variables) pass as
 * they are. The database's absence (a connection cut, src/domain/errors.ts) is `unavailable`, as
 * on REST. Anything else is logged and masked as `internal`: clients never see internals.
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
    const unavailable = unavailableRefusal(original);
    if (unavailable) {
      log.warn(
        { code: unavailable.code, reason: original instanceof Error ? original.message : String(original) },
        'staff GraphQL operation refused: database unavailable',
      );
      return asGraphQLError(unavailable, at);
    }
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

/**
 * Over HTTP, an answer whose every error is `unavailable` is 503, and any answer with one carries
 * Retry-After, as a REST 503 does: clients and proxies that retry on 503 send it again. The
 * errors themselves are the same over graphql-ws.
 */
export function unavailableOverHttp(): Plugin {
  return {
    onResultProcess({ result, setResult }) {
      // One operation per request (no batching); a stream's errors travel in its events.
      if (Array.isArray(result) || Symbol.asyncIterator in result) return;
      const codes = (result.errors ?? []).map((e) => e.extensions?.code);
      if (!codes.includes('unavailable')) return;
      const headers = { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_SECONDS) };
      const status = codes.every((c) => c === 'unavailable') ? { status: 503 } : {};
      // Yoga reads extensions.http for the answer's status and headers, and leaves it out of the body.
      setResult({ ...result, extensions: { ...result.extensions, http: { headers, ...status } } });
    },
  };
}
