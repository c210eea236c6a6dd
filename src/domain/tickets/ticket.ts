import { randomUUID } from 'node:crypto';
import type { ConversationPart, Ticket, TicketStateChange } from '../../generated/prisma/client.js';
import type { Author } from '../conversations/authors.js';
import type { Ctx, StaffCaller, TxCtx } from '../context.js';
import { invalidField, notFound } from '../errors.js';
import { emit, inOrder } from '../outbox.js';
import { ticketChanged, TICKETS_CHANGED } from './live.js';
import { rows, sql } from '../../db/sql.js';

// What making and moving a ticket share: the webhook topics, the limits of what staff write, the
// ticket found for a team member, and the step each change records (its history row, the webhook
// topic and the live row, in the change's transaction).

export const TICKET_CREATED = 'ticket.created';
export const TICKET_CHANGED = 'ticket.changed';

export const MAX_TITLE = 200;
export const MAX_DESCRIPTION = 10_000;

export function ticketTitle(title: string): string {
  const trimmed = title.trim();
  if (!trimmed || trimmed.length > MAX_TITLE) throw invalidField('title', `must be 1 to ${MAX_TITLE} characters`);
  return trimmed;
}

export function ticketDescription(description: string | null | undefined): string {
  const text = (description ?? '').trim();
  if (text.length > MAX_DESCRIPTION) throw invalidField('description', `must be at most ${MAX_DESCRIPTION} characters`);
  return text;
}

/**
 * A ticket by id, for a team member whose access to it was checked (the staff API's declared
 * permission on `{ ticketId }`). `lock` holds its row for a change, after `inOrder` on it, so the
 * changes' outbox rows follow their commit order.
 */
export async function ticketById(ctx: Ctx<StaffCaller>, ticketId: string, opts: { lock?: boolean } = {}): Promise<Ticket> {
  if (opts.lock) {
    await inOrder(ctx as TxCtx, TICKETS_CHANGED, ticketId);
    await rows(ctx, sql`SELECT id FROM ticket WHERE id = ${ticketId} FOR UPDATE`);
  }
  const found = await ctx.db.ticket.findUnique({ where: { id: ticketId } });
  if (!found) throw notFound('No such ticket.');
  return found;
}

/**
 * Records a step of the ticket (it is already written in its new state): the history row, the
 * webhook topic (`ticket.created` for its first state, else `ticket.changed`) and the live row.
 */
export async function recordStep(
  tx: TxCtx,
  ticket: Ticket,
  step: { from: string | null; by: Author; part: ConversationPart; externalId: string },
): Promise<TicketStateChange> {
  // The ticket's row is new or locked (ticketById): its steps are numbered one at a time.
  const seq = (await tx.db.ticketStateChange.count({ where: { ticketId: ticket.id } })) + 1;
  const change = await tx.db.ticketStateChange.create({
    data: {
      id: randomUUID(),
      appModeId: ticket.appModeId,
      ticketId: ticket.id,
      seq,
      fromState: step.from,
      toState: ticket.state,
      byKind: step.by.kind,
      byId: step.by.id,
      byName: step.by.name,
      partId: step.part.id,
      at: ticket.updatedAt,
    },
  });
  const data = {
    ticket_id: ticket.id,
    conversation_id: ticket.conversationId,
    state: ticket.state,
    ...(step.from === null ? {} : { previous_state: step.from }),
  };
  await emit(tx, step.from === null ? TICKET_CREATED : TICKET_CHANGED, { appModeId: ticket.appModeId, externalId: step.externalId, data });
  await ticketChanged(tx, ticket, change, step.externalId);
  return change;
}
