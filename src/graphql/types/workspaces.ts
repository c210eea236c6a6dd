import { removeMember, setMemberRole } from '../../domain/staff/members.js';
import { builder, connectionType, StaffRole } from '../builder.js';
import { viewerOf, asStaff } from '../context.js';
import { AppConnection } from './apps.js';
import { MembershipConnection } from './staff.js';

// Workspaces and their members. Any member reads; only owners change who belongs (and invite:
// invitations.ts).

/** Members in the order they joined; the unique key breaks ties, as the cursor needs. */
const MEMBER_ORDER = [{ createdAt: 'asc' }, { staffUserId: 'asc' }] as const;
/** Workspaces and apps in the order they were made. */
const BY_CREATION = [{ createdAt: 'asc' }, { id: 'asc' }] as const;

const Workspace = builder.prismaObject('Workspace', {
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    apps: t.relatedConnection('apps', { cursor: 'id', query: { orderBy: [...BY_CREATION] } }, AppConnection),
    members: t.relatedConnection(
      'members',
      { cursor: 'workspaceId_staffUserId', query: { orderBy: [...MEMBER_ORDER] } },
      MembershipConnection,
    ),
  }),
});
const WorkspaceConnection = connectionType(Workspace, 'Workspace');

builder.queryField('workspaces', (t) =>
  t.prismaConnection(
    {
      type: 'Workspace',
      cursor: 'id',
      description: 'The workspaces the signed-in staff user belongs to.',
      resolve: (query, _root, _args, ctx) =>
        ctx.svc.db.workspace.findMany({
          ...query,
          where: { members: { some: { staffUserId: viewerOf(ctx).id } } },
          orderBy: [...BY_CREATION],
        }),
    },
    WorkspaceConnection,
  ),
);

builder.queryField('workspace', (t) =>
  t.prismaField({
    type: 'Workspace',
    args: { id: t.arg.id({ required: true }) },
    authScopes: (_root, { id }) => ({ read: { workspaceId: id } }),
    resolve: (query, _root, { id }, ctx) => ctx.svc.db.workspace.findUniqueOrThrow({ ...query, where: { id } }),
  }),
);

builder.queryField('members', (t) =>
  t.prismaConnection(
    {
      type: 'Membership',
      cursor: 'workspaceId_staffUserId',
      args: { workspaceId: t.arg.id({ required: true }) },
      authScopes: (_root, { workspaceId }) => ({ read: { workspaceId } }),
      resolve: (query, _root, { workspaceId }, ctx) =>
        ctx.svc.db.membership.findMany({ ...query, where: { workspaceId }, orderBy: [...MEMBER_ORDER] }),
    },
    MembershipConnection,
  ),
);

builder.mutationField('setMemberRole', (t) =>
  t.prismaField({
    type: 'Membership',
    args: {
      workspaceId: t.arg.id({ required: true }),
      staffUserId: t.arg.id({ required: true }),
      role: t.arg({ type: StaffRole, required: true }),
    },
    authScopes: (_root, { workspaceId }) => ({ manage_members: { workspaceId } }),
    resolve: async (query, _root, args, ctx) => {
      await setMemberRole(asStaff(ctx), args);
      return ctx.svc.db.membership.findUniqueOrThrow({
        ...query,
        where: { workspaceId_staffUserId: { workspaceId: args.workspaceId, staffUserId: args.staffUserId } },
      });
    },
  }),
);

builder.mutationField('removeMember', (t) =>
  t.boolean({
    description: 'Removes a member; a workspace keeps at least one owner.',
    args: { workspaceId: t.arg.id({ required: true }), staffUserId: t.arg.id({ required: true }) },
    authScopes: (_root, { workspaceId }) => ({ manage_members: { workspaceId } }),
    resolve: async (_root, args, ctx) => {
      await removeMember(asStaff(ctx), args);
      return true;
    },
  }),
);
