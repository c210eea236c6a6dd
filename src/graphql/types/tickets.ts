import { createTicket, createTicketFromConversation } from '../../domain/tickets/create.js';
import { ticketChanges, type TicketChange } from '../../domain/tickets/live.js';
import { moveTicket } from '../../domain/tickets/move.js';
import { stateIn, statesOf, type TicketState } from '../../domain/tickets/states.js';
import { ticketById } from '../../domain/tickets/ticket.js';
import { addTicketType, archiveTicketType, changeTicketType } from '../../domain/tickets/types.js';
import { builder, connectionType } from '../builder.js';
import { asStaff } from '../context.js';
import { liveFor } from '../subscription-access.js';

// Tickets on the staff side: ticket types with their states (owners and admins manage them), tickets
// made from a conversation or with one of their own, moved from state to state, listed by type and
// state, one with its conversation and history, and their changes live. Members read, make and move.

const TicketStateRef = builder.objectRef<TicketState>('TicketState').implement({
  description: 'One of a ticket type’s states, in the order staff gave them.',
  fields: (t) => ({
    key: t.exposeString('key', { description: 'What the API, webhooks (`state`) and the history name it.' }),
    label: t.exposeString('label', { description: 'What the person sees.' }),
    final: t.exposeBoolean('final', { description: 'The ticket is done once here (resolved, closed…).' }),
  }),
});

const TicketStateInput = builder.inputType('TicketStateInput', {
  fields: (t) => ({
    key: t.string({ required: true, description: '1 to 40 lowercase letters, digits or _, starting with a letter; unique in the list.' }),
    label: t.string({ required: true, description: 'What the person sees: 1 to 60 characters, unique in the list.' }),
    final: t.boolean({ defaultValue: false }),
  }),
});

const statesInput = (states: { key: string; label: string; final?: boolean | null }[]) =>
  states.map((s) => ({ key: s.key, label: s.label, final: s.final ?? false }));

