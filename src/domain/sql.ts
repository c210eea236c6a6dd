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
 * a statement of a few fixed shapes whose planning costs more than its running).
 */
export async function sqlRows<T>(ctx: Ctx, statement: Statement, opts: { prepare?: boolean } = {}): Promise<T[]> {
  const { text, values } = statement;
  if (inTransaction(ctx)) return ctx.db.$queryRawUnsafe<T[]>(text, ...values);
  const name = opts.prepare ? preparedName(text) : undefined;
  return (await ctx.svc.pool.query({ text, values, ...(name ? { name } : {}) })).rows as T[];
}

const names = new Map<string, string>();
/** A prepared statement's name per text (a few shapes per process). */
function preparedName(text: string): string {
  let name = names.get(text);
  if (!name) names.set(text, (name = `crm_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`));
  return name;
}
