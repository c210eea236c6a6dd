import { acceptInvitation, cancelInvitation, declineInvitation, inviteMember, pending } from '../../domain/staff/invitations.js';
import { requireRole } from '../../domain/staff/roles.js';
import { builder, StaffRole } from '../builder.js';
import { viewerOf } from '../context.js';

// Invitations: owners invite by email and cancel; the invited person, signed in with that email,
// finds them as viewer { invitations } and accepts or declines.

// Before accepting, the invited person sees only the workspace's name, not its apps or members.
const InvitingWorkspace = builder.prismaObject('Workspace', {
  variant: 'InvitingWorkspace',
  fields: (t) => ({ id: t.exposeID('id'), name: t.exposeString('name') }),
});

builder.prismaObject('Invitation', {
  fields: (t) => ({
    id: t.exposeID('id'),
    email: t.exposeString('email'),
    role: t.expose('role', { type: StaffRole }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
    workspace: t.relation('workspace', { type: InvitingWorkspace }),
  }),
});

builder.queryField('invitations', (t) =>
  t.prismaField({
    type: ['Invitation'],
    description: "The workspace's pending invitations (owners).",
    args: { workspaceId: t.arg.id({ required: true }) },
    resolve: async (query, _root, { workspaceId }, ctx) => {
      await requireRole(ctx.svc, viewerOf(ctx).id, workspaceId, 'manage_members');
      return ctx.svc.db.invitation.findMany({ ...query, where: { workspaceId, ...pending(ctx.svc) }, orderBy: { createdAt: 'asc' } });
    },
  }),
);

builder.mutationField('inviteMember', (t) =>
  t.prismaField({
    type: 'Invitation',
    description: 'Invites an email to join with a role; inviting it again renews the role and expiry. The answer is the same whether or not the email has an account.',
    args: { workspaceId: t.arg.id({ required: true }), email: t.arg.string({ required: true }), role: t.arg({ type: StaffRole, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const invitedById = viewerOf(ctx).id;
      await requireRole(ctx.svc, invitedById, args.workspaceId, 'manage_members');
      const { invitationId } = await inviteMember(ctx.svc, { ...args, invitedById });
      return ctx.svc.db.invitation.findUniqueOrThrow({ ...query, where: { id: invitationId } });
    },
  }),
);

builder.mutationField('acceptInvitation', (t) =>
  t.prismaField({
    type: 'Membership',
    description: 'Joins the workspace with the role of an invitation to your email.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (query, _root, { id }, ctx) => {
      const viewer = viewerOf(ctx);
      const { workspaceId } = await acceptInvitation(ctx.svc, viewer, id);
      return ctx.svc.db.membership.findUniqueOrThrow({ ...query, where: { workspaceId_staffUserId: { workspaceId, staffUserId: viewer.id } } });
    },
  }),
);

builder.mutationField('declineInvitation', (t) =>
  t.boolean({
    description: 'Refuses an invitation to your email; it is removed.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, ctx) => {
      await declineInvitation(ctx.svc, viewerOf(ctx), id);
      return true;
    },
  }),
);

builder.mutationField('cancelInvitation', (t) =>
  t.boolean({
    description: "Withdraws an invitation of the viewer's workspace (owners).",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, ctx) => {
      await cancelInvitation(ctx.svc, viewerOf(ctx).id, id);
      return true;
    },
  }),
);
