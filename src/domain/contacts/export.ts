import type { AppScope, Services } from '../context.js';
import { notFound } from '../errors.js';
import type { AttributeValue } from './attributes.js';

// GET /server/v1/contacts/{external_id}/export: everything kept about a person in this mode.
// Members of areas not built yet are present and empty; they fill in as those areas land.

export const EXPORT_EVENT_LIMIT = 1000;

export async function exportContact(svc: Services, scope: AppScope, externalId: string) {
  const contact = await svc.db.contact.findUnique({
    where: { appModeId_externalId: { appModeId: scope.appModeId, externalId } },
    include: { consentChanges: { orderBy: { recordedAt: 'asc' } } },
  });
  const events = await svc.db.event.findMany({
    where: { appModeId: scope.appModeId, externalId },
    orderBy: [{ occurredAt: 'desc' }, { id: 'desc' }],
    take: EXPORT_EVENT_LIMIT + 1,
  });
  if (!contact && !events.length) throw notFound('Nothing is kept about this person.');

  const fields: [string, unknown][] = contact
    ? [
        ['display_name', contact.displayName],
        ['email', contact.email],
        ['signed_up_at', contact.signedUpAt?.toISOString()],
        ['language', contact.language],
        ['time_zone', contact.timeZone],
        ['provider', contact.provider],
        ...Object.entries((contact.attributes ?? {}) as Record<string, AttributeValue>),
      ]
    : [];
  return {
    externalId,
    attributes: fields.filter(([, v]) => v !== null && v !== undefined).map(([name, value]) => ({ name, value: asText(value) })),
    tags: contact?.tags ?? [],
    notes: [] as { body: string; createdAt: string }[],
    events: events.slice(0, EXPORT_EVENT_LIMIT).map((e) => ({
      name: e.name,
      occurredAt: e.occurredAt.toISOString(),
      props: Object.fromEntries(Object.entries((e.props ?? {}) as Record<string, unknown>).map(([k, v]) => [k, asText(v)])),
    })),
    eventsTruncated: events.length > EXPORT_EVENT_LIMIT,
    conversations: [],
    tickets: [],
    articleRatings: [],
    receipts: [],
    surveyResponses: [],
    workflows: [],
    collected: [],
    testPhone: false,
    testSends: [],
    devices: [],
    notices: [],
    subscriptions: [],
    consentHistory: (contact?.consentChanges ?? []).map((c) => ({
      channel: c.channel,
      value: c.value,
      changedAt: c.changedAt.toISOString(),
      source: c.source,
      recordedAt: c.recordedAt.toISOString(),
    })),
  };
}

const asText = (v: unknown) => (typeof v === 'string' ? v : Array.isArray(v) ? JSON.stringify(v) : String(v));
