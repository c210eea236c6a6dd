import { IDEMPOTENCY_HEADER } from '../../src/domain/conversations/idempotency.js';
import { getTicket, listTickets, sendTicketMessage } from '../../src/domain/tickets/own.js';
import { defineRoute } from '../http/route.js';
import { presentParts } from '../presenters/conversations.js';
import { presentTicket, presentTicketSummary } from '../presenters/tickets.js';
import { IdempotencyHeaders, MessageBody, Part } from './conversations.schemas.js';
import { SupportTicket, SupportTicketPage, TicketListQuery, TicketParams } from './tickets.schemas.js';

// The person's tickets: the list, one ticket with where it has got to and its conversation, and
// writing in that conversation. Every route answers 404 while the app's messenger is switched off,
// and for a ticket that is another person's or another mode's.

const TAG = 'Tickets';
const NOT_FOUND = 'No such ticket, or the messenger is switched off for this app';

export const listGuestTickets = defineRoute({
  method: 'get',
  path: '/guest/v1/tickets',
  surface: 'guest',
  tag: TAG,
  summary: "The user's tickets, newest first",
  query: TicketListQuery,
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
    return { status: 200, body: await presentTicket(ctx.state.context, await getTicket(ctx.state.context, params.ticket_id)) };
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
    return { status: 201, body: (await presentParts(ctx.state.context, [part]))[0] };
  },
});

export const ticketRoutes = [listGuestTickets, getGuestTicket, postGuestTicketMessage];
