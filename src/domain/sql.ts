// A PostgreSQL array literal for a statement's values (statements run through src/db/sql.ts).

/**
 * A PostgreSQL array literal of texts. pg writes one too, but escapes every element with two
 * regular expressions and joins them one by one: for the 3,000 values of a batch that showed in
 * the server's profile.
 */
export function arrayLiteral(texts: string[]): string {
  if (!texts.length) return '{}';
  const escaped = texts.some((t) => NEEDS_ESCAPE.test(t)) ? texts.map((t) => t.replace(ESCAPED, '\\$&')) : texts;
  return `{"${escaped.join('","')}"}`;
}
const NEEDS_ESCAPE = /["\\]/;
const ESCAPED = /["\\]/g;
