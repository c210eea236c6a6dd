import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client.js';

export type Db = PrismaClient;
export type { Prisma } from '../generated/prisma/client.js';

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
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
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
