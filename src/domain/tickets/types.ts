import { randomUUID } from 'node:crypto';
import type { Prisma, TicketType } from '../../generated/prisma/client.js';
import { transaction, type Ctx, type StaffCaller, type TxCtx } from '../context.js';
import { conflict, invalidField, notFound } from '../errors.js';
import { checkStates, statesOf, type TicketState } from './states.js';
import { rows, sql } from '../../db/sql.js';
import { lock } from '../locks.js';

// Ticket types of an app-mode: a name, a description and the states their tickets move through.
// Staff with manage_settings add, change and archive them (the caller checked the right); an
// archived type takes no new ticket, and its tickets keep moving. A type is never deleted: its
// tickets name it.

export const MAX_TICKET_TYPES = 50;
export const MAX_TYPE_NAME = 60;
export const MAX_TYPE_DESCRIPTION = 1_000;

export interface TicketTypeInput {
  name: string;
  description?: string | null;
  states: TicketState[];
}

export type TicketTypeChange = Partial<TicketTypeInput>;

function typeName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > MAX_TYPE_NAME) throw invalidField('name', `must be 1 to ${MAX_TYPE_NAME} characters`);
  return trimmed;
}

function typeDescription(description: string | null | undefined): string {
  const text = (description ?? '').trim();
  if (text.length > MAX_TYPE_DESCRIPTION) throw invalidField('description', `must be at most ${MAX_TYPE_DESCRIPTION} characters`);
  return text;
}

/** One change to an app-mode's types at a time, so the count and the unique name hold under concurrent requests. */
const lockTypes = (tx: TxCtx, appModeId: string) => lock(tx, 'ticket_types', appModeId);

async function refuseTakenName(tx: TxCtx, appModeId: string, name: string, id?: string): Promise<void> {
  const other = await tx.db.ticketType.findFirst({
    where: { appModeId, name: { equals: name, mode: 'insensitive' }, ...(id ? { id: { not: id } } : {}) },
    select: { id: true },
  });
  if (other) throw conflict('ticket_type_name_taken', `Another ticket type of this app (archived ones too) is named ${name}.`);
}

export async function addTicketType(ctx: Ctx<StaffCaller>, appModeId: string, input: TicketTypeInput): Promise<TicketType> {
  const name = typeName(input.name);
  const description = typeDescription(input.description);
  const states = checkStates(input.states);
  return transaction(ctx, async (tx) => {
    await lockTypes(tx, appModeId);
    if ((await tx.db.ticketType.count({ where: { appModeId } })) >= MAX_TICKET_TYPES)
      throw conflict('ticket_type_limit', `An app has at most ${MAX_TICKET_TYPES} ticket types.`);
    await refuseTakenName(tx, appModeId, name);
    const now = tx.clock.now();
    return tx.db.ticketType.create({
      data: {
        id: randomUUID(),
        appModeId,
        name,
        description,
        states: states as unknown as Prisma.InputJsonValue,
        createdAt: now,
        updatedAt: now,
      },
    });
  });
}

/**
 * The type, its row locked against a concurrent change of its states (`share`: a ticket made or
 * moved reads its states; `update`: a change of them); null when it is unknown.
 */
export async function lockedType(tx: TxCtx, typeId: string, lock: 'share' | 'update'): Promise<TicketType | null> {
  const found =
    lock === 'update'
      ? await rows<{ id: string }>(tx, sql`SELECT id FROM ticket_type WHERE id = ${typeId} FOR UPDATE`)
      : await rows<{ id: string }>(tx, sql`SELECT id FROM ticket_type WHERE id = ${typeId} FOR SHARE`);
  return found.length ? tx.db.ticketType.findUniqueOrThrow({ where: { id: typeId } }) : null;
}

/**
 * Changes what is given. A state that tickets are in cannot be taken out of the list (409
 * ticket_state_in_use); labels and order change freely, and tickets keep their state's key.
 */
export async function changeTicketType(ctx: Ctx<StaffCaller>, typeId: string, change: TicketTypeChange): Promise<TicketType> {
  const name = change.name === undefined ? undefined : typeName(change.name);
  const description = change.description === undefined ? undefined : typeDescription(change.description);
  const states = change.states === undefined ? undefined : checkStates(change.states);
  return transaction(ctx, async (tx) => {
    const found = await tx.db.ticketType.findUnique({ where: { id: typeId }, select: { appModeId: true } });
    if (!found) throw notFound('No such ticket type.');
    await lockTypes(tx, found.appModeId);
    const type = (await lockedType(tx, typeId, 'update'))!;
    if (name !== undefined) await refuseTakenName(tx, type.appModeId, name, type.id);
    if (states) {
      const kept = new Set(states.map((s) => s.key));
      const gone = statesOf(type)
        .filter((s) => !kept.has(s.key))
        .map((s) => s.key);
      const inUse = gone.length ? await tx.db.ticket.findFirst({ where: { typeId, state: { in: gone } }, select: { state: true } }) : null;
      if (inUse)
        throw conflict('ticket_state_in_use', `Tickets are in the state ${inUse.state}: move them on before taking it out of states.`);
    }
    return tx.db.ticketType.update({
      where: { id: type.id },
      data: {
        ...(name !== undefined ? { name } : {}),
        ...(description !== undefined ? { description } : {}),
        ...(states ? { states: states as unknown as Prisma.InputJsonValue } : {}),
        updatedAt: tx.clock.now(),
      },
    });
  });
}

/** Archives the type (no new tickets of it) or, with `archived` false, brings it back. */
export async function archiveTicketType(ctx: Ctx<StaffCaller>, typeId: string, archived = true): Promise<TicketType> {
  const now = ctx.clock.now();
  const type = await ctx.db.ticketType.findUnique({ where: { id: typeId } });
  if (!type) throw notFound('No such ticket type.');
  if (!!type.archivedAt === archived) return type;
  return ctx.db.ticketType.update({ where: { id: typeId }, data: { archivedAt: archived ? now : null, updatedAt: now } });
}
