import { z } from 'zod';
import { ingestServerEvents, MAX_SERVER_BATCH } from '../../src/domain/events/server-events.js';
import { eventName, eventProps, eventsOf, readEvents, Rejected } from '../http/event-batch.js';
import { rfc3339 } from '../http/fields.js';
import { defineRoute } from '../http/route.js';

const ServerEvent = z
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

const ServerEvents = z
  .object({
    events: eventsOf(
      ServerEvent,
      MAX_SERVER_BATCH,
      `Up to ${MAX_SERVER_BATCH} events (413 too_many_events beyond); each is kept or refused on its own`,
    ),
  })
  .meta({ id: 'ServerEvents' });
const ServerAccepted = z.object({ accepted: z.number().int(), rejected: z.array(Rejected) }).meta({ id: 'ServerAccepted' });

export const postServerEvents = defineRoute({
  method: 'post',
  path: '/server/v1/events',
  surface: 'server',
  tag: 'Events',
  summary: 'Send up to 500 events; each is kept or refused on its own, and an id is kept once',
  body: ServerEvents,
  responses: { 202: { description: 'How many were kept, and each refusal', schema: ServerAccepted } },
  errors: [400, 401, 409, 413, 429],
  async handle(ctx, { body }) {
    const batch = readEvents(body.events, ServerEvent, (e, index) => ({
      index,
      id: e.id,
      externalId: e.external_id,
      name: e.name,
      occurredAt: new Date(e.at),
      props: e.props ?? {},
    }));
    const { accepted, rejected } = await ingestServerEvents(ctx.state.context, batch);
    return { status: 202, body: { accepted, rejected } };
  },
});
