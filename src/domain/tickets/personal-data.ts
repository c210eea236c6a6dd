import { keyset, pagedMember, type PersonalDataArea } from '../personal-data/registry.js';
import { stateIn } from './states.js';

// A person's tickets: each with its type, title, description, state (by the label they see), every
// step and its times, read a page of tickets at a time while the export is written. Erased before
// their conversations (the personal-data registry's order).

const labelOf = (type: Parameters<typeof stateIn>[0], key: string) => stateIn(type, key)?.label ?? key;

export const ticketData: PersonalDataArea = {
  name: 'tickets',
  tables: ['ticket', 'ticket_state_change'],
  async exportOf({ db }, { appModeId, externalId }) {
    const tickets = await pagedMember(
      (last: { id: string } | undefined, take) =>
        db.ticket.findMany({
          where: { appModeId, contact: { appModeId, externalId } },
          orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
          include: { type: true, changes: { orderBy: { seq: 'asc' } } },
          ...keyset(last && { id: last.id }, take),
        }),
      (t) => ({
        id: t.id,
        number: t.number,
        type: t.type.name,
        title: t.title,
        description: t.description,
        state: t.state,
        stateLabel: labelOf(t.type, t.state),
        conversationId: t.conversationId,
        createdAt: t.createdAt.toISOString(),
        updatedAt: t.updatedAt.toISOString(),
        history: t.changes.map((c) => ({ from: c.fromState, to: c.toState, label: labelOf(t.type, c.toState), at: c.at.toISOString() })),
      }),
    );
    return tickets && { tickets };
  },
  async erase({ db: tx }, { externalId, appModeIds }) {
    const tickets = (
      await tx.ticket.findMany({
        where: { appModeId: { in: appModeIds }, contact: { appModeId: { in: appModeIds }, externalId } },
        select: { id: true },
      })
    ).map((t) => t.id);
    const { count: ticketStateChanges } = await tx.ticketStateChange.deleteMany({ where: { ticketId: { in: tickets } } });
    const { count: removed } = await tx.ticket.deleteMany({ where: { id: { in: tickets } } });
    return { tickets: removed, ticketStateChanges };
  },
};
