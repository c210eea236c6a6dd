import type { Conversation } from '../../generated/prisma/client.js';
import type { Ctx, StaffCaller, TxCtx } from '../context.js';
import { holdConversation } from '../conversations/conversations.js';
import { notFound } from '../errors.js';

/**
 * A conversation by its id, for a team member whose access to it was checked (the staff API's
 * declared permission on `{ conversationId }` found it in one of their workspaces).
 */
export async function conversationById(ctx: Ctx<StaffCaller>, conversationId: string): Promise<Conversation> {
  // Not of a person being erased (beingErased): as gone already.
  const found = await ctx.db.conversation.findUnique({ where: { id: conversationId, contact: { eraseRequestedAt: null } } });
  if (!found) throw notFound('No such conversation.');
  return found;
}

/** The same, held for a team member's write until the transaction ends (holdConversation: the person first, as an erase). */
export const conversationForWrite = (tx: TxCtx<StaffCaller>, conversationId: string): Promise<Conversation> =>
  holdConversation(tx, conversationId);
