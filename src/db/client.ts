import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient, type Prisma } from '../generated/prisma/client.js';

export type Db = PrismaClient;
export type { Prisma };

export interface Database {
  prisma: PrismaClient;
  /** The same pool, for the few hot paths written in SQL (rate limits, batch inserts). */
  pool: pg.Pool;
  /**
   * A few connections apart for help-center searches, which anyone may send: each statement on them
   * is stopped after `statementTimeoutMs`, and a search waits at most that long for one. However many
   * searches come, they never take a connection of the main pool.
   */
  searchPool: pg.Pool;
  url: string;
  close(): Promise<void>;
}

/** The search pool's size and its statements' bound. */
export interface SearchPoolOptions {
  max: number;
  statementTimeoutMs: number;
}

export function openDatabase(url: string, max = 10, search: SearchPoolOptions = { max: 4, statementTimeoutMs: 2_000 }): Database {
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on('error', () => {}); // an idle client lost: the pool replaces it
  const searchPool = new pg.Pool({
    connectionString: url,
    max: search.max,
    statement_timeout: search.statementTimeoutMs,
    connectionTimeoutMillis: search.statementTimeoutMs,
    // Idle ones go: searches come in bursts.
    idleTimeoutMillis: 10_000,
  });
  searchPool.on('error', () => {});
  // Under load a transaction may wait for a connection longer than Prisma's 2 s default: waiting is
  // better than refusing. A transaction that runs past 30 s is a bug and is rolled back.
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool), transactionOptions: { maxWait: 15_000, timeout: 30_000 } });
  return {
    prisma,
    pool,
    searchPool,
    url,
    async close() {
      await prisma.$disconnect();
      await pool.end().catch(() => {});
      await searchPool.end().catch(() => {});
    },
  };
}

/** A transaction's client: what a domain function writes through inside its caller's transaction. */
export type Tx = Prisma.TransactionClient;
/** The database, or the transaction a caller is already in. */
export type DbHandle = Db | Tx;
