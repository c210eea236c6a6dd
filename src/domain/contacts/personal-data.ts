import type { TxCtx } from '../context.js';
import { keyset, pagedRows, type ErasedPerson, type PersonalDataArea } from '../personal-data/registry.js';
import type { AttributeValue } from './attributes.js';
import { exec, sql } from '../../db/sql.js';

// A contact: its fields and attributes, tags, and every consent choice (which go with it; read a
// page at a time while the export is written).

export const contactData: PersonalDataArea = {
  name: 'contacts',
  tables: ['contact', 'consent_change'],
  async exportOf({ db }, { appModeId, externalId }) {
    const contact = await db.contact.findUnique({ where: { appModeId_externalId: { appModeId, externalId } } });
    if (!contact) return undefined;
    const fields: [string, unknown][] = [
      ['display_name', contact.displayName],
      ['email', contact.email],
      ['signed_up_at', contact.signedUpAt?.toISOString()],
      ['language', contact.language],
      ['time_zone', contact.timeZone],
      ['provider', contact.provider],
      ...Object.entries((contact.attributes ?? {}) as Record<string, AttributeValue>),
    ];
    return {
      attributes: fields.filter(([, v]) => v !== null && v !== undefined).map(([name, value]) => ({ name, value: asText(value) })),
      tags: contact.tags,
      consentHistory: pagedRows(
        (last: { id: string } | undefined, take) =>
          db.consentChange.findMany({
            where: { contactId: contact.id },
            orderBy: [{ recordedAt: 'asc' }, { id: 'asc' }],
            ...keyset(last && { id: last.id }, take),
          }),
        (c) => ({
          channel: c.channel,
          value: c.value,
          changedAt: c.changedAt.toISOString(),
          source: c.source,
          recordedAt: c.recordedAt.toISOString(),
        }),
      ),
    };
  },
  async erase({ db: tx }, { externalId, appModeIds }) {
    // Consent history and every other row of the contact go with it (ON DELETE CASCADE).
    const consentChanges = await tx.consentChange.count({ where: { contact: { appModeId: { in: appModeIds }, externalId } } });
    const { count: contacts } = await tx.contact.deleteMany({ where: { appModeId: { in: appModeIds }, externalId } });
    return { contacts, consentChanges };
  },
};

/** A kept value as the export's string. */
export const asText = (v: unknown) => (typeof v === 'string' ? v : Array.isArray(v) ? JSON.stringify(v) : String(v));

/**
 * Holds the person's contacts in every mode until the erase's transaction ends, before any area
 * removes a row. Every write about a person holds their contact first too (a guest request by
 * touchContact, a team member's by holdConversation), so a write racing the erase either commits
 * before it, and the erase removes all it wrote, or waits and finds the person gone; the two
 * never deadlock.
 */
export async function holdPerson(tx: TxCtx, { externalId, appModeIds }: ErasedPerson): Promise<void> {
  await exec(
    tx,
    sql`SELECT id FROM contact WHERE app_mode_id = ANY(${appModeIds}::text[]) AND external_id = ${externalId} ORDER BY id FOR UPDATE`,
  );
}
