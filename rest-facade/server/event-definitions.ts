import { z } from 'zod';
import { declareEvents } from '../../src/domain/events/definitions.js';
import { defineRoute } from '../http/route.js';
import type { RouteDeps } from '../routes.js';

const Definition = z
  .object({
    name: z.string(),
    description: z.string().optional(),
    category: z.string().optional(),
    source: z.string().optional().describe('server, or both when the app (client) sends it too'),
    props: z.array(z.object({ key: z.string(), type: z.string().describe('string, number, bool, time or money') })).optional(),
  })
  .meta({ id: 'Definition' });

const EventDefinitions = z.object({ definitions: z.array(Definition).max(500) }).meta({ id: 'EventDefinitions' });

const DeclaredEvents = z
  .object({
    definitions: z.array(
      z.object({ name: z.string(), outcome: z.enum(['created', 'props_added', 'unchanged', 'refused']), reason: z.string().optional() }),
    ),
  })
  .meta({ id: 'DeclaredEvents' });

export const putEventDefinitions = ({ svc }: RouteDeps) =>
  defineRoute({
    method: 'put',
    path: '/server/v1/event-definitions',
    surface: 'server',
    tag: 'Events',
    summary: 'Declare events and their props; declaring only adds',
    body: EventDefinitions,
    responses: { 200: { description: 'The outcome of each definition, in order', schema: DeclaredEvents } },
    errors: [400, 401, 429],
    async handle(ctx, { body }) {
      return { status: 200, body: { definitions: await declareEvents(svc, ctx.state.caller, body.definitions) } };
    },
  });
