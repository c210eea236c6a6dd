import type { Prisma } from '../generated/prisma/client.js';
import type { AppScope } from './context.js';

// Changes that leave the service (webhook topics) are written here in the same transaction as
// the change itself; delivery reads them later.

export async function recordOutbox(tx: Prisma.TransactionClient, scope: AppScope, topic: string, externalId: string | null, data: Record<string, unknown>, at: Date): Promise<void> {
  await tx.outboxEvent.create({ data: { appModeId: scope.appModeId, topic, externalId, data: data as Prisma.InputJsonValue, createdAt: at } });
}
