import { transaction, type Ctx, type TxCtx } from '../context.js';
import { conflict, notFound } from '../errors.js';
import { emit, MEMBERSHIP_CHANGED, SERVICE_WIDE } from '../outbox.js';
import type { Role } from './roles.js';
import { leaveTeams } from '../teams/teams.js';
import { rows, sql } from '../../db/sql.js';

// Who belongs to a workspace and as what (people join by invitation: invitations.ts). A workspace
// always keeps at least one owner: the owners' count is read under a lock on the workspace row,
// so two owners demoting each other at once cannot both succeed.

export async function setMemberRole(ctx: Ctx, input: { workspaceId: string; staffUserId: string; role: Role }): Promise<void> {
  await transaction(ctx, async (tx) => {
    const member = await lockedMember(tx, input.workspaceId, input.staffUserId);
    if (member.role === 'owner' && input.role !== 'owner') await keepAnOwner(tx, input.workspaceId);
    await tx.db.membership.update({
      where: { workspaceId_staffUserId: { workspaceId: input.workspaceId, staffUserId: input.staffUserId } },
      data: { role: input.role },
    });
    await membershipChanged(tx, input.workspaceId, input.staffUserId, input.role);
  });
}

export async function removeMember(ctx: Ctx, input: { workspaceId: string; staffUserId: string }): Promise<void> {
  await transaction(ctx, async (tx) => {
    const member = await lockedMember(tx, input.workspaceId, input.staffUserId);
    if (member.role === 'owner') await keepAnOwner(tx, input.workspaceId);
    await tx.db.membership.delete({
      where: { workspaceId_staffUserId: { workspaceId: input.workspaceId, staffUserId: input.staffUserId } },
    });
    await leaveTeams(tx, input.workspaceId, input.staffUserId);
    await membershipChanged(tx, input.workspaceId, input.staffUserId, null);
  });
}

/** The notice that narrows (a new role) or ends (null: removed) the member's live subscriptions in every server process. */
const membershipChanged = (tx: TxCtx, workspaceId: string, staffUserId: string, role: Role | null) =>
  emit(tx, MEMBERSHIP_CHANGED, { appModeId: SERVICE_WIDE, data: { workspaceId, staffUserId, role } });

/** Serializes changes to who belongs to a workspace, until the transaction ends. */
export async function lockWorkspace(tx: TxCtx, workspaceId: string): Promise<void> {
  await rows(tx, sql`SELECT id FROM workspace WHERE id = ${workspaceId} FOR UPDATE`);
}

async function lockedMember(tx: TxCtx, workspaceId: string, staffUserId: string) {
  await lockWorkspace(tx, workspaceId);
  const member = await tx.db.membership.findUnique({ where: { workspaceId_staffUserId: { workspaceId, staffUserId } } });
  if (!member) throw notFound('No such member.');
  return member;
}

/** Refuses when the member about to stop being an owner is the last one. */
async function keepAnOwner({ db }: TxCtx, workspaceId: string): Promise<void> {
  const owners = await db.membership.count({ where: { workspaceId, role: 'owner' } });
  if (owners <= 1) throw conflict('last_owner', 'A workspace keeps at least one owner: make another member owner first.');
}
