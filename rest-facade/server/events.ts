import { z } from 'zod';
import { MAX_PROPS } from '../../src/domain/events/props.js';
import { ingestServerEvents, MAX_SERVER_BATCH } from '../../src/domain/events/server-events.js';
import { readEvents, Rejected } from '../http/event-batch.js';
import { rfc3339, stringMap } from '../http/fields.js';
import { defineRoute } from '../http/route.js';

const ServerEvent = z
  .object({
    id: z.string().min(1).max(200),
    external_id: z.string().min(1).max(200),
    name: z.string().min(1).max(100),
    at: rfc3339,
    props: stringMap.refine((p) => Object.keys(p).length <= MAX_PROPS, `at most ${MAX_PROPS} props`).optional(),
  })
  .meta({ id: 'ServerEvent' });

const ServerEvents = z.object({ events: z.array(z.unknown()).meta({ description: `Up to ${MAX_SERVER_BATCH} ServerEvent` }) }).meta({ id: 'ServerEvents' });
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
