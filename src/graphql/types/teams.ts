import type { StaffUser } from '../../generated/prisma/client.js';
import { changeTeamMembers, createTeam, removeTeam, renameTeam } from '../../domain/teams/teams.js';
import { batchLoad } from '../batch.js';
import { builder, connectionType } from '../builder.js';
import { asStaff, type StaffContext } from '../context.js';
import { StaffUserRef } from './staff.js';

// Teams of a workspace, that conversations are assigned to. Any member reads them; owners and
// admins (manage_settings) make, rename and remove them and choose their members.

/** Staff users by id, read together for every field of a request that names one. */
export const staffUserById = (ctx: StaffContext, id: string) =>
  batchLoad<StaffUser | undefined>(
    ctx,
    'staffUserById',
    id,
    async (ids) => new Map((await ctx.svc.db.staffUser.findMany({ where: { id: { in: [...ids] } } })).map((u) => [u.id, u])),
  );

const TeamMember = builder.prismaObject('TeamMember', {
  fields: (t) => ({
    staffUser: t.field({
      type: StaffUserRef,
      nullable: true,
      resolve: async (m, _args, ctx) => (await staffUserById(ctx, m.staffUserId)) ?? null,
    }),
    addedAt: t.expose('addedAt', { type: 'DateTime' }),
  }),
});

export const Team = builder.prismaObject('Team', {
  fields: (t) => ({
    id: t.exposeID('id'),
    workspaceId: t.exposeID('workspaceId'),
    name: t.exposeString('name'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    members: t.relatedConnection(
      'members',
      {
        cursor: 'teamId_staffUserId',
        description: 'In the order they were added.',
        query: { orderBy: [{ addedAt: 'asc' }, { staffUserId: 'asc' }] },
      },
      connectionType(TeamMember, 'TeamMember'),
    ),
  }),
});

builder.queryField('teams', (t) =>
  t.prismaConnection(
    {
      type: 'Team',
      cursor: 'id',
      description: 'The workspace’s teams (at most 100), by name.',
      args: { workspaceId: t.arg.id({ required: true }) },
      authScopes: (_root, { workspaceId }) => ({ read: { workspaceId } }),
      resolve: (query, _root, { workspaceId }, ctx) =>
        ctx.svc.db.team.findMany({ ...query, where: { workspaceId }, orderBy: [{ name: 'asc' }, { id: 'asc' }] }),
    },
    connectionType(Team, 'Team'),
  ),
);

builder.mutationField('createTeam', (t) =>
  t.prismaField({
    type: 'Team',
    description: 'A new team (at most 100 per workspace, names unique in it); members must belong to the workspace.',
    args: { workspaceId: t.arg.id({ required: true }), name: t.arg.string({ required: true }), memberIds: t.arg.idList() },
    authScopes: (_root, { workspaceId }) => ({ manage_settings: { workspaceId } }),
    resolve: (_query, _root, { workspaceId, name, memberIds }, ctx) =>
      createTeam(asStaff(ctx), workspaceId, { name, memberIds: memberIds?.map(String) }),
  }),
);

builder.mutationField('renameTeam', (t) =>
  t.prismaField({
    type: 'Team',
    args: { workspaceId: t.arg.id({ required: true }), teamId: t.arg.id({ required: true }), name: t.arg.string({ required: true }) },
    authScopes: (_root, { workspaceId }) => ({ manage_settings: { workspaceId } }),
    resolve: (_query, _root, { workspaceId, teamId, name }, ctx) => renameTeam(asStaff(ctx), workspaceId, teamId, name),
  }),
);

builder.mutationField('changeTeamMembers', (t) =>
  t.prismaField({
    type: 'Team',
    args: { workspaceId: t.arg.id({ required: true }), teamId: t.arg.id({ required: true }), add: t.arg.idList(), remove: t.arg.idList() },
    authScopes: (_root, { workspaceId }) => ({ manage_settings: { workspaceId } }),
    resolve: (_query, _root, { workspaceId, teamId, add, remove }, ctx) =>
      changeTeamMembers(asStaff(ctx), workspaceId, teamId, { add: add?.map(String), remove: remove?.map(String) }),
  }),
);

builder.mutationField('removeTeam', (t) =>
  t.boolean({
    description: 'Removes the team; its conversations keep their assignee, without a team.',
    args: { workspaceId: t.arg.id({ required: true }), teamId: t.arg.id({ required: true }) },
    authScopes: (_root, { workspaceId }) => ({ manage_settings: { workspaceId } }),
    resolve: async (_root, { workspaceId, teamId }, ctx) => {
      await removeTeam(asStaff(ctx), workspaceId, teamId);
      return true;
    },
  }),
);
