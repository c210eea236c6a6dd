import { ingestServerEvents } from '../../src/domain/events/server-events.js';
import { readEvents } from '../http/event-batch.js';
import { defineRoute } from '../http/route.js';
import { ServerAccepted, ServerEvent, ServerEvents } from './events.schemas.js';

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
