import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/client.js';
import { exec, join, one, raw, rows, sql, type SqlTarget } from '../src/db/sql.js';
import { transaction, type Ctx, type GuestCaller } from '../src/domain/context.js';
import { storeAnswer } from '../src/domain/inapp/record.js';
import { createTestDatabase } from './support/db.js';
import { serviceSources } from './support/sources.js';

// Every raw statement leaves through src/db/sql.ts (rows, one, exec): in the caller's transaction
// when there is one, else on the pool. Nothing else runs raw SQL or touches the pool but src/db
// itself (the helper, the outbox listener, migrations).

describe('raw SQL', () => {
  it('runs only through the helper: no Prisma raw call or pool query outside src/db', () => {
    const offenders = serviceSources()
      .filter((f) => !f.path.startsWith('src/db/'))
      .flatMap((f) =>
        f.text
          .split('\n')
          .flatMap((line, i) => (/\$(queryRaw|executeRaw)|pool\.(query|connect)\b/.test(line) ? [`${f.path}:${i + 1}`] : [])),
      );
    expect(offenders).toEqual([]);
  });

  it('keeps values apart from the text however fragments nest', () => {
    const where = sql`a = ${1} AND b = ANY(${['x', 'y']}::text[])`;
    const statement = sql`SELECT ${raw('c')} FROM t WHERE ${where} AND d IN (${join([2, 3])}) LIMIT ${4}`;
    expect(statement.text).toBe('SELECT c FROM t WHERE a = $1 AND b = ANY($2::text[]) AND d IN ($3, $4) LIMIT $5');
    expect(statement.values).toEqual([1, ['x', 'y'], 2, 3, 4]);
    expect(join([sql`x = ${5}`, sql`y = ${6}`], ' AND ').text).toBe('x = $1 AND y = $2');
    expect(join([]).text).toBe('');
  });
});

describe('rows, one and exec', () => {
  let database: Database;
  let ctx: Ctx<GuestCaller>;
  beforeAll(async () => {
    database = openDatabase(await createTestDatabase(), 2);
    const svc = { db: database.prisma, pool: database.pool } as unknown as Ctx['svc'];
    ctx = { caller: { kind: 'guest' } as GuestCaller, db: database.prisma, clock: { now: () => new Date() }, svc } as Ctx<GuestCaller>;
  });
  afterAll(() => database?.close());

  const typed = sql`SELECT 7::bigint AS big, 1.50::numeric AS num, 3::int AS int, '2026-01-02 03:04:05.678'::timestamp AS ts,
    '\\x0102'::bytea AS bytes, '{"a": 1}'::jsonb AS doc, ARRAY[1, 2]::bigint[] AS bigs, ${'x'}::text AS text`;

  it('answers with the same types on the pool and in a transaction', async () => {
    const pooled = await one<Record<string, unknown>>(ctx, typed);
    const inTx = await transaction(ctx, (tx) => one<Record<string, unknown>>(tx, typed));
    const expected = {
      big: '7',
      num: '1.5',
      int: 3,
      ts: new Date('2026-01-02T03:04:05.678Z'),
      bytes: Buffer.from([1, 2]),
      doc: { a: 1 },
      bigs: ['1', '2'],
      text: 'x',
    };
    expect(pooled).toEqual({ ...expected, num: '1.50' });
    expect(inTx).toEqual(expected);
  });

  it('writes in the caller transaction: a rolled-back check-in answer is not kept', async () => {
    const contactId = randomUUID();
    await exec(ctx, sql`INSERT INTO inapp_checkin (contact_id, app_mode_id, last_at) VALUES (${contactId}, ${randomUUID()}, now())`);
    const answerOf = async (on: SqlTarget) =>
      (await rows<{ answer_hash: string | null }>(on, sql`SELECT answer_hash FROM inapp_checkin WHERE contact_id = ${contactId}`))[0]!
        .answer_hash;
    const failed = transaction(ctx, async (tx) => {
      await storeAnswer(tx, contactId, '{"messages": []}', 'rolled-back');
      expect(await answerOf(tx)).toBe('rolled-back');
      throw new Error('after the answer');
    });
    await expect(failed).rejects.toThrow('after the answer');
    expect(await answerOf(ctx)).toBeNull();
    await storeAnswer(ctx, contactId, '{"messages": []}', 'kept');
    expect(await answerOf(ctx)).toBe('kept');
  });
});
