import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Db, DbHandle } from './client.js';
import { isConnectionLost } from './lost-connection.js';

// The one way a raw SQL statement leaves the code. A statement is written with `sql`...``, its values
// as parameters (never in its text), and composed of fragments (a nested sql`...`, `join`, `raw`).
// It runs where its caller is: in the caller's transaction when there is one (through Prisma's
// transaction client), else straight through pg on the pool, where a statement alone is its own
// transaction and costs about a third of the CPU it costs through Prisma. Either way the rows have
// pg's types: bigint and numeric as strings, timestamps as Date, json parsed, bytea as Buffer (cast
// in SQL, `::int`, for a number).

/** A statement: its text with `$1`… placeholders and their values. */
export interface Statement {
  readonly text: string;
  readonly values: readonly unknown[];
}

/** A statement or fragment built by `sql`: values stay apart from the text however fragments nest. */
export class Sql implements Statement {
  readonly strings: readonly string[];
  readonly values: readonly unknown[];
  constructor(strings: readonly string[], values: readonly unknown[]) {
    const s = [strings[0]!];
    const v: unknown[] = [];
    values.forEach((value, i) => {
      if (value instanceof Sql) {
        s[s.length - 1] += value.strings[0]!;
        value.values.forEach((inner, j) => (v.push(inner), s.push(value.strings[j + 1]!)));
        s[s.length - 1] += strings[i + 1]!;
      } else {
        v.push(value);
        s.push(strings[i + 1]!);
      }
    });
    this.strings = s;
    this.values = v;
  }
  get text(): string {
    return this.strings.reduce((text, part, i) => `${text}$${i}${part}`);
  }
}

/** A statement or fragment: `${value}` is a parameter, `${sql`...`}`, `${join(...)}` and `${raw(...)}` are text. */
export const sql = (strings: TemplateStringsArray, ...values: unknown[]): Sql => new Sql(strings, values);
/** Values or fragments one after another, `separator` between them (a list of parameters, of conditions). */
export const join = (items: readonly unknown[], separator = ', '): Sql =>
  new Sql(items.length ? ['', ...Array<string>(items.length - 1).fill(separator), ''] : [''], items);
/** Text taken as it is: only for what the code itself writes (a table or column name), never a value. */
export const raw = (text: string): Sql => new Sql([text], []);
export const empty = raw('');

/** What a statement runs on: a domain context (its transaction when it is in one), or the services (the pool). */
export type SqlTarget =
  | { readonly db: DbHandle; readonly svc: { readonly db: Db; readonly pool: pg.Pool }; readonly sqlClient?: pg.PoolClient }
  | { readonly pool: pg.Pool };

export interface RunOptions {
  /**
   * Names the statement, so each pooled connection plans it once (for a statement of a few fixed
   * shapes whose planning costs more than its running): `true` names it by its text, a string is
   * its name (the caller's word that the name stands for this one text, so no long text is hashed
   * per call). A statement in a transaction is not named.
   */
  prepare?: boolean | string;
}

/** The rows `statement` answers. */
export async function rows<T>(on: SqlTarget, statement: Statement, opts: RunOptions = {}): Promise<T[]> {
  const client = clientOf(on);
  if (client) return (await client.query(query(statement, opts))).rows as T[];
  const tx = transactionOf(on);
  if (tx) return (await tx.$queryRawUnsafe<Record<string, unknown>[]>(statement.text, ...statement.values)).map(asPg) as T[];
  return (await poolOf(on).query(query(statement, opts))).rows as T[];
}

/** The first row `statement` answers, if any. */
export async function one<T>(on: SqlTarget, statement: Statement, opts: RunOptions = {}): Promise<T | undefined> {
  return (await rows<T>(on, statement, opts))[0];
}

