import { randomUUID } from 'node:crypto';
import type { Conversation, Ticket, TicketType } from '../../generated/prisma/client.js';
import { transaction, type Ctx, type StaffCaller, type TxCtx } from '../context.js';
import { externalIdOf } from '../conversations/conversations.js';
import { addPart } from '../conversations/parts.js';
import { conflict, invalidField, notFound } from '../errors.js';
import { conversationForWrite } from '../inbox/conversation.js';
import { authorOf } from '../inbox/staff-author.js';
import { nextTicketNumber } from './numbers.js';
import { statesOf } from './states.js';
import { recordStep, ticketDescription, ticketTitle } from './ticket.js';
import { lockedType } from './types.js';
import { rows, sql } from '../../db/sql.js';

// A team member makes a ticket for a person: from one of their conversations (the ticket is worked
// there from then on; one ticket per conversation), or with a conversation of its own, made for it.
// Either way a line the person sees says so, and the ticket starts in its type's first state.

export interface NewTicket {
  typeId: string;
  title: string;
  description?: string | null;
}

/** The type, if it is one of the app-mode's and takes tickets (locked against a change of its states). */
async function typeFor(tx: TxCtx, appModeId: string, typeId: string): Promise<TicketType> {
  const type = await lockedType(tx, typeId, 'share');
  if (!type || type.appModeId !== appModeId) throw invalidField('typeId', 'is not a ticket type of this app');
  if (type.archivedAt) throw invalidField('typeId', 'is archived: it takes no new tickets');
  return type;
}

/** Writes the ticket in the conversation, with its line and its first step. */
async function openTicket(
  tx: TxCtx<StaffCaller>,
  conversation: Conversation,
  type: TicketType,
  input: { title: string; description: string },
  linePreview: boolean,
): Promise<Ticket> {
  const author = authorOf(tx);
  const first = statesOf(type)[0]!;
  const number = await nextTicketNumber(tx, conversation.appModeId);
  const now = tx.clock.now();
  const ticket = await tx.db.ticket.create({
    data: {
      id: randomUUID(),
      appModeId: conversation.appModeId,
      number,
      contactId: conversation.contactId,
      typeId: type.id,
      conversationId: conversation.id,
      title: input.title,
      description: input.description,
      state: first.key,
      createdById: author.id,
      createdAt: now,
      updatedAt: now,
    },
  });
  const part = await addPart(tx, conversation, {
    kind: 'event',
    event: 'ticket_created',
    author,
    text: `${author.name} opened ticket #${number}: ${input.title}`,
    data: { ticket_id: ticket.id, number, state: first.key, label: first.label },
    // A conversation made for the ticket is previewed by its line; another keeps its own preview.
    ...(linePreview ? {} : { preview: null }),
  });
  await recordStep(tx, ticket, { from: null, by: author, part, externalId: await externalIdOf(tx, conversation) });
  return ticket;
}

/** A ticket worked in an existing conversation (409 conversation_has_ticket when it has one). */
export async function createTicketFromConversation(ctx: Ctx<StaffCaller>, conversationId: string, input: NewTicket): Promise<Ticket> {
  const title = ticketTitle(input.title);
  const description = ticketDescription(input.description);
  return transaction(ctx, async (tx) => {
    // Held while the ticket is made: two tickets made from it at once find one another.
    const conversation = await conversationForWrite(tx, conversationId);
    const existing = await tx.db.ticket.findUnique({ where: { conversationId }, select: { number: true } });
    if (existing)
      throw conflict('conversation_has_ticket', `This conversation is ticket #${existing.number}'s; a conversation has one ticket.`);
    const type = await typeFor(tx, conversation.appModeId, input.typeId);
    return openTicket(tx, conversation, type, { title, description }, false);
  });
}

/** A ticket with a conversation of its own, for a contact of the type's app-mode. */
export async function createTicket(ctx: Ctx<StaffCaller>, contactId: string, input: NewTicket): Promise<Ticket> {
  const title = ticketTitle(input.title);
  const description = ticketDescription(input.description);
  return transaction(ctx, async (tx) => {
    const found = await tx.db.ticketType.findUnique({ where: { id: input.typeId }, select: { appModeId: true } });
    if (!found) throw notFound('No such ticket type.');
    const type = await typeFor(tx, found.appModeId, input.typeId);
    // Held against an erase of the person until this commits; the erase then removes what this made.
    const [contact] = await rows<{ id: string }>(
      tx,
      sql`SELECT id FROM contact WHERE id = ${contactId} AND app_mode_id = ${type.appModeId} FOR SHARE`,
    );
    if (!contact) throw invalidField('contactId', 'is not a contact of this app');
    const now = tx.clock.now();
    const conversation = await tx.db.conversation.create({
      data: {
        id: randomUUID(),
        appModeId: type.appModeId,
        contactId,
        state: 'open',
        lastActivityAt: now,
        visibleActivityAt: now,
        createdAt: now,
        updatedAt: now,
      },
    });
    return openTicket(tx, conversation, type, { title, description }, true);
  });
}
