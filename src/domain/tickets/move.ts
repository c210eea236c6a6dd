import type { Ticket } from '../../generated/prisma/client.js';
import { transaction, type Ctx, type StaffCaller } from '../context.js';
import { addPart } from '../conversations/parts.js';
import { invalidField } from '../errors.js';
import { authorOf } from '../inbox/staff-author.js';
import { stateIn, statesOf } from './states.js';
import { recordStep, ticketById } from './ticket.js';
import { lockedType } from './types.js';

// A team member moves a ticket to another of its type's states (on, or back): a line in its
// conversation tells the person where it has got to, by the label they see. Moving it to the state
// it is in changes nothing.

export async function moveTicket(ctx: Ctx<StaffCaller>, ticketId: string, state: string): Promise<Ticket> {
  const author = authorOf(ctx);
  return transaction(ctx, async (tx) => {
    const ticket = await ticketById(tx, ticketId, { lock: true });
    const type = (await lockedType(tx, ticket.typeId, 'share'))!;
    const target = stateIn(type, state);
    if (!target)
      throw invalidField(
        'state',
        `must be a state of the ticket's type: ${statesOf(type)
          .map((s) => s.key)
          .join(', ')}`,
      );
    if (ticket.state === state) return ticket;
    const moved = await tx.db.ticket.update({ where: { id: ticket.id }, data: { state, updatedAt: tx.clock.now() } });
    const conversation = await tx.db.conversation.findUniqueOrThrow({
      where: { id: ticket.conversationId },
      include: { contact: { select: { externalId: true } } },
    });
    const part = await addPart(tx, conversation, {
      kind: 'event',
      event: 'ticket_moved',
      author,
      text: `${author.name} moved ticket #${ticket.number} to ${target.label}`,
      data: { ticket_id: ticket.id, number: ticket.number, from: ticket.state, state, label: target.label, final: target.final },
      preview: null,
    });
    await recordStep(tx, moved, { from: ticket.state, by: author, part, externalId: conversation.contact.externalId });
    return moved;
  });
}
