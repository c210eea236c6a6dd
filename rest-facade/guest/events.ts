import { z } from 'zod';
import { ingestGuestEvents, MAX_GUEST_BATCH } from '../../src/domain/events/guest-events.js';
import { eventName, eventProps, eventsOf, readEvents, Rejected } from '../http/event-batch.js';
import { ianaZone, rfc3339 } from '../http/fields.js';
import { defineRoute } from '../http/route.js';

const EventBody = z
  .object({
    id: z.uuid({ message: 'must be a UUID' }).describe('A UUID drawn when it happened: a batch sent twice is kept once'),
    name: eventName.describe(`${eventName.description}; a built-in event or one the app declares with source both`),
    occurred_at: rfc3339.describe('When it happened: at most a week ago (too_old) and at most a day ahead (in_future)'),
    // Empty when left out. (Not a `default`: generated clients would make a member with a default required.)
    props: eventProps.optional().transform((p) => p ?? {}),
  })
  .meta({ id: 'EventBody' });

const EventsBody = z
  .object({
    events: eventsOf(
      EventBody,
      MAX_GUEST_BATCH,
      `Up to ${MAX_GUEST_BATCH} events, oldest first (413 too_many_events beyond); each is kept or refused on its own`,
    ),
    app_version: z.string().min(1).max(100),
    platform: z.enum(['ios', 'android', 'web']),
    time_zone: z.union([z.literal(''), ianaZone]).optional(),
    sent_at: rfc3339.optional(),
  })
  .meta({ id: 'EventsBody' });

const EventsAccepted = z.object({ accepted: z.number().int(), rejected: z.array(Rejected).optional() }).meta({ id: 'EventsAccepted' });

export const postGuestEvents = defineRoute({
  method: 'post',
  path: '/guest/v1/events',
  surface: 'guest',
  tag: 'Events',
  summary: "Send the user's product events, at most 50, oldest first; each id is kept once",
  body: EventsBody,
  responses: { 202: { description: 'How many were kept; refusals listed when there are any', schema: EventsAccepted } },
  errors: [400, 401, 403, 409, 413, 429],
  async handle(ctx, { body }) {
    const { context } = ctx.state;
    const batch = readEvents(body.events, EventBody, (e, index) => ({
      index,
      id: e.id.toLowerCase(),
      externalId: context.caller.externalId,
      name: e.name,
      occurredAt: new Date(e.occurred_at),
      props: e.props,
    }));
    const { accepted, rejected } = await ingestGuestEvents(context, batch, body.platform);
    return { status: 202, body: { accepted, ...(rejected.length ? { rejected } : {}) } };
  },
});
