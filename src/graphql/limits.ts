import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import { createComplexityRule } from '@pothos/plugin-complexity';
import { GraphQLError, Lexer, Source, TokenKind, validate, type DocumentNode, type ExecutionArgs, type ValidationContext } from 'graphql';
import { createLRUCache, type Plugin } from 'graphql-yoga';
import { DomainError } from '../domain/errors.js';
import { DEFAULT_PAGE } from '../domain/paging.js';
import { asGraphQLError } from './refusal.js';

// What one staff operation may ask for. Everything but the cost is checked before the session is
// even looked up (parse, validate); the cost needs the variables, so it is checked right before
// execution, with introspection: no resolver runs for a refused operation.

/** Lexical tokens in a document: bounds the work of parsing and validating it. */
export const MAX_TOKENS = 5_000;
/** Brackets open at once in the document text: graphql-js parses recursively and would overflow its stack. */
export const MAX_NESTING = 40;
/** Nested selections (introspection's __schema aside, whose shape is fixed). */
export const MAX_DEPTH = 12;
export const MAX_ALIASES = 30;
export const MAX_DIRECTIVES = 20;
/**
 * Each field costs 1, and a field's selections cost its multiplier times over: the page size
 * asked for (`first`) on connections, 10 on other lists. One contacts page of 200 with 20 events
 * each costs 25,000 to 40,000 by the fields selected; with 200 events each, 240,000 and more.
 */
export const MAX_COST = 50_000;

/**
 * A connection's cost (every connection field's, builder.ts): its edges count as many times as the
 * page size asked for. Never below nothing: a refused negative page must not pay for a sibling.
 */
export const costByPageSize = (args: { first?: number | null }) => ({ field: 1, multiplier: Math.max(args.first ?? DEFAULT_PAGE, 0) });
/** A page's edges, already multiplied by the page size. */
export const PAGE_ITEMS_COST = { field: 1, multiplier: 1 };

/** A refusal by these limits: 400, with the code docs/api.md lists. */
const refusal = (code: string, detail: string) => {
  const error = asGraphQLError(new DomainError(400, code, 'Query refused', detail));
  // Over HTTP as yoga answers its own validation errors: 400 to clients accepting
  // application/graphql-response+json, 200 to application/json ones. Yoga drops `http` from the answer.
  error.extensions.http = { spec: true, status: 400 };
  return error;
};

const reportAs = (code: string) => ({
  // The armor rules would throw a bare syntax error; report one with our code instead.
  propagateOnRejection: false,
  onReject: [
    (ctx: ValidationContext | null, err: GraphQLError) => ctx?.reportError(refusal(code, err.message.replace(/^Syntax Error: /, ''))),
  ],
});

/** How deep brackets nest in the text, in one flat pass over the tokens (stopping past MAX_NESTING or MAX_TOKENS). */
function nestingOf(source: string | Source): number {
  const lexer = new Lexer(typeof source === 'string' ? new Source(source) : source);
  let open = 0;
  let deepest = 0;
  try {
    for (
      let n = 0, token = lexer.advance();
      token.kind !== TokenKind.EOF && n < MAX_TOKENS && deepest <= MAX_NESTING;
      n++, token = lexer.advance()
    ) {
      if (token.kind === TokenKind.BRACE_L || token.kind === TokenKind.BRACKET_L || token.kind === TokenKind.PAREN_L)
        deepest = Math.max(deepest, ++open);
      else if (token.kind === TokenKind.BRACE_R || token.kind === TokenKind.BRACKET_R || token.kind === TokenKind.PAREN_R) open--;
    }
  } catch {
    // A syntax error: left to the parser, which says where.
  }
  return deepest;
}

/** The cost of the operation to run, with its variables. */
function costOf(args: ExecutionArgs): number {
  let cost = 0;
  const rule = createComplexityRule({
    context: args.contextValue as object,
    variableValues: (args.variableValues ?? {}) as Record<string, unknown>,
    operationName: args.operationName,
    onResult: (result) => (cost = Math.max(cost, result.complexity)),
  });
  validate(args.schema, args.document, [rule]);
  return cost;
}

/** The refusal for an operation about to run, if any. */
function refusalBeforeRunning(args: ExecutionArgs): GraphQLError | undefined {
  // Introspection (__schema, __type) is answered with or without a session: the schema is the same
  // for every caller and published (schema.graphql), and GraphiQL reads it before anyone signs in.
  // Every field that reads or changes data asks for its session itself (builder.ts, scope-auth).
  const cost = costOf(args);
  if (cost > MAX_COST)
    return refusal('query_too_complex', `The query costs ${cost}, more than ${MAX_COST}: ask for smaller pages or fewer fields.`);
  return undefined;
}

/** Query texts longer than this are parsed again each time rather than kept as cache keys. */
const CACHED_QUERY_CHARS = 20_000;

/**
 * Yoga's parse caches, keyed by the query text: kept only for short texts, or a client could pin
 * a thousand refused (or comment-padded) megabyte texts in memory.
 */
export function staffParseCaches() {
  const keepingShortTexts = <T extends object>() => {
    const cache = createLRUCache<T>();
    return {
      get: (text: string) => cache.get(text),
      set: (text: string, value: T) => {
        if (text.length <= CACHED_QUERY_CHARS) cache.set(text, value);
      },
    };
  };
  return { documentCache: keepingShortTexts<DocumentNode>(), errorCache: keepingShortTexts<object>() };
}

/** The limits, as envelop plugins: yoga runs them for HTTP, and graphql-ws through yoga's pipeline. */
export function staffLimits(): Plugin[] {
  return [
    maxTokensPlugin({
      n: MAX_TOKENS,
      onReject: [
        () => {
          throw refusal('too_many_tokens', `The query has more than ${MAX_TOKENS} tokens.`);
        },
      ],
    }),
    {
      onParse: ({ parseFn, setParseFn }) =>
        setParseFn((source, options) => {
          if (nestingOf(source) > MAX_NESTING) throw refusal('query_too_deep', `Brackets nest more than ${MAX_NESTING} deep.`);
          return parseFn(source, options);
        }),
    },
    maxDepthPlugin({ n: MAX_DEPTH, ...reportAs('query_too_deep') }),
    maxAliasesPlugin({ n: MAX_ALIASES, ...reportAs('too_many_aliases') }),
    maxDirectivesPlugin({ n: MAX_DIRECTIVES, ...reportAs('too_many_directives') }),
    {
      onExecute: ({ args, setResultAndStopExecution }) => {
        const refused = refusalBeforeRunning(args);
        if (refused) setResultAndStopExecution({ errors: [refused] });
      },
      onSubscribe: ({ args, setResultAndStopExecution }) => {
        const refused = refusalBeforeRunning(args);
        if (refused) setResultAndStopExecution({ errors: [refused] });
      },
    },
  ];
}
