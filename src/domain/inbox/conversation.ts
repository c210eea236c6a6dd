import type { Conversation } from '../../generated/prisma/client.js';
import type { Ctx, StaffCaller } from '../context.js';
import { notFound } from '../errors.js';

/**
 * A conversation by its id, for a team member whose access to it was checked (the staff API's
 * declared permission on `{ conversationId }` found it in one of their workspaces).
 */
export async function conversationById(ctx: Ctx<StaffCaller>, conversationId: string): Promise<Conversation> {
  const found = await ctx.db.conversation.findUnique({ where: { id: conversationId } });
  if (!found) throw notFound('No such conversation.');
  return found;
}
