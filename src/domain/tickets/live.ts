import type { OutboxRow } from '../../db/outbox-dispatcher.js';
import type { Ticket, TicketStateChange } from '../../generated/prisma/client.js';
import type { Ctx, TxCtx } from '../context.js';
import { liveTopic, type RowChange } from '../live-topic.js';
import { emit } from '../outbox.js';

// Tickets, live: every change of a ticket (made, moved) is a `tickets.changed` row written with the
// change, carrying the ticket and its step as the change left them. Staff tools of every server
// process hear it in order, once, without a read per subscriber. An internal topic, never posted
// to webhooks (those are ticket.created and ticket.changed, with ids only).

export const TICKETS_CHANGED = 'tickets.changed';

export interface TicketChange {
  /** Name it as `after` to resume from here. */
  version: string;
  /** The subscriber had nothing to resume from (or too old a version): read the lists again. */
  reload: boolean;
  /** The ticket as the change left it (null on reload). */
  ticket: Ticket | null;
  /** The step the change made: the ticket's first state, or a move (null on reload). */
  step: TicketStateChange | null;
}

const TICKET_DATES = ['createdAt', 'updatedAt'] as const;
const STEP_DATES = ['at'] as const;

const json = (row: object, dates: readonly string[]) =>
  Object.fromEntries(Object.entries(row).map(([k, v]) => [k, dates.includes(k) && v instanceof Date ? v.toISOString() : v]));
const revive = <T>(data: Record<string, unknown>, dates: readonly string[]) =>
  Object.fromEntries(Object.entries(data).map(([k, v]) => [k, dates.includes(k) && typeof v === 'string' ? new Date(v) : v])) as T;

/**
 * Tells staff tools of a change, in the change's transaction (which called `inOrder` on the ticket
 * first). The row names the person, so erasing them removes it with their other rows.
 */
export async function ticketChanged(tx: TxCtx, ticket: Ticket, step: TicketStateChange, externalId: string): Promise<void> {
  await emit(tx, TICKETS_CHANGED, {
    appModeId: ticket.appModeId,
    externalId,
    data: { ticket: json(ticket, TICKET_DATES), step: json(step, STEP_DATES) },
  });
}

/** What a row tells, made once per process for every subscriber (see RowChange). */
const changeOf: RowChange<TicketChange & { ticket: Ticket }> = (row, version) => {
  const data = row.data as { ticket: Record<string, unknown>; step: Record<string, unknown> };
  return { version, reload: false, ticket: revive(data.ticket, TICKET_DATES), step: revive(data.step, STEP_DATES) };
};

/**
 * The app-mode's ticket changes as they commit, on any server process (only those of one type
 * when `typeId` is given): first a reload (or, with `after`, each change since that version), then
 * each change, until the signal is aborted.
 */
export async function* ticketChanges(
  ctx: Ctx,
  appModeId: string,
  opts: { after?: string | null; signal: AbortSignal; typeId?: string },
): AsyncGenerator<TicketChange> {
  for await (const event of liveTopic(ctx, TICKETS_CHANGED, appModeId, {
    after: opts.after,
    signal: opts.signal,
    read: async () => null,
    change: changeOf,
  })) {
    if (event.reload) {
      yield { version: event.version, reload: true, ticket: null, step: null };
      continue;
    }
    if (!opts.typeId || event.change.ticket.typeId === opts.typeId) yield event.change;
  }
}
