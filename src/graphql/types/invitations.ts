import { acceptInvitation, cancelInvitation, declineInvitation, inviteMember, pending } from '../../domain/staff/invitations.js';
import { builder, connectionType, StaffRole } from '../builder.js';
import { asStaff, viewerOf } from '../context.js';

// Invitations: owners invite by email and cancel; the invited person, signed in with that email,
// finds them as viewer { invitations } and accepts or declines.

// Before accepting, the invited person sees only the workspace's name, not its apps or members.
const InvitingWorkspace = builder.prismaObject('Workspace', {
  variant: 'InvitingWorkspace',
  fields: (t) => ({ id: t.exposeID('id'), name: t.exposeString('name') }),
});

const Invitation = builder.prismaObject('Invitation', {
  fields: (t) => ({
    id: t.exposeID('id'),
    email: t.exposeString('email'),
    role: t.expose('role', { type: StaffRole }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
    workspace: t.relation('workspace', { type: InvitingWorkspace }),
  }),
});
export const InvitationConnection = connectionType(Invitation, 'Invitation');

builder.queryField('invitations', (t) =>
  t.prismaConnection(
    {
      type: 'Invitation',
      cursor: 'id',
      description: "The workspace's pending invitations (owners).",
      args: { workspaceId: t.arg.id({ required: true }) },
      authScopes: (_root, { workspaceId }) => ({ manage_members: { workspaceId } }),
      resolve: (query, _root, { workspaceId }, ctx) =>
        ctx.svc.db.invitation.findMany({
          ...query,
          where: { workspaceId, ...pending(ctx.svc) },
          orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        }),
    },
    InvitationConnection,
  ),
);

builder.mutationField('inviteMember', (t) =>
  t.prismaField({
    type: 'Invitation',
    description:
      'Invites an email to join with a role; inviting it again renews the role and expiry. The answer is the same whether or not the email has an account.',
    args: {
      workspaceId: t.arg.id({ required: true }),
      email: t.arg.string({ required: true }),
      role: t.arg({ type: StaffRole, required: true }),
    },
    authScopes: (_root, { workspaceId }) => ({ manage_members: { workspaceId } }),
    resolve: async (query, _root, args, ctx) => {
      const { invitationId } = await inviteMember(asStaff(ctx), args);
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
      const { workspaceId } = await acceptInvitation(asStaff(ctx), id);
      return ctx.svc.db.membership.findUniqueOrThrow({
        ...query,
        where: { workspaceId_staffUserId: { workspaceId, staffUserId: viewerOf(ctx).id } },
      });
    },
  }),
);

builder.mutationField('declineInvitation', (t) =>
  t.boolean({
    description: 'Refuses an invitation to your email; it is removed.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, { id }, ctx) => {
      await declineInvitation(asStaff(ctx), id);
      return true;
    },
  }),
);

builder.mutationField('cancelInvitation', (t) =>
  t.boolean({
    description: "Withdraws an invitation of the viewer's workspace (owners).",
    args: { id: t.arg.id({ required: true }) },
    authScopes: (_root, { id }) => ({ manage_members: { invitationId: id } }),
    resolve: async (_root, { id }, ctx) => {
      await cancelInvitation(asStaff(ctx), id);
      return true;
    },
  }),
);
