import type { Conversation } from '../../generated/prisma/client.js';
import { transaction, type Ctx, type StaffCaller, type SystemCaller } from '../context.js';
import { conversationForWrite } from './conversation.js';
import { addPart } from '../conversations/parts.js';
import { conflict, invalidField } from '../errors.js';
import { emit } from '../outbox.js';
import { authorOf } from './staff-author.js';

// Snoozing puts a conversation aside until a time: it leaves the open view and comes back by
// itself, woken by a durable timer (the `conversation-wake` process, started from the outbox row
// this writes), or sooner when the person writes or a team member replies. A line for the team
// says who snoozed it until when, and when it woke.

export const SNOOZED = 'conversation.snoozed';
/** How far ahead a snooze may reach. */
export const MAX_SNOOZE_DAYS = 365;

export async function snoozeConversation(ctx: Ctx<StaffCaller>, conversationId: string, until: Date): Promise<Conversation> {
  const now = ctx.clock.now();
  if (Number.isNaN(until.getTime()) || until <= now) throw invalidField('until', 'must be a time to come');
  if (until.getTime() - now.getTime() > MAX_SNOOZE_DAYS * 86_400_000) throw invalidField('until', `must be within ${MAX_SNOOZE_DAYS} days`);
  const author = authorOf(ctx);
  return transaction(ctx, async (tx) => {
    const conversation = await conversationForWrite(tx, conversationId);
    if (conversation.state === 'closed') throw conflict('conversation_closed', 'A closed conversation cannot be snoozed; reopen it first.');
    await tx.db.conversation.update({
      where: { id: conversation.id },
      data: { state: 'snoozed', snoozedUntil: until, updatedAt: tx.clock.now() },
    });
    const part = await addPart(tx, conversation, {
      kind: 'event',
      event: 'snoozed',
      internal: true,
      author,
      text: `${author.name} snoozed the conversation until ${until.toISOString()}`,
      data: { until: until.toISOString() },
      preview: null,
    });
    // The run's id is the line's: each snooze has its own timer; an earlier one wakes nothing.
    await emit(tx, SNOOZED, {
      appModeId: conversation.appModeId,
      data: { conversation_id: conversation.id, run_id: part.id, until: until.toISOString() },
    });
    return tx.db.conversation.findUniqueOrThrow({ where: { id: conversation.id } });
  });
}

/**
 * The timer's step: wakes the conversation if it is still snoozed until that very time (a later
 * snooze, a reply or a close made meanwhile leave it be). Whether it woke it. Safe to run twice.
 */
export async function wakeConversation(
  ctx: Ctx<SystemCaller>,
  input: { appModeId: string; conversationId: string; until: string },
): Promise<boolean> {
  return transaction(ctx, async (tx) => {
    const { count } = await tx.db.conversation.updateMany({
      where: { id: input.conversationId, appModeId: input.appModeId, state: 'snoozed', snoozedUntil: new Date(input.until) },
      data: { state: 'open', snoozedUntil: null, updatedAt: tx.clock.now() },
    });
    if (count === 0) return false;
    const conversation = await tx.db.conversation.findUniqueOrThrow({ where: { id: input.conversationId } });
    await addPart(tx, conversation, {
      kind: 'event',
      event: 'woke',
      internal: true,
      author: { kind: 'system', id: null, name: 'Snooze' },
      text: 'The snooze ended',
      preview: null,
    });
    return true;
  });
}
