import type { StaffUser as StaffUserRow } from '../../generated/prisma/client.js';
import { pending } from '../../domain/staff/invitations.js';
import { signIn, signOut, staffForToken } from '../../domain/staff/sessions.js';
import { builder, connectionType, StaffRole } from '../builder.js';
import { asStaff, asVisitor, viewerOf } from '../context.js';
import { InvitationConnection } from './invitations.js';

// Staff users, their memberships, and signing in and out. The viewer is its own type: it alone
// shows a staff user's invitations.

const MEMBERSHIP_ORDER = [{ createdAt: 'asc' }, { workspaceId: 'asc' }] as const;

export const StaffUserRef = builder.prismaObject('StaffUser', {
  fields: (t) => ({
    id: t.exposeID('id'),
    email: t.exposeString('email'),
    name: t.exposeString('name'),
    memberships: t.relatedConnection(
      'memberships',
      {
        cursor: 'workspaceId_staffUserId',
        description: "The staff user's workspaces and roles; of a colleague, only the workspaces the viewer shares.",
        query: (_args, ctx) => ({
          where: { workspace: { members: { some: { staffUserId: viewerOf(ctx).id } } } },
          orderBy: [...MEMBERSHIP_ORDER],
        }),
      },
      MembershipConnection,
    ),
  }),
});

const Viewer = builder.prismaObject('StaffUser', {
  variant: 'Viewer',
  description: 'The signed-in staff user, with what only they see of themselves.',
  fields: (t) => ({
    id: t.exposeID('id'),
    email: t.exposeString('email'),
    name: t.exposeString('name'),
    memberships: t.relatedConnection(
      'memberships',
      { cursor: 'workspaceId_staffUserId', query: { orderBy: [...MEMBERSHIP_ORDER] } },
      MembershipConnection,
    ),
    invitations: t.prismaConnection(
      {
        type: 'Invitation',
        cursor: 'id',
        description: 'Pending invitations to this email: acceptInvitation or declineInvitation.',
        resolve: (query, viewer, _args, ctx) =>
          ctx.svc.db.invitation.findMany({
            ...query,
            where: { email: viewer.email, ...pending(ctx.svc) },
            orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
          }),
      },
      InvitationConnection,
    ),
  }),
});

const Membership = builder.prismaObject('Membership', {
  fields: (t) => ({
    role: t.expose('role', { type: StaffRole }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    staffUser: t.relation('staffUser'),
    workspace: t.relation('workspace'),
  }),
});
export const MembershipConnection = connectionType(Membership, 'Membership');

const SignIn = builder.objectRef<{ token: string; expiresAt: Date; staffUser: StaffUserRow }>('SignIn').implement({
  fields: (t) => ({
    token: t.exposeString('token', { description: 'The session token (crm_st_…), shown once: send it as Authorization: Bearer.' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
    viewer: t.field({ type: Viewer, resolve: (s) => s.staffUser }),
  }),
});

builder.queryField('viewer', (t) =>
  t.prismaField({
    type: Viewer,
    description: 'The signed-in staff user.',
    resolve: (query, _root, _args, ctx) => ctx.svc.db.staffUser.findUniqueOrThrow({ ...query, where: { id: viewerOf(ctx).id } }),
  }),
);

builder.mutationField('signIn', (t) =>
  t.field({
    type: SignIn,
    // The one root field open without a session.
    skipTypeScopes: true,
    args: { email: t.arg.string({ required: true }), password: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const session = await signIn(asVisitor(ctx), args.email, args.password);
      // The rest of this operation (such as viewer { memberships }) runs as the one just signed in.
      ctx.viewer = await staffForToken(ctx.svc, session.token);
      return session;
    },
  }),
);

builder.mutationField('signOut', (t) =>
  t.boolean({
    description: 'Ends the session whose token came with this request.',
    resolve: async (_root, _args, ctx) => {
      await signOut(asStaff(ctx));
      return true;
    },
  }),
);
