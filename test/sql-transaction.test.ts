import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exec, one, sql } from '../src/db/sql.js';
import { sqlTransaction, systemContext } from '../src/domain/context.js';
import { emit } from '../src/domain/outbox.js';
import { startTestServer, type TestServer } from './support/server.js';

// A transaction of raw SQL only, straight through pg (the webhook try's log runs in one): what it
// writes commits together or not at all, and a Prisma call in it is refused rather than run outside it.

let t: TestServer;
/** Outbox rows name an app-mode by id only. */
const appModeId = randomUUID();
beforeAll(async () => (t = await startTestServer()));
afterAll(() => t?.close());

const written = async (topic: string) =>
  (await one<{ n: number }>(t.svc, sql`SELECT count(*)::int AS n FROM outbox_event WHERE topic = ${topic}`))!.n;

describe('sqlTransaction', () => {
  it('commits every statement of it together, on one connection', async () => {
    const topic = `test.${randomUUID()}`;
    const ctx = systemContext(t.svc, 'test');
    const pid = await sqlTransaction(ctx, async (tx) => {
      await emit(tx, topic, { appModeId, data: { n: 1 } });
      await emit(tx, topic, { appModeId, data: { n: 2 } });
      // Not committed yet: another connection does not see them.
      expect(await written(topic)).toBe(0);
      return (await one<{ pid: number }>(tx, sql`SELECT pg_backend_pid() AS pid`))!.pid;
    });
    expect(typeof pid).toBe('number');
    expect(await written(topic)).toBe(2);
  });

  it('rolls every statement back when it throws', async () => {
    const topic = `test.${randomUUID()}`;
    await expect(
      sqlTransaction(systemContext(t.svc, 'test'), async (tx) => {
        await emit(tx, topic, { appModeId, data: {} });
        await exec(tx, sql`SELECT 1 / 0`);
      }),
    ).rejects.toThrow(/division by zero/);
    expect(await written(topic)).toBe(0);
  });

  it('refuses a Prisma call in it, which would run outside the transaction, and rolls back', async () => {
    const topic = `test.${randomUUID()}`;
    await expect(
      sqlTransaction(systemContext(t.svc, 'test'), async (tx) => {
        await emit(tx, topic, { appModeId, data: {} });
        await tx.db.outboxEvent.count();
      }),
    ).rejects.toThrow('a transaction of raw SQL has no Prisma client: db.outboxEvent was called in one');
    expect(await written(topic)).toBe(0);
  });
});
