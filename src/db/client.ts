import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient, type Prisma } from '../generated/prisma/client.js';

export type Db = PrismaClient;
export type { Prisma };

export interface Database {
  prisma: PrismaClient;
  /** The same pool, for the few hot paths written in SQL (rate limits, batch inserts). */
  pool: pg.Pool;
  url: string;
  close(): Promise<void>;
}

export function openDatabase(url: string, max = 10): Database {
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on('error', () => {}); // an idle client lost: the pool replaces it
  // Under load a transaction may wait for a connection longer than Prisma's 2 s default: waiting is
  // better than refusing. A transaction that runs past 30 s is a bug and is rolled back.
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool), transactionOptions: { maxWait: 15_000, timeout: 30_000 } });
  return {
    prisma,
    pool,
    url,
    async close() {
      await prisma.$disconnect();
      await pool.end().catch(() => {});
    },
  };
}

/** A transaction's client: what a domain function writes through inside its caller's transaction. */
export type Tx = Prisma.TransactionClient;
/** The database, or the transaction a caller is already in. */
export type DbHandle = Db | Tx;
