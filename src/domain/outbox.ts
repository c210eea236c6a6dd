import type { Tx } from '../db/client.js';
import type { Prisma } from '../generated/prisma/client.js';
import type { Services } from './context.js';
import type { PersonalDataArea } from './personal-data/registry.js';

// Changes that leave the service (webhook topics) or that other parts must hear of (live
// subscriptions, long-poll wakes, processes to start) are written here by `emit`, in the same
// transaction as the change: a change is heard of if and only if it committed. The outbox
// dispatcher (src/db/outbox-dispatcher.ts) reads them in order and hands them on.

export const OUTBOX_CHANNEL = 'crm_outbox';

export interface Emitted {
  /** The app-mode the change belongs to. */
  appModeId: string;
  /** The contact it is about, when it names one (an erase then removes it). */
  externalId?: string | null;
  data: Record<string, unknown>;
  at: Date;
}

/** Writes the outbox row and wakes every process's dispatcher, both in the caller's transaction. */
export async function emit(tx: Tx, topic: string, change: Emitted): Promise<void> {
  await tx.outboxEvent.create({
    data: { appModeId: change.appModeId, topic, externalId: change.externalId ?? null, data: change.data as Prisma.InputJsonValue, createdAt: change.at },
  });
  // Delivered at commit; NOTIFY folds repeats within one transaction into one.
  await tx.$executeRaw`SELECT pg_notify(${OUTBOX_CHANNEL}, '')`;
}

/** How long rows are kept once every cluster-wide consumer has passed them (live subscribers may resume from them). */
export const OUTBOX_KEEP_DAYS = 7;

/** Forgets rows older than OUTBOX_KEEP_DAYS that no consumer still has to read. */
export async function purgeOutbox(svc: Pick<Services, 'db' | 'clock'>): Promise<void> {
  const before = new Date(svc.clock.now().getTime() - OUTBOX_KEEP_DAYS * 86_400_000);
  await svc.db.$executeRaw`
    DELETE FROM outbox_event e WHERE e.created_at < ${before}
      AND NOT EXISTS (SELECT 1 FROM outbox_consumer c WHERE (c.tx_id, c.last_id) < (e.tx_id, e.id))`;
}

/** Outbox rows about a person (their topics carry the external id), delivered or not. */
export const outboxData: PersonalDataArea = {
  name: 'outbox',
  tables: ['outbox_event'],
  async erase(tx, { externalId, appModeIds }) {
    const { count: outboxEvents } = await tx.outboxEvent.deleteMany({ where: { appModeId: { in: appModeIds }, externalId } });
    return { outboxEvents };
  },
};
