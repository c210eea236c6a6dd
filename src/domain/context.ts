import type { PoolClient } from 'pg';
import type { DbHandle, Tx } from '../db/client.js';
import { inSqlTransaction } from '../db/sql.js';
import type { Clock } from '../lib/clock.js';
import type { AppMode, StaffUser } from '../generated/prisma/client.js';
import type { Services } from './services.js';

/** What the deployment gives every request (declared in services.ts, built by openServices). */
export type { Services };

/** One app-mode: every tenant query is scoped by `appModeId`. */
export interface AppScope {
  appModeId: string;
  appId: string;
  mode: 'live' | 'test';
  settings: AppMode;
}

/** A signed-in user of an app (guest surface). */
export interface GuestCaller extends AppScope {
  kind: 'guest';
  externalId: string;
  sdk: string | undefined;
}

/** An app's backend, by one of its server keys (server surface). */
export interface ServerCaller extends AppScope {
  kind: 'server';
  serverKeyId: string;
}

/** A signed-in staff user (staff GraphQL). */
export interface StaffCaller {
  kind: 'staff';
  staffUser: StaffUser;
  sessionId: string;
}

/** Someone not signed in: the public surface, or a staff user signing in. */
export interface VisitorCaller {
  kind: 'visitor';
  address: string;
}

/** The service itself: durable process steps, sweeps, and operators through the `crm` CLI. */
export interface SystemCaller {
  kind: 'system';
  name: string;
}

export type Caller = GuestCaller | ServerCaller | StaffCaller | VisitorCaller | SystemCaller;
/** The callers that speak for one app-mode: the scope is the caller's own. */
export type AppCaller = GuestCaller | ServerCaller;

/**
 * What every domain function takes first: who asks, the database handle to use (the database, or
 * the transaction a caller is already in), the clock, and the deployment's services.
 */
export interface Ctx<C extends Caller = Caller> {
  readonly caller: C;
  readonly db: DbHandle;
  readonly clock: Clock;
  readonly svc: Services;
  /**
   * An HTTP request's: when its answer has gone. The changes it emits reach this process's live
   * subscribers after that (see OutboxDispatcher.holdFor), so the change's own answer is not kept
   * waiting behind its fan-out.
   */
  readonly answered?: () => Promise<void>;
  /** In a transaction of raw SQL only (sqlTransaction): its connection, which every statement of `rows`, `one` and `exec` uses. */
  readonly sqlClient?: PoolClient;
}

/** A context inside a transaction: what it writes commits or rolls back with its caller's work. */
export interface TxCtx<C extends Caller = Caller> extends Ctx<C> {
  readonly db: Tx;
}

/**
 * Whether the context is in a transaction. (A transaction's client has a `$transaction` member too,
 * so only the handle itself tells: the database's own client is never one.)
 */
export const inTransaction = (ctx: Ctx): boolean => ctx.db !== ctx.svc.db;

/** A context on the database itself, for one caller (of an HTTP request: when its answer has gone). */
export const contextOf = <C extends Caller>(svc: Services, caller: C, answered?: () => Promise<void>): Ctx<C> =>
  answered ? { caller, db: svc.db, clock: svc.clock, svc, answered } : { caller, db: svc.db, clock: svc.clock, svc };

/** The service's own context, for process steps, sweeps and operators' commands. */
export const systemContext = (svc: Services, name: string): Ctx<SystemCaller> => contextOf(svc, { kind: 'system', name });

/**
 * Runs `fn` in a transaction: the context's own when it is in one already, so two domain
 * functions share it and neither needs to undo the other's work by hand.
 */
export function transaction<C extends Caller, T>(
  ctx: Ctx<C>,
  fn: (tx: TxCtx<C>) => Promise<T>,
  opts?: { isolationLevel?: 'RepeatableRead' | 'Serializable' },
): Promise<T> {
  return inTransaction(ctx) ? fn(ctx as TxCtx<C>) : ctx.svc.db.$transaction((tx) => fn({ ...ctx, db: tx }), opts);
}

/** The Prisma client of a transaction of raw SQL only: any call of it is a mistake, said at once (it would run outside the transaction). */
const rawOnly = new Proxy({} as Tx, {
  get(_, name) {
    if (typeof name === 'symbol' || name === 'then') return undefined;
    throw new Error(`a transaction of raw SQL has no Prisma client: db.${name} was called in one`);
  },
});

/**
 * Runs `fn` in a transaction whose work is raw SQL only (`rows`, `one`, `exec`, and the domain's
 * helpers built on them: `lock`, `emit`), straight through pg on one connection: for hot paths,
 * where a Prisma interactive transaction costs several times the CPU. The context's own
 * transaction when it is in one already.
 */
export function sqlTransaction<C extends Caller, T>(ctx: Ctx<C>, fn: (tx: TxCtx<C>) => Promise<T>): Promise<T> {
  if (inTransaction(ctx)) return fn(ctx as TxCtx<C>);
  return inSqlTransaction(ctx.svc.pool, (sqlClient) => fn({ ...ctx, db: rawOnly, sqlClient }));
}

export const scopeOf = (mode: AppMode): AppScope => ({ appModeId: mode.id, appId: mode.appId, mode: mode.mode, settings: mode });
