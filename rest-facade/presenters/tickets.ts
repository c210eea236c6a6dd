import type { z } from 'zod';
import type { TicketStateChange } from '../../src/generated/prisma/client.js';
import type { Ctx } from '../../src/domain/context.js';
import type { SeenTicket, TicketWithType } from '../../src/domain/tickets/own.js';
import { stateIn, statesOf } from '../../src/domain/tickets/states.js';
import type { SupportTicket, TicketSummary } from '../guest/tickets.schemas.js';
import { presentConversation } from './conversations.js';

// The person's tickets as the guest routes answer them (the messenger home's included).

const presentState = (type: TicketWithType['type'], key: string) => {
  const state = stateIn(type, key);
  return { key, label: state?.label ?? key, final: state?.final ?? false };
};

export const presentTicketSummary = (t: TicketWithType): z.input<typeof TicketSummary> => ({
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

export const presentTicket = async (
  context: Ctx,
  { ticket, history, conversation }: SeenTicket,
): Promise<z.input<typeof SupportTicket>> => ({
  ...presentTicketSummary(ticket),
  description: ticket.description,
  states: statesOf(ticket.type).map((s) => ({ key: s.key, label: s.label, final: s.final, current: s.key === ticket.state })),
  history: history.map((step) => presentStep(ticket.type, step)),
  conversation: await presentConversation(context, conversation),
});
