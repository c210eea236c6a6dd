import { createHash } from 'node:crypto';
import { inTransaction, type Ctx } from './context.js';

// One SQL statement of the hot read paths: in the caller's transaction when there is one, else
// straight through pg on the pool, where a statement alone is its own transaction and costs about
// a third of the CPU it costs through Prisma.

export interface Statement {
  text: string;
  values: unknown[];
}

/**
 * The rows `statement` answers. `prepare` names it, so each pooled connection plans it once (for
 * a statement of a few fixed shapes whose planning costs more than its running): `true` names it
 * by its text, a string is its name (the caller's word that the name stands for this one text, so
 * no long text is hashed per call).
 */
export async function sqlRows<T>(ctx: Ctx, statement: Statement, opts: { prepare?: boolean | string } = {}): Promise<T[]> {
  const { text, values } = statement;
  if (inTransaction(ctx)) return ctx.db.$queryRawUnsafe<T[]>(text, ...values);
  const name = typeof opts.prepare === 'string' ? opts.prepare : opts.prepare ? preparedName(text) : undefined;
  return (await ctx.svc.pool.query({ text, values, ...(name ? { name } : {}) })).rows as T[];
}

const names = new Map<string, string>();
/** A prepared statement's name per text (a few shapes per process). */
function preparedName(text: string): string {
  let name = names.get(text);
  if (!name) names.set(text, (name = `crm_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`));
  return name;
}

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
