import { z } from 'zod';
import { pageQuery } from '../shapes/page.js';
import { DEFAULT_TICKET_LIST, MAX_TICKET_LIST } from '../../src/domain/tickets/own.js';
import { MAX_PARTS } from '../../src/domain/conversations/parts.js';
import { Conversation } from './conversations.schemas.js';

// The person's tickets on the wire. Writing in a ticket sends a conversation's MessageBody and
// answers its Part (conversations.schemas.ts).

const instant = z.iso.datetime({ offset: true });

// --- Requests ----------------------------------------------------------------------------------

export const TicketParams = z.object({ ticket_id: z.string().describe('The ticket id, from GET /tickets') });

export const TicketListQuery = pageQuery('Tickets', MAX_TICKET_LIST, DEFAULT_TICKET_LIST);

// --- Answers -----------------------------------------------------------------------------------

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

export const SupportTicketPage = z
  .object({
    items: z.array(TicketSummary).describe("The user's tickets, newest first"),
    next_before: z.string().nullable().describe('Pass as `before` for the next (older) page; null on the last page'),
  })
  .meta({ id: 'SupportTicketPage' });

export const SupportTicket = TicketSummary.extend({
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
  conversation: Conversation.describe(
    `Its conversation, with the newest ${MAX_PARTS} parts the user may see; the older ones through GET /guest/v1/conversations/{id}?before=parts_before`,
  ),
}).meta({ id: 'SupportTicket' });