/** Runs `statement`: the number of rows it wrote (or answered). */
export async function exec(on: SqlTarget, statement: Statement, opts: RunOptions = {}): Promise<number> {
  const client = clientOf(on);
  if (client) return (await client.query(query(statement, opts))).rowCount ?? 0;
  const tx = transactionOf(on);
  if (tx) return tx.$executeRawUnsafe(statement.text, ...statement.values);
  return (await poolOf(on).query(query(statement, opts))).rowCount ?? 0;
}

/** The pool itself, for src/db and the blob store: everything else runs statements through `rows`, `one` and `exec`. */
export const poolOf = (on: SqlTarget): pg.Pool => ('svc' in on ? on.svc.pool : on.pool);

/** The caller's transaction of raw SQL (sqlTransaction), when it is in one: one pooled connection. */
const clientOf = (on: SqlTarget): pg.PoolClient | undefined => ('sqlClient' in on ? on.sqlClient : undefined);

/**
 * Runs `fn` in a transaction on one connection of `pool`, its statements straight through pg: for
 * a hot path of raw SQL only, where a Prisma interactive transaction costs several times the CPU.
 * Committed when `fn` resolves, rolled back when it throws; a connection that was cut is not pooled again.
 */
export async function inSqlTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // A connection cut while checked out would otherwise be an unhandled error; the query in flight fails instead.
  const cut = () => {};
  client.on('error', cut);
  let failed: Error | undefined;
  try {
    await client.query('BEGIN');
    const value = await fn(client);
    await client.query('COMMIT');
    return value;
  } catch (err) {
    failed = err instanceof Error ? err : new Error(String(err));
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.off('error', cut);
    client.release(failed && isConnectionLost(failed) ? failed : undefined);
  }
}

/** The caller's transaction, when it is in one. (A transaction's client is never the database's own.) */
const transactionOf = (on: SqlTarget): DbHandle | undefined => ('svc' in on && on.db !== on.svc.db ? on.db : undefined);

function query(statement: Statement, opts: RunOptions): pg.QueryConfig {
  const { text } = statement;
  // A time as UTC, as Prisma sends it (pg would send local time, which a `timestamp` column takes as UTC).
  const values = statement.values.some((v) => v instanceof Date)
    ? statement.values.map((v) => (v instanceof Date ? v.toISOString() : v))
    : (statement.values as unknown[]);
  const name = typeof opts.prepare === 'string' ? opts.prepare : opts.prepare ? preparedName(text) : undefined;
  return name ? { text, values, name, types: TYPES } : { text, values, types: TYPES };
}

// A `timestamp` column holds UTC (Prisma's DateTime): read as such whatever the process's time zone.
const TIMESTAMPTZ = pg.types.getTypeParser(pg.types.builtins.TIMESTAMPTZ) as (text: string) => Date;
const TIMESTAMP = (text: string) => (text.endsWith('infinity') ? TIMESTAMPTZ(text) : TIMESTAMPTZ(`${text}+00`));
const TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.TIMESTAMP ? TIMESTAMP : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

const names = new Map<string, string>();
/** A prepared statement's name per text (a few shapes per process). */
function preparedName(text: string): string {
  let name = names.get(text);
  if (!name) names.set(text, (name = `crm_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`));
  return name;
}

/** A row read through Prisma with pg's types. */
function asPg(row: Record<string, unknown>): Record<string, unknown> {
  for (const key in row) {
    const value = row[key];
    if (value !== null && typeof value === 'object' && !(value instanceof Date)) row[key] = pgValue(value);
    else if (typeof value === 'bigint') row[key] = value.toString();
  }
  return row;
}
function pgValue(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value === null || typeof value !== 'object' || value instanceof Date) return value;
  if (Array.isArray(value)) return value.map(pgValue);
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  if (isDecimal(value)) return value.toFixed();
  return value; // json: as parsed
}
const isDecimal = (value: object): value is { toFixed(): string } =>
  value.constructor?.name.startsWith('Decimal') === true && typeof (value as { toFixed?: unknown }).toFixed === 'function';