export const TicketTypeRef = builder.prismaObject('TicketType', {
  fields: (t) => ({
    id: t.exposeID('id'),
    appModeId: t.exposeID('appModeId'),
    name: t.exposeString('name'),
    description: t.exposeString('description'),
    states: t.field({
      type: [TicketStateRef],
      description: 'In order; a new ticket starts in the first.',
      resolve: (type) => statesOf(type),
    }),
    archived: t.boolean({ resolve: (type) => type.archivedAt !== null }),
    archivedAt: t.expose('archivedAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

const TicketStepRef = builder.prismaObject('TicketStateChange', {
  name: 'TicketStep',
  description: 'One step of a ticket: made in its first state (`from` null), or moved.',
  fields: (t) => ({
    id: t.exposeID('id'),
    seq: t.exposeInt('seq', { description: 'Counts up from 1 within the ticket.' }),
    from: t.exposeString('fromState', { nullable: true }),
    to: t.exposeString('toState'),
    byKind: t.exposeString('byKind', { description: 'staff or system.' }),
    byId: t.exposeID('byId', { nullable: true, description: 'The staff user’s id.' }),
    byName: t.exposeString('byName', { description: 'As it was then.' }),
    partId: t.exposeID('partId', { nullable: true, description: 'The line in the conversation that says so.' }),
    at: t.expose('at', { type: 'DateTime' }),
  }),
});

const TicketStepConnection = connectionType(TicketStepRef, 'TicketStep');

export const TicketRef = builder.prismaObject('Ticket', {
  fields: (t) => ({
    id: t.exposeID('id'),
    appModeId: t.exposeID('appModeId'),
    number: t.exposeInt('number', { description: 'The short number the person and the team quote (#12): counts up per app-mode.' }),
    title: t.exposeString('title'),
    description: t.exposeString('description'),
    state: t.exposeString('state', { description: 'The key of its current state.' }),
    currentState: t.field({
      type: TicketStateRef,
      description: 'Its current state as its type defines it now.',
      select: { type: { select: { states: true } } },
      resolve: (ticket) => stateIn(ticket.type, ticket.state) ?? { key: ticket.state, label: ticket.state, final: false },
    }),
    type: t.relation('type'),
    contact: t.relation('contact'),
    conversation: t.relation('conversation', { description: 'The conversation it is worked in: reply there with replyToConversation.' }),
    history: t.relatedConnection(
      'changes',
      { cursor: 'id', description: 'Every step, oldest first.', query: { orderBy: { seq: 'asc' } } },
      TicketStepConnection,
    ),
    createdById: t.exposeID('createdById', { nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'Its last step.' }),
  }),
});

// A conversation's ticket, if one is worked in it: read with the conversation (its read permission).
builder.prismaObjectField('Conversation', 'ticket', (t) =>
  t.relation('ticket', { nullable: true, description: 'The ticket worked in this conversation, if any (one at most).' }),
);

const TicketTypeConnection = connectionType(TicketTypeRef, 'TicketType');
const TicketConnection = connectionType(TicketRef, 'Ticket');

// --- Ticket types (manage_settings to change) ---------------------------------------------------

builder.queryField('ticketTypes', (t) =>
  t.prismaConnection(
    {
      type: 'TicketType',
      cursor: 'id',
      description: 'The app-mode’s ticket types by name (at most 50); archived ones only when asked.',
      args: { appModeId: t.arg.id({ required: true }), includeArchived: t.arg.boolean({ defaultValue: false }) },
      authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
      resolve: (query, _root, { appModeId, includeArchived }, ctx) =>
        ctx.svc.db.ticketType.findMany({
          ...query,
          where: { appModeId, ...(includeArchived ? {} : { archivedAt: null }) },
          orderBy: [{ name: 'asc' }, { id: 'asc' }],
        }),
    },
    TicketTypeConnection,
  ),
);

builder.mutationField('addTicketType', (t) =>
  t.prismaField({
    type: 'TicketType',
    description: 'A new ticket type (at most 50 per app-mode, names unique in it) with its states in order.',
    args: {
      appModeId: t.arg.id({ required: true }),
      name: t.arg.string({ required: true }),
      description: t.arg.string(),
      states: t.arg({ type: [TicketStateInput], required: true }),
    },
    authScopes: (_root, { appModeId }) => ({ manage_settings: { appModeId } }),
    resolve: (_query, _root, { appModeId, name, description, states }, ctx) =>
      addTicketType(asStaff(ctx), appModeId, { name, description, states: statesInput(states) }),
  }),
);

builder.mutationField('changeTicketType', (t) =>
  t.prismaField({
    type: 'TicketType',
    description: 'Changes what is given. A state tickets are in cannot be taken out (ticket_state_in_use); labels and order change freely.',
    args: {
      id: t.arg.id({ required: true }),
      name: t.arg.string(),
      description: t.arg.string(),
      states: t.arg({ type: [TicketStateInput] }),
    },
    authScopes: (_root, { id }) => ({ manage_settings: { ticketTypeId: id } }),
    resolve: (_query, _root, { id, name, description, states }, ctx) =>
      changeTicketType(asStaff(ctx), id, {
        ...(name != null ? { name } : {}),
        ...(description !== undefined ? { description } : {}),
        ...(states != null ? { states: statesInput(states) } : {}),
      }),
  }),
);

builder.mutationField('archiveTicketType', (t) =>
  t.prismaField({
    type: 'TicketType',
    description: 'Archives the type: it takes no new tickets, and its tickets keep moving. `archived: false` brings it back.',
    args: { id: t.arg.id({ required: true }), archived: t.arg.boolean({ defaultValue: true }) },
    authScopes: (_root, { id }) => ({ manage_settings: { ticketTypeId: id } }),
    resolve: (_query, _root, { id, archived }, ctx) => archiveTicketType(asStaff(ctx), id, archived ?? true),
  }),
);

// --- Tickets (read to read; reply to make and move) -----------------------------------------------

builder.queryField('tickets', (t) =>
  t.prismaConnection(
    {
      type: 'Ticket',
      cursor: 'id',
      description: 'An app-mode’s tickets, the latest step first, by type, state and person.',
      args: {
        appModeId: t.arg.id({ required: true }),
        typeId: t.arg.id({ description: 'Only those of this type.' }),
        state: t.arg.string({ description: 'Only those in this state (a key).' }),
        contactId: t.arg.id({ description: 'Only those of this person (Contact.id).' }),
      },
      authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
      resolve: (query, _root, { appModeId, typeId, state, contactId }, ctx) =>
        ctx.svc.db.ticket.findMany({
          ...query,
          // Not of a person being erased (beingErased): as gone already.
          where: {
            appModeId,
            contact: { eraseRequestedAt: null },
            typeId: typeId ?? undefined,
            state: state ?? undefined,
            contactId: contactId ?? undefined,
          },
          orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
        }),
    },
    TicketConnection,
  ),
);

builder.queryField('ticket', (t) =>
  t.prismaField({
    type: 'Ticket',
    args: { id: t.arg.id({ required: true }) },
    authScopes: (_root, { id }) => ({ read: { ticketId: id } }),
    resolve: async (query, _root, { id }, ctx) =>
      ctx.svc.db.ticket.findUniqueOrThrow({ ...query, where: { id: (await ticketById(asStaff(ctx), id)).id } }),
  }),
);

builder.mutationField('createTicketFromConversation', (t) =>
  t.prismaField({
    type: 'Ticket',
    description:
      'A ticket worked in this conversation (one per conversation: conversation_has_ticket), in its type’s first state; a line the person sees says so.',
    args: {
      conversationId: t.arg.id({ required: true }),
      typeId: t.arg.id({ required: true }),
      title: t.arg.string({ required: true }),
      description: t.arg.string(),
    },
    authScopes: (_root, { conversationId }) => ({ reply: { conversationId } }),
    resolve: async (query, _root, { conversationId, typeId, title, description }, ctx) =>
      ctx.svc.db.ticket.findUniqueOrThrow({
        ...query,
        where: { id: (await createTicketFromConversation(asStaff(ctx), conversationId, { typeId, title, description })).id },
      }),
  }),
);

builder.mutationField('createTicket', (t) =>
  t.prismaField({
    type: 'Ticket',
    description: 'A ticket for a contact of the type’s app-mode, with a conversation of its own whose first line the person sees.',
    args: {
      contactId: t.arg.id({ required: true }),
      typeId: t.arg.id({ required: true }),
      title: t.arg.string({ required: true }),
      description: t.arg.string(),
    },
    authScopes: (_root, { typeId }) => ({ reply: { ticketTypeId: typeId } }),
    resolve: async (query, _root, { contactId, typeId, title, description }, ctx) =>
      ctx.svc.db.ticket.findUniqueOrThrow({
        ...query,
        where: { id: (await createTicket(asStaff(ctx), contactId, { typeId, title, description })).id },
      }),
  }),
);

builder.mutationField('moveTicket', (t) =>
  t.prismaField({
    type: 'Ticket',
    description:
      'Moves the ticket to another state of its type (on or back), with a line the person sees; to the state it is in, nothing changes.',
    args: { ticketId: t.arg.id({ required: true }), state: t.arg.string({ required: true }) },
    authScopes: (_root, { ticketId }) => ({ reply: { ticketId } }),
    resolve: async (query, _root, { ticketId, state }, ctx) =>
      ctx.svc.db.ticket.findUniqueOrThrow({ ...query, where: { id: (await moveTicket(asStaff(ctx), ticketId, state)).id } }),
  }),
);

const TicketChangeRef = builder.objectRef<TicketChange>('TicketChange').implement({
  description: 'One step of a tickets subscription: reload (read your lists again), or one change as it left the ticket.',
  fields: (t) => ({
    version: t.exposeString('version', { description: 'Increasing; name it as `after` to resume from here after a reconnect.' }),
    reload: t.exposeBoolean('reload', {
      description: 'Read the lists again: the first answer without `after`, or when `after` is older than the outbox keeps (7 days).',
    }),
    ticket: t.field({ type: TicketRef, nullable: true, description: 'As the change left it.', resolve: (c) => c.ticket }),
    step: t.field({
      type: TicketStepRef,
      nullable: true,
      description: 'The step the change made: its first state, or a move.',
      resolve: (c) => c.step,
    }),
  }),
});

builder.subscriptionField('ticketsChanged', (t) =>
  t.field({
    type: TicketChangeRef,
    description:
      'Every ticket made or moved in the app-mode (of one type when `typeId` is given), from any server process, in order. Ends with unauthenticated, not_found or role_forbids when the session or membership ends.',
    args: { appModeId: t.arg.id({ required: true }), typeId: t.arg.id(), after: t.arg.string() },
    authScopes: (_root, { appModeId }) => ({ read: { appModeId } }),
    subscribe: (_root, { appModeId, typeId, after }, ctx) =>
      liveFor(ctx, { appModeId }, 'read', (signal) =>
        ticketChanges(asStaff(ctx), appModeId, { after, signal, typeId: typeId ?? undefined }),
      ),
    resolve: (change) => change,
  }),
);
