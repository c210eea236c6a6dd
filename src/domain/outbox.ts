import type { Prisma } from '../generated/prisma/client.js';
import type { AppScope } from './context.js';
import type { PersonalDataArea } from './personal-data/registry.js';

// Changes that leave the service (webhook topics) are written here in the same transaction as
// the change itself; delivery reads them later.

export async function recordOutbox(tx: Prisma.TransactionClient, scope: AppScope, topic: string, externalId: string | null, data: Record<string, unknown>, at: Date): Promise<void> {
  await tx.outboxEvent.create({ data: { appModeId: scope.appModeId, topic, externalId, data: data as Prisma.InputJsonValue, createdAt: at } });
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
