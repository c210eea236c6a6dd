import type { PersonalDataArea } from '../personal-data/registry.js';

// A delivery's body names the person its event is about (their ids, and for contact topics their
// name, email and language). Deliveries about an erased person go, posted or not; the endpoints'
// logs keep no body and name no one. Webhook posts are no member of the export.

export const webhookData: PersonalDataArea = {
  name: 'webhooks',
  tables: ['webhook_delivery'],
  async erase({ db }, { externalId, appModeIds }) {
    const { count: webhookDeliveries } = await db.webhookDelivery.deleteMany({ where: { appModeId: { in: appModeIds }, externalId } });
    return { webhookDeliveries };
  },
};
