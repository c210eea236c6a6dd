import { randomUUID } from 'node:crypto';
import type { Contact } from '../../generated/prisma/client.js';
import type { AppScope, Services } from '../context.js';

type Tx = Pick<Services['db'], 'contact'>;

/** The contact for an external id, made on first sight. Safe under concurrent first sights. */
export async function ensureContact(tx: Tx, scope: AppScope, externalId: string, sdk?: string): Promise<Contact> {
  return tx.contact.upsert({
    where: { appModeId_externalId: { appModeId: scope.appModeId, externalId } },
    create: { id: randomUUID(), appModeId: scope.appModeId, externalId, lastSdk: sdk ?? null },
    update: sdk ? { lastSdk: sdk } : {},
  });
}
