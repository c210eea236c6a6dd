import { z } from 'zod';
import { MAX_GUEST_BATCH } from '../../src/domain/events/guest-events.js';
import { eventName, eventProps, eventsOf, Rejected } from '../http/event-batch.js';
import { ianaZone, rfc3339 } from '../http/fields.js';

// The person's product events, sent by the app.

export const EventBody = z
  .object({
    id: z.uuid({ message: 'must be a UUID' }).describe('A UUID drawn when it happened: a batch sent twice is kept once'),
    name: eventName.describe(`${eventName.description}; a built-in event or one the app declares with source both`),
    occurred_at: rfc3339.describe('When it happened: at most a week ago (too_old) and at most a day ahead (in_future)'),
    // Empty when left out. (Not a `default`: generated clients would make a member with a default required.)
    props: eventProps.optional().transform((p) => p ?? {}),
  })
  .meta({ id: 'EventBody' });

export const EventsBody = z
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

export const EventsAccepted = z
  .object({ accepted: z.number().int(), rejected: z.array(Rejected).optional() })
  .meta({ id: 'EventsAccepted' });
