import { asText } from '../contacts/personal-data.js';
import type { PersonalDataArea } from '../personal-data/registry.js';
import { exec, sql } from '../../db/sql.js';

// A person's product events, newest first, and the events refused from their batches. The
// anonymous daily counts stay.

export const EXPORT_EVENT_LIMIT = 1000;

export const eventData: PersonalDataArea = {
  name: 'events',
  tables: ['event', 'refused_event'],
  async exportOf({ db }, { appModeId, externalId }) {
    const events = await db.event.findMany({
      where: { appModeId, externalId },
      orderBy: [{ occurredAt: 'desc' }, { id: 'desc' }],
      take: EXPORT_EVENT_LIMIT + 1,
    });
    if (!events.length) return undefined;
    return {
      events: events.slice(0, EXPORT_EVENT_LIMIT).map((e) => ({
        name: e.name,
        occurredAt: e.occurredAt.toISOString(),
        props: Object.fromEntries(Object.entries((e.props ?? {}) as Record<string, unknown>).map(([k, v]) => [k, asText(v)])),
      })),
      eventsTruncated: events.length > EXPORT_EVENT_LIMIT,
    };
  },
  async erase(ctx, { externalId, appModeIds }) {
    const tx = ctx.db;
    const events = await exec(ctx, sql`DELETE FROM event WHERE app_mode_id = ANY(${appModeIds}::uuid[]) AND external_id = ${externalId}`);
    const { count: refusedEvents } = await tx.refusedEvent.deleteMany({ where: { appModeId: { in: appModeIds }, externalId } });
    return { events, refusedEvents };
  },
};
