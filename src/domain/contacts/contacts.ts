import { randomUUID } from 'node:crypto';
import type { Contact } from '../../generated/prisma/client.js';
import type { AppCaller, TxCtx } from '../context.js';
import { refuseIfErased } from './erasure.js';
import { rows, sql } from '../../db/sql.js';

/**
 * The contact for an external id, made on first sight, in the caller's transaction: the one way
 * to reach a person for writing. An id erased within the block is refused (409 erased), and the
 * person is held against a new erase request until the transaction ends. Safe under concurrent
 * first sights; `lock` holds the row for an update that reads it first.
 */
export async function touchContact(
  ctx: TxCtx<AppCaller>,
  externalId: string,
  opts: { sdk?: string; lock?: boolean } = {},
): Promise<{ contact: Contact; created: boolean }> {
  await refuseIfErased(ctx, externalId);
  const { db: tx, caller: scope } = ctx;
  const now = ctx.clock.now();
  const where = { appModeId_externalId: { appModeId: scope.appModeId, externalId } };
  // Usually the person is known: one read. On first sight (or to lock), made if absent, then read.
  let contact = opts.lock ? null : await tx.contact.findUnique({ where });
  let created = false;
  if (!contact) {
    const made = await tx.contact.createMany({
      data: [{ id: randomUUID(), appModeId: scope.appModeId, externalId, lastSdk: opts.sdk ?? null, createdAt: now, updatedAt: now }],
      skipDuplicates: true,
    });
    created = made.count === 1;
    if (opts.lock)
      await rows(ctx, sql`SELECT id FROM contact WHERE app_mode_id = ${scope.appModeId} AND external_id = ${externalId} FOR UPDATE`);
    // Made here, or by a concurrent first sight that has committed (the insert waited for it).
    contact = await tx.contact.findUniqueOrThrow({ where });
  }
  // The SDK written only when it changed: a person's requests do not queue on their row's lock.
  if (opts.sdk && contact.lastSdk !== opts.sdk) contact = await tx.contact.update({ where, data: { lastSdk: opts.sdk, updatedAt: now } });
  return { contact, created };
}
