import type { Conversation } from '../../generated/prisma/client.js';
import { transaction, type Ctx, type StaffCaller } from '../context.js';
import { conversationForWrite } from './conversation.js';
import { addPart } from '../conversations/parts.js';
import { invalidField } from '../errors.js';
import { authorOf } from './staff-author.js';

// Assigning a conversation to a team member, a team, both, or nobody. The member must belong to
// the conversation's workspace and the team be one of its teams; a line (for the team only) says
// who did it. Assigning it as it already is changes nothing.

export interface Assignment {
  /** A staff user id; null: nobody. Left out: unchanged. */
  assigneeId?: string | null;
  /** A team id; null: no team. Left out: unchanged. */
  teamId?: string | null;
}

export async function assignConversation(ctx: Ctx<StaffCaller>, conversationId: string, to: Assignment): Promise<Conversation> {
  const author = authorOf(ctx);
  return transaction(ctx, async (tx) => {
    const conversation = await conversationForWrite(tx, conversationId);
    const { app } = await tx.db.appMode.findUniqueOrThrow({
      where: { id: conversation.appModeId },
      select: { app: { select: { workspaceId: true } } },
    });
    let assigneeName: string | null = null;
    if (to.assigneeId) {
      const member = await tx.db.membership.findUnique({
        where: { workspaceId_staffUserId: { workspaceId: app.workspaceId, staffUserId: to.assigneeId } },
        select: { staffUser: { select: { name: true } } },
      });
      if (!member) throw invalidField('assigneeId', 'is not a member of the workspace');
      assigneeName = member.staffUser.name;
    }
    let teamName: string | null = null;
    if (to.teamId) {
      const team = await tx.db.team.findFirst({ where: { id: to.teamId, workspaceId: app.workspaceId } });
      if (!team) throw invalidField('teamId', 'is not a team of the workspace');
      teamName = team.name;
    }
    const next = {
      assigneeId: to.assigneeId === undefined ? conversation.assigneeId : to.assigneeId,
      teamId: to.teamId === undefined ? conversation.teamId : to.teamId,
    };
    if (next.assigneeId === conversation.assigneeId && next.teamId === conversation.teamId) return conversation;
    await tx.db.conversation.update({ where: { id: conversation.id }, data: { ...next, updatedAt: tx.clock.now() } });
    const whom = [
      ...(to.assigneeId !== undefined ? [assigneeName ?? 'nobody'] : []),
      ...(to.teamId !== undefined ? [teamName ? `the ${teamName} team` : 'no team'] : []),
    ];
    await addPart(tx, conversation, {
      kind: 'event',
      event: 'assigned',
      internal: true,
      author,
      text: `${author.name} assigned the conversation to ${whom.join(' and ')}`,
      data: next,
      preview: null,
    });
    return tx.db.conversation.findUniqueOrThrow({ where: { id: conversation.id } });
  });
}
