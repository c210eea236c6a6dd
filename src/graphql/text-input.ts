import {
  GraphQLError,
  Kind,
  getNamedType,
  valueFromASTUntyped,
  visit,
  type ASTNode,
  type ASTVisitor,
  type DocumentNode,
  type ValidationContext,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { invalidField } from '../domain/errors.js';
import { asGraphQLError } from './refusal.js';

// Text PostgreSQL cannot keep is refused once, as the document is parsed: before the session is
// looked up and before any resolver runs, over HTTP and graphql-ws alike. A NUL in a string
// literal or in a variable answers 400 / invalid_request naming the argument or the variable
// (a lone surrogate cannot arrive: the JSON and WebSocket readers turn it into U+FFFD).

/** A refusal of one input, as yoga answers its own validation errors (400 to graphql-response+json clients). */
export function inputRefusal(field: string, message: string): GraphQLError {
  const error = asGraphQLError(invalidField(field, message));
  error.extensions.http = { spec: true, status: 400 };
  return error;
}

const NUL_MESSAGE = 'must not contain the NUL character (\\u0000)';

/** Where in the document a value sits: its argument (and input field) names, `a.b.c`. */
function placeOf(ancestors: readonly (ASTNode | readonly ASTNode[])[]): string {
  const names: string[] = [];
  for (const a of ancestors)
    if (!Array.isArray(a) && ((a as ASTNode).kind === Kind.ARGUMENT || (a as ASTNode).kind === Kind.OBJECT_FIELD))
      names.push((a as { name: { value: string } }).name.value);
  return names.join('.') || 'query';
}

/** The place of the first string literal with a NUL in it, if any. */
function nulInDocument(document: DocumentNode): string | undefined {
  let found: string | undefined;
  visit(document, {
    StringValue(node, _key, parent, _path, ancestors) {
      if (found === undefined && node.value.includes('\u0000')) found = placeOf(parent ? [...ancestors, parent] : ancestors);
    },
  });
  return found;
}

/** The place of the first member name or string with a NUL in the variables, if any (walked without recursion). */
export function nulInValue(value: unknown, root: string): string | undefined {
  const stack: { value: unknown; path: string }[] = [{ value, path: root }];
  while (stack.length) {
    const { value: v, path } = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return path;
    } else if (v && typeof v === 'object') {
      for (const [key, member] of Object.entries(v)) {
        const at = `${path}.${key.replaceAll('\u0000', '')}`;
        if (key.includes('\u0000')) return at;
        stack.push({ value: member, path: at });
      }
    }
  }
  return undefined;
}

/** The check, as an envelop plugin: run by yoga for HTTP, and by graphql-ws through yoga's pipeline (ws.ts). */
export function refuseUnkeepableText(): Plugin {
  return {
    onParse:
      ({ context }) =>
      ({ result, replaceParseResult }) => {
        if (result instanceof Error || !result) return;
        const inDocument = nulInDocument(result);
        if (inDocument) return replaceParseResult(inputRefusal(inDocument, NUL_MESSAGE));
        const variables = (context as { params?: { variables?: unknown } }).params?.variables;
        const inVariables = nulInValue(variables, 'variables');
        if (inVariables) replaceParseResult(inputRefusal(inVariables, NUL_MESSAGE));
      },
    // A DateTime literal that is not one: refused naming its argument. graphql-js would report the
    // scalar's own error without saying where; that one is dropped for this.
    onValidate: ({ addValidationRule }) => {
      addValidationRule(dateTimeLiterals);
      return ({ result, setResult }) => {
        if (result.some((e) => e instanceof DateTimeRefusal)) setResult(result.filter((e) => !(e instanceof DateTimeRefusal)));
      };
    },
  };
}

function dateTimeLiterals(context: ValidationContext): ASTVisitor {
  // graphql-js hands the parent apart from the ancestors above it.
  const check = (node: ASTNode, parent: ASTNode | readonly ASTNode[] | undefined, ancestors: readonly (ASTNode | readonly ASTNode[])[]) => {
    if (getNamedType(context.getInputType())?.name !== 'DateTime') return;
    try {
      parseDateTime(valueFromASTUntyped(node as Parameters<typeof valueFromASTUntyped>[0]));
    } catch {
      const error = inputRefusal(placeOf(parent ? [...ancestors, parent] : ancestors), DATETIME_MESSAGE);
      context.reportError(new GraphQLError(error.message, { nodes: node, extensions: error.extensions }));
    }
  };
  return {
    StringValue: (node, _k, parent, _path, ancestors) => check(node, parent, ancestors),
    IntValue: (node, _k, parent, _path, ancestors) => check(node, parent, ancestors),
    FloatValue: (node, _k, parent, _path, ancestors) => check(node, parent, ancestors),
    BooleanValue: (node, _k, parent, _path, ancestors) => check(node, parent, ancestors),
    EnumValue: (node, _k, parent, _path, ancestors) => check(node, parent, ancestors),
  };
}

// DateTime: RFC 3339 date-time, a real calendar date, offset Z or ±hh:mm (fractions of a second kept to the millisecond).
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-](\d{2}):(\d{2}))$/;

/** The refusal of a value that is not a DateTime; errors.ts names the argument or variable it came in. */
export class DateTimeRefusal extends GraphQLError {}

export const DATETIME_MESSAGE = 'must be an RFC 3339 date-time with a real calendar date, such as 2026-02-28T09:30:00Z';

/** A DateTime as sent, strictly: an RFC 3339 date-time with a real calendar date, or the refusal. */
export function parseDateTime(value: unknown): Date {
  const m = typeof value === 'string' ? RFC3339.exec(value) : null;
  if (m) {
    const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
    const offsetHours = m[9] === undefined ? 0 : Number(m[9]);
    const offsetMinutes = m[10] === undefined ? 0 : Number(m[10]);
    const calendar = new Date(0);
    calendar.setUTCFullYear(year, month - 1, day);
    const realDate =
      month >= 1 &&
      month <= 12 &&
      calendar.getUTCFullYear() === year &&
      calendar.getUTCMonth() === month - 1 &&
      calendar.getUTCDate() === day;
    if (realDate && hour <= 23 && minute <= 59 && second <= 59 && offsetHours <= 23 && offsetMinutes <= 59) {
      const date = new Date(value as string);
      if (!Number.isNaN(date.getTime())) return date;
    }
  }
  throw new DateTimeRefusal(`DateTime ${DATETIME_MESSAGE}`);
}
