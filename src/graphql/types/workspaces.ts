import { removeMember, setMemberRole } from '../../domain/staff/members.js';
import { requireRole } from '../../domain/staff/roles.js';
import { builder, StaffRole } from '../builder.js';
import { viewerOf } from '../context.js';

// Workspaces and their members. Any member reads; only owners change who belongs (and invite:
// invitations.ts).

builder.prismaObject('Workspace', {
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    apps: t.relation('apps', { query: { orderBy: { createdAt: 'asc' } } }),
    members: t.relation('members', { query: { orderBy: { createdAt: 'asc' } } }),
  }),
});

builder.queryField('workspaces', (t) =>
  t.prismaField({
    type: ['Workspace'],
    description: 'The workspaces the signed-in staff user belongs to.',
    resolve: (query, _root, _args, ctx) =>
      ctx.svc.db.workspace.findMany({ ...query, where: { members: { some: { staffUserId: viewerOf(ctx).id } } }, orderBy: { createdAt: 'asc' } }),
  }),
);

builder.queryField('workspace', (t) =>
  t.prismaField({
    type: 'Workspace',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      await requireRole(ctx.svc, viewerOf(ctx).id, id, 'read');
      return ctx.svc.db.workspace.findUniqueOrThrow({ ...query, where: { id } });
    },
  }),
);

builder.queryField('members', (t) =>
  t.prismaField({
    type: ['Membership'],
    args: { workspaceId: t.arg.id({ required: true }) },
    resolve: async (query, _root, { workspaceId }, ctx) => {
      await requireRole(ctx.svc, viewerOf(ctx).id, workspaceId, 'read');
      return ctx.svc.db.membership.findMany({ ...query, where: { workspaceId }, orderBy: { createdAt: 'asc' } });
    },
  }),
);

builder.mutationField('setMemberRole', (t) =>
  t.prismaField({
    type: 'Membership',
    args: { workspaceId: t.arg.id({ required: true }), staffUserId: t.arg.id({ required: true }), role: t.arg({ type: StaffRole, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      await requireRole(ctx.svc, viewerOf(ctx).id, args.workspaceId, 'manage_members');
      await setMemberRole(ctx.svc, args);
      return ctx.svc.db.membership.findUniqueOrThrow({ ...query, where: { workspaceId_staffUserId: { workspaceId: args.workspaceId, staffUserId: args.staffUserId } } });
    },
  }),
);

builder.mutationField('removeMember', (t) =>
  t.boolean({
    description: 'Removes a member; a workspace keeps at least one owner.',
    args: { workspaceId: t.arg.id({ required: true }), staffUserId: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await requireRole(ctx.svc, viewerOf(ctx).id, args.workspaceId, 'manage_members');
      await removeMember(ctx.svc, args);
      return true;
    },
  }),
);
