import type { PersonalDataArea } from './registry.js';

/** Outbox rows about a person (their topics carry the external id), delivered or not. */
export const outboxData: PersonalDataArea = {
  name: 'outbox',
  tables: ['outbox_event'],
  async erase({ db: tx }, { externalId, appModeIds }) {
    const { count: outboxEvents } = await tx.outboxEvent.deleteMany({ where: { appModeId: { in: appModeIds }, externalId } });
    return { outboxEvents };
  },
};
