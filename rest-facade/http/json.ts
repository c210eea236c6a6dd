import { DomainError, invalidField } from '../../src/domain/errors.js';
import { textProblem, utf8Text } from '../../src/lib/text.js';

// Request bodies as JSON: UTF-8 only, nested at most MAX_JSON_DEPTH deep, and every string (and
// member name) text that PostgreSQL can keep as sent. Walked without recursion, so no body can
// exhaust the stack.

export const MAX_JSON_DEPTH = 32;

const malformed = (message: string) =>
  new DomainError(400, 'malformed_json', 'The body is not readable JSON', `The request body ${message}.`, [{ field: 'body', message }]);

/** 415 for a body declared in a charset other than UTF-8 (JSON is UTF-8: RFC 8259). */
export function checkJsonCharset(contentType: string): void {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1];
  if (charset && !/^utf-?8$/i.test(charset))
    throw new DomainError(415, 'unsupported_media_type', 'Unsupported media type', `Send the body as UTF-8 JSON, not ${charset}.`, [
      { field: 'Content-Type', message: 'charset must be utf-8' },
    ]);
}

/** The body parsed, or a refusal naming what makes it unreadable or unkeepable. */
export function parseJsonBody(raw: Buffer): unknown {
  const text = utf8Text(raw);
  if (text === undefined) throw malformed('is not UTF-8 text');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw malformed('could not be parsed as JSON');
  }
  checkValues(body);
  return body;
}

/** Depth first and in order, so the first bad member of the body is the one named. */
function checkValues(body: unknown): void {
  const stack: { value: unknown; path: string[] }[] = [{ value: body, path: [] }];
  while (stack.length) {
    const { value, path } = stack.pop()!;
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) throw invalidField(path.join('.') || 'body', problem);
      continue;
    }
    if (!value || typeof value !== 'object') continue;
    if (path.length >= MAX_JSON_DEPTH) throw invalidField('body', `must not nest arrays and objects more than ${MAX_JSON_DEPTH} deep`);
    const members = Object.entries(value);
    for (const [key] of members) {
      const problem = key === '__proto__' ? 'is not an allowed member name' : textProblem(key);
      if (problem) throw invalidField([...path, printable(key)].join('.'), problem);
    }
    for (let i = members.length - 1; i >= 0; i--) stack.push({ value: members[i]![1], path: [...path, members[i]![0]] });
  }
}

/** A member name fit to be echoed back in a problem document. */
const printable = (key: string) => key.toWellFormed().replaceAll('\u0000', '');
