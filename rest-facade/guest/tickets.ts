import { z } from 'zod';
import type { TicketStateChange } from '../../src/generated/prisma/client.js';
import { IDEMPOTENCY_HEADER } from '../../src/domain/conversations/idempotency.js';
import {
  DEFAULT_TICKET_LIST,
  getTicket,
  listTickets,
  MAX_TICKET_LIST,
  sendTicketMessage,
  type TicketWithType,
} from '../../src/domain/tickets/own.js';
import { stateIn, statesOf } from '../../src/domain/tickets/states.js';
import { defineRoute } from '../http/route.js';
import { Conversation, IdempotencyHeaders, MessageBody, Part, presentConversation, presentParts } from './conversations.js';

// The person's tickets: the list, one ticket with where it has got to and its conversation, and
// writing in that conversation. Every route answers 404 while the app's messenger is switched off,
// and for a ticket that is another person's or another mode's.

const TAG = 'Tickets';
const instant = z.iso.datetime({ offset: true });
const NOT_FOUND = 'No such ticket, or the messenger is switched off for this app';

const TicketParams = z.object({ ticket_id: z.string().describe('The ticket id, from GET /tickets') });

// --- Answers ---------------------------------------------------------------------------------

const TicketState = z
  .object({
    key: z.string().describe('The state as webhooks name it'),
    label: z.string().describe('What to show the user'),
    final: z.boolean().describe('The ticket is done (resolved, closed…)'),
  })
  .meta({ id: 'SupportTicketState' });

const TicketType = z.object({ id: z.string(), name: z.string(), description: z.string() }).meta({ id: 'SupportTicketType' });

export const TicketSummary = z
  .object({
    id: z.string(),
    number: z.number().int().describe('The short number the user and the team quote (#12)'),
    title: z.string(),
    type: TicketType,
    state: TicketState.describe('Where it has got to'),
    conversation_id: z.string().describe('The conversation it is worked in'),
    created_at: instant,
    updated_at: instant.describe('When it last moved to another state'),
  })
  .meta({ id: 'SupportTicketSummary' });

const SupportTicketPage = z
  .object({
    items: z.array(TicketSummary).describe("The user's tickets, newest first"),
    next_before: z.string().nullable().describe('Pass as `before` for the next (older) page; null on the last page'),
  })
  .meta({ id: 'SupportTicketPage' });

const SupportTicket = TicketSummary.extend({
  description: z.string(),
  states: z
    .array(TicketState.extend({ current: z.boolean().describe('The state the ticket is in now') }))
    .describe("Every state of the ticket's type, in order, the current one marked"),
  history: z
    .array(
      z.object({
        from: z.string().nullable().describe('The state it left (its key); null for the step that opened it'),
        to: z.string().describe('The state it reached (its key)'),
        label: z.string().describe('What to show the user for `to`'),
        at: instant,
      }),
    )
    .describe('Every step, oldest first: opened in its first state, then each move'),
  conversation: Conversation.describe('Its conversation, with every part the user may see'),
}).meta({ id: 'SupportTicket' });

// --- Presenting --------------------------------------------------------------------------------

const presentState = (type: TicketWithType['type'], key: string) => {
  const state = stateIn(type, key);
  return { key, label: state?.label ?? key, final: state?.final ?? false };
};

export const presentTicketSummary = (t: TicketWithType) => ({
  id: t.id,
  number: t.number,
  title: t.title,
  type: { id: t.type.id, name: t.type.name, description: t.type.description },
  state: presentState(t.type, t.state),
  conversation_id: t.conversationId,
  created_at: t.createdAt.toISOString(),
  updated_at: t.updatedAt.toISOString(),
});

const presentStep = (type: TicketWithType['type'], step: TicketStateChange) => ({
  from: step.fromState,
  to: step.toState,
  label: presentState(type, step.toState).label,
  at: step.at.toISOString(),
});

// --- Routes ------------------------------------------------------------------------------------

export const listGuestTickets = defineRoute({
  method: 'get',
  path: '/guest/v1/tickets',
  surface: 'guest',
  tag: TAG,
  summary: "The user's tickets, newest first",
  query: z.object({
    before: z.string().max(500).optional().describe("The previous page's `next_before`"),
    limit: z
      .string()
      .regex(/^[0-9]{1,9}$/, `must be a whole number from 1 to ${MAX_TICKET_LIST}`)
      .transform(Number)
      .refine((n) => n >= 1 && n <= MAX_TICKET_LIST, `must be a whole number from 1 to ${MAX_TICKET_LIST}`)
      .optional()
      .describe(`Tickets per page, 1 to ${MAX_TICKET_LIST}; ${DEFAULT_TICKET_LIST} when left out`),
  }),
  responses: {
    200: { description: 'A page of tickets', schema: SupportTicketPage },
    404: { description: 'The messenger is switched off for this app' },
  },
  errors: [400, 401, 403, 404, 429],
  async handle(ctx, { query }) {
    const page = await listTickets(ctx.state.context, { before: query.before, limit: query.limit });
    return { status: 200, body: { items: page.items.map(presentTicketSummary), next_before: page.nextBefore } };
  },
});

export const getGuestTicket = defineRoute({
  method: 'get',
  path: '/guest/v1/tickets/{ticket_id}',
  surface: 'guest',
  tag: TAG,
  summary: "One of the user's tickets: where it has got to, and its conversation",
  params: TicketParams,
  responses: { 200: { description: 'The ticket', schema: SupportTicket }, 404: { description: NOT_FOUND } },
  errors: [400, 401, 403, 404, 429],
  async handle(ctx, { params }) {
    const { ticket, history, conversation } = await getTicket(ctx.state.context, params.ticket_id);
    return {
      status: 200,
      body: {
        ...presentTicketSummary(ticket),
        description: ticket.description,
        states: statesOf(ticket.type).map((s) => ({ key: s.key, label: s.label, final: s.final, current: s.key === ticket.state })),
        history: history.map((step) => presentStep(ticket.type, step)),
        conversation: await presentConversation(ctx, conversation),
      },
    };
  },
});

export const postGuestTicketMessage = defineRoute({
  method: 'post',
  path: '/guest/v1/tickets/{ticket_id}/messages',
  surface: 'guest',
  tag: TAG,
  summary: "The user writes in the ticket's conversation (a closed or snoozed one is open again)",
  params: TicketParams,
  headers: IdempotencyHeaders,
  body: MessageBody,
  responses: {
    201: { description: "The part, in the ticket's conversation (also when the same Idempotency-Key is sent again)", schema: Part },
    404: { description: NOT_FOUND },
    409: { description: 'The user was erased (erased)' },
    422: {
      description:
        'A picture cannot be used (attachment_invalid), more than four (too_many_pictures), or the Idempotency-Key was used for another request (idempotency_key_reused)',
    },
  },
  errors: [400, 401, 403, 404, 409, 422, 429],
  async handle(ctx, { params, headers, body }) {
    const part = await sendTicketMessage(ctx.state.context, params.ticket_id, {
      text: body.text,
      attachmentIds: body.attachment_ids ?? [],
      idempotencyKey: headers[IDEMPOTENCY_HEADER],
    });
    return { status: 201, body: (await presentParts(ctx, [part]))[0] };
  },
});

export const ticketRoutes = [listGuestTickets, getGuestTicket, postGuestTicketMessage];
