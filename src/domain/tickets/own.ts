import type { ConversationPart, Ticket, TicketStateChange, TicketType } from '../../generated/prisma/client.js';
import type { Ctx, GuestCaller } from '../context.js';
import { getConversation, type SeenConversation } from '../conversations/conversations.js';
import { sendMessage, type MessageInput } from '../conversations/messages.js';
import { requireMessenger } from '../conversations/settings.js';
import { transaction } from '../context.js';
import { notFound } from '../errors.js';
import { decodeCursor, encodeCursor } from '../paging.js';

// Tickets as the person sees them: only their own, in the caller's app-mode (another person's or
// another mode's is not found), with where each has got to and its conversation. They write in a
// ticket's conversation as in any of theirs. Nothing here while the messenger is switched off.

export const DEFAULT_TICKET_LIST = 20;
export const MAX_TICKET_LIST = 100;

export type TicketWithType = Ticket & { type: TicketType };

export interface SeenTicket {
  ticket: TicketWithType;
  /** Every step, oldest first: made in its first state, then each move. */
  history: TicketStateChange[];
  conversation: SeenConversation;
}

/** The ticket if it is the caller's own, in the caller's app-mode (404 otherwise). */
export async function ownTicket(ctx: Ctx<GuestCaller>, ticketId: string): Promise<TicketWithType> {
  const { appModeId, externalId } = ctx.caller;
  const found = await ctx.db.ticket.findFirst({
    where: { id: ticketId, appModeId, contact: { appModeId, externalId } },
    include: { type: true },
  });
  if (!found) throw notFound('No such ticket.');
  return found;
}

/** The caller's tickets, newest first, in keyset pages (`before`: the previous page's `nextBefore`). */
export async function listTickets(
  ctx: Ctx<GuestCaller>,
  opts: { before?: string; limit?: number },
): Promise<{ items: TicketWithType[]; nextBefore: string | null }> {
  requireMessenger(ctx);
  const { appModeId, externalId } = ctx.caller;
  const limit = opts.limit ?? DEFAULT_TICKET_LIST;
  const [at, id] = opts.before ? (decodeCursor(opts.before, 'before', ['time', 'text']) as [string, string]) : [];
  const after = at === undefined ? {} : { OR: [{ createdAt: { lt: new Date(at) } }, { createdAt: new Date(at), id: { lt: id } }] };
  const rows = await ctx.db.ticket.findMany({
    where: { appModeId, contact: { appModeId, externalId }, ...after },
    include: { type: true },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: limit + 1,
  });
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextBefore: rows.length > limit && last ? encodeCursor([last.createdAt.toISOString(), last.id]) : null };
}

/** One of the caller's tickets, with its steps and its conversation as they may see it. */
export async function getTicket(ctx: Ctx<GuestCaller>, ticketId: string): Promise<SeenTicket> {
  requireMessenger(ctx);
  const ticket = await ownTicket(ctx, ticketId);
  const history = await ctx.db.ticketStateChange.findMany({
    where: { ticketId: ticket.id, appModeId: ticket.appModeId },
    orderBy: { seq: 'asc' },
  });
  return { ticket, history, conversation: await getConversation(ctx, ticket.conversationId) };
}

/** The person writes in the ticket's conversation (as POST /conversations/{id}/messages does). */
export async function sendTicketMessage(ctx: Ctx<GuestCaller>, ticketId: string, input: MessageInput): Promise<ConversationPart> {
  requireMessenger(ctx);
  return transaction(ctx, async (tx) => sendMessage(tx, (await ownTicket(tx, ticketId)).conversationId, input));
}
