import { declareEvents } from '../../src/domain/events/definitions.js';
import { defineRoute } from '../http/route.js';
import { DeclaredEvents, EventDefinitions } from './event-definitions.schemas.js';

export const putEventDefinitions = defineRoute({
  method: 'put',
  path: '/server/v1/event-definitions',
  surface: 'server',
  tag: 'Events',
  summary: 'Declare events and their props; declaring only adds',
  body: EventDefinitions,
  responses: { 200: { description: 'The outcome of each definition, in order', schema: DeclaredEvents } },
  errors: [400, 401, 429],
  async handle(ctx, { body }) {
    return { status: 200, body: { definitions: await declareEvents(ctx.state.context, body.definitions) } };
  },
});
