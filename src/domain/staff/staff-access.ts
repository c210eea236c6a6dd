import { membership, type AccessTargets } from './access-targets.js';

// What staff act on in the staff area: workspaces themselves, and their invitations.
export const staffTargets = {
  workspaceId: {
    noSuch: 'No such workspace.',
    async workspacesOf(ctx, ids) {
      const { member, workspace } = membership(ctx);
      return (await ctx.db.workspace.findMany({ where: { id: { in: ids }, ...member }, ...workspace })).map((w) => [w.id, w] as const);
    },
  },
  invitationId: {
    noSuch: 'No such invitation.',
    async workspacesOf(ctx, ids) {
      const { member, workspace } = membership(ctx);
      return (await ctx.db.invitation.findMany({ where: { id: { in: ids }, workspace: member }, select: { id: true, workspace } })).map(
        (i) => [i.id, i.workspace] as const,
      );
    },
  },
} satisfies AccessTargets;
