import type { PersonalDataArea } from '../personal-data/registry.js';
import { exec, sql } from '../../db/sql.js';

// What sends keep about a person: a row per device of theirs each send tried, the sends that
// reached them (their notices are the notices area's), and a one-person send's external id. Not in
// the export beyond those notices; erased in both modes, the one-person sends kept as { erased: true }.

export const pushData: PersonalDataArea = {
  name: 'push',
  tables: ['push_delivery', 'push_recipient'],
  async erase(ctx, { externalId, appModeIds }) {
    const tx = ctx.db;
    const contactIds = (await tx.contact.findMany({ where: { appModeId: { in: appModeIds }, externalId }, select: { id: true } })).map(
      (c) => c.id,
    );
    const { count: pushDeliveries } = await tx.pushDelivery.deleteMany({ where: { contactId: { in: contactIds } } });
    const { count: pushRecipients } = await tx.pushRecipient.deleteMany({ where: { contactId: { in: contactIds } } });
    const pushSends = await exec(
      ctx,
      sql`
      UPDATE push_send SET audience = '{"erased": true}'::jsonb
      WHERE app_mode_id = ANY(${appModeIds}::text[]) AND audience ->> 'externalId' = ${externalId}`,
    );
    return { pushDeliveries, pushRecipients, pushSends };
  },
};
