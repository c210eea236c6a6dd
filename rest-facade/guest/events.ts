import { ingestGuestEvents } from '../../src/domain/events/guest-events.js';
import { readEvents } from '../http/event-batch.js';
import { defineRoute } from '../http/route.js';
import { EventBody, EventsAccepted, EventsBody } from './events.schemas.js';

export const postGuestEvents = defineRoute({
  method: 'post',
  path: '/guest/v1/events',
  surface: 'guest',
  tag: 'Events',
  summary: "Send the user's product events, at most 50, oldest first; each id is kept once",
  body: EventsBody,
  responses: { 202: { description: 'How many were kept; refusals listed when there are any', schema: EventsAccepted } },
  errors: [400, 401, 403, 409, 413, 429],
  // touchContact refuses a person being erased (409 erased) in the batch's transaction.
  erasedChecked: true,
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
