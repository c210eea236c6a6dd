import { randomUUID } from 'node:crypto';
import type { Team } from '../../generated/prisma/client.js';
import { transaction, type Ctx, type TxCtx } from '../context.js';
import { conflict, invalidField, notFound } from '../errors.js';
import { lock } from '../locks.js';

// Teams of a workspace: a name and members (staff users who belong to the workspace). A
// conversation is assigned to a team, a member, or both. The caller checked who may act on the
// workspace; ids of another workspace are not found.

export const MAX_TEAMS = 100;
export const MAX_TEAM_NAME = 60;

function teamName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > MAX_TEAM_NAME) throw invalidField('name', `must be 1 to ${MAX_TEAM_NAME} characters`);
  return trimmed;
}

export async function teamOf(ctx: Ctx, workspaceId: string, teamId: string): Promise<Team> {
  const team = await ctx.db.team.findFirst({ where: { id: teamId, workspaceId } });
  if (!team) throw notFound('No such team.');
  return team;
}

export async function createTeam(ctx: Ctx, workspaceId: string, input: { name: string; memberIds?: string[] }): Promise<Team> {
  const name = teamName(input.name);
  return transaction(ctx, async (tx) => {
    // One team at a time per workspace, so the count and the unique name hold under concurrent adds.
    await lock(tx, 'team', workspaceId);
    if ((await tx.db.team.count({ where: { workspaceId } })) >= MAX_TEAMS)
      throw conflict('team_limit', `A workspace has at most ${MAX_TEAMS} teams.`);
    if (await tx.db.team.findFirst({ where: { workspaceId, name } }))
      throw conflict('team_name_taken', 'Another team of the workspace has this name.');
    const team = await tx.db.team.create({ data: { id: randomUUID(), workspaceId, name, createdAt: tx.clock.now() } });
    if (input.memberIds?.length) await addMembers(tx, team, input.memberIds);
    return team;
  });
}

export async function renameTeam(ctx: Ctx, workspaceId: string, teamId: string, name: string): Promise<Team> {
  const newName = teamName(name);
  return transaction(ctx, async (tx) => {
    await lock(tx, 'team', workspaceId);
    const team = await teamOf(tx, workspaceId, teamId);
    if (await tx.db.team.findFirst({ where: { workspaceId, name: newName, id: { not: team.id } } }))
      throw conflict('team_name_taken', 'Another team of the workspace has this name.');
    return tx.db.team.update({ where: { id: team.id }, data: { name: newName } });
  });
}

/** Removes the team; its conversations stay with their assignee, without a team. */
export async function removeTeam(ctx: Ctx, workspaceId: string, teamId: string): Promise<void> {
  await transaction(ctx, async (tx) => {
    const team = await teamOf(tx, workspaceId, teamId);
    await tx.db.conversation.updateMany({ where: { teamId: team.id }, data: { teamId: null } });
    await tx.db.team.delete({ where: { id: team.id } });
  });
}

/** Adds and removes members; each added id must be a member of the team's workspace (field `add.<i>`). */
export async function changeTeamMembers(
  ctx: Ctx,
  workspaceId: string,
  teamId: string,
  change: { add?: string[]; remove?: string[] },
): Promise<Team> {
  return transaction(ctx, async (tx) => {
    const team = await teamOf(tx, workspaceId, teamId);
    if (change.add?.length) await addMembers(tx, team, change.add, 'add');
    if (change.remove?.length) await tx.db.teamMember.deleteMany({ where: { teamId: team.id, staffUserId: { in: change.remove } } });
    return team;
  });
}

async function addMembers(tx: TxCtx, team: Team, staffUserIds: string[], field = 'memberIds'): Promise<void> {
  const members = new Set(
    (
      await tx.db.membership.findMany({
        where: { workspaceId: team.workspaceId, staffUserId: { in: staffUserIds } },
        select: { staffUserId: true },
      })
    ).map((m) => m.staffUserId),
  );
  const stranger = staffUserIds.findIndex((id) => !members.has(id));
  if (stranger >= 0) throw invalidField(`${field}.${stranger}`, 'is not a member of the workspace');
  await tx.db.teamMember.createMany({
    data: staffUserIds.map((staffUserId) => ({ teamId: team.id, staffUserId, addedAt: tx.clock.now() })),
    skipDuplicates: true,
  });
}

/** A member who leaves the workspace leaves its teams too (in the caller's transaction). */
export async function leaveTeams(tx: TxCtx, workspaceId: string, staffUserId: string): Promise<void> {
  await tx.db.teamMember.deleteMany({ where: { staffUserId, team: { workspaceId } } });
}
