import { randomUUID } from 'node:crypto';
import type { InAppMessage, InAppState } from '../../generated/prisma/client.js';
import { transaction, type Ctx, type StaffCaller } from '../context.js';
import { conflict, invalidField, notFound } from '../errors.js';
import type { Kind } from './content.js';
import { forgetLive } from './live-messages.js';
import { readMessageInput, type MessageInput } from './message-input.js';
import { rows, sql } from '../../db/sql.js';

// Staff write messages: made as drafts, changed while not ended, moved through their states, and
// deleted while they are drafts. Every change reaches check-ins at once in this process and within
// milliseconds in the others (live.ts). The fields of the staff API declare who may call these.

/** draft → live ⇄ paused → ended; a draft may also end. */
const NEXT: Record<InAppState, readonly InAppState[]> = {
  draft: ['live', 'ended'],
  live: ['paused', 'ended'],
  paused: ['live', 'ended'],
  ended: [],
};

export const MAX_MESSAGES = 1000;

export async function messageIn(ctx: Ctx, id: string): Promise<InAppMessage> {
  const found = await ctx.db.inAppMessage.findUnique({ where: { id } });
  if (!found) throw notFound('No such message.');
  return found;
}

export async function createMessage(
  ctx: Ctx<StaffCaller>,
  appModeId: string,
  kind: Kind,
  input: MessageInput & { name: string },
): Promise<InAppMessage> {
  if (input.content === undefined && input.variants === undefined) throw invalidField('content', 'is required (or give variants)');
  const data = await readMessageInput(ctx, appModeId, kind, input);
  const now = ctx.clock.now();
  const made = await transaction(ctx, async (tx) => {
    const count = await tx.db.inAppMessage.count({ where: { appModeId, state: { not: 'ended' } } });
    if (count >= MAX_MESSAGES) throw conflict('message_limit', `An app-mode has at most ${MAX_MESSAGES} messages that have not ended.`);
    return tx.db.inAppMessage.create({
      data: {
        ...data,
        variants: data.variants!,
        id: randomUUID(),
        appModeId,
        kind,
        name: input.name.trim(),
        createdAt: now,
        updatedAt: now,
      },
    });
  });
  return made;
}

export async function changeMessage(ctx: Ctx<StaffCaller>, id: string, input: MessageInput): Promise<InAppMessage> {
  const current = await messageIn(ctx, id);
  if (current.state === 'ended') throw conflict('message_ended', 'An ended message does not change.');
  const data = await readMessageInput(ctx, current.appModeId, current.kind, input, current);
  const changed = await ctx.db.inAppMessage.update({ where: { id }, data: { ...data, updatedAt: ctx.clock.now() } });
  forgetLive(ctx, current.appModeId);
  return changed;
}

export async function setMessageState(ctx: Ctx<StaffCaller>, id: string, state: InAppState): Promise<InAppMessage> {
  const changed = await transaction(ctx, async (tx) => {
    const [current] = await rows<{ state: InAppState }>(tx, sql`SELECT state FROM inapp_message WHERE id = ${id} FOR UPDATE`);
    if (!current) throw notFound('No such message.');
    if (current.state === state) return messageIn(tx, id);
    if (!NEXT[current.state].includes(state)) throw conflict('state_change_refused', `A ${current.state} message cannot become ${state}.`);
    const now = tx.clock.now();
    return tx.db.inAppMessage.update({
      where: { id },
      data: {
        state,
        updatedAt: now,
        ...(state === 'live' ? { liveAt: (await messageIn(tx, id)).liveAt ?? now } : {}),
        ...(state === 'ended' ? { endedAt: now } : {}),
      },
    });
  });
  forgetLive(ctx, changed.appModeId);
  return changed;
}

/** A draft is deleted; a message that has been live keeps its receipts and is ended instead. */
export async function deleteMessage(ctx: Ctx<StaffCaller>, id: string): Promise<void> {
  const current = await messageIn(ctx, id);
  if (current.state !== 'draft') throw conflict('message_not_draft', 'Only a draft is deleted; end a message that has been live.');
  await ctx.db.inAppMessage.deleteMany({ where: { id, state: 'draft' } });
}
