import { z } from 'zod';
import { MAX_SERVER_BATCH } from '../../src/domain/events/server-events.js';
import { eventName, eventProps, eventsOf, Rejected } from '../http/event-batch.js';
import { rfc3339 } from '../http/fields.js';

// Events sent by the customer's backend.

export const ServerEvent = z
  .object({
    id: z
      .string()
      .min(1)
      .max(200)
      .describe('The idempotency key, 1 to 200 characters: derive it from what happened; the same id sent again is kept once'),
    external_id: z.string().min(1).max(200).describe('The person, 1 to 200 characters'),
    name: eventName.describe(`${eventName.description}; an event not yet declared is made on first sight`),
    at: rfc3339.describe('When it happened; no age limit (backends backfill history)'),
    props: eventProps.optional(),
  })
  .meta({ id: 'ServerEvent' });

export const ServerEvents = z
  .object({
    events: eventsOf(
      ServerEvent,
      MAX_SERVER_BATCH,
      `Up to ${MAX_SERVER_BATCH} events (413 too_many_events beyond); each is kept or refused on its own`,
    ),
  })
  .meta({ id: 'ServerEvents' });
export const ServerAccepted = z.object({ accepted: z.number().int(), rejected: z.array(Rejected) }).meta({ id: 'ServerAccepted' });
