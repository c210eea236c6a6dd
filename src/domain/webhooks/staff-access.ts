import { membership, type AccessTargets } from '../staff/access-targets.js';

// What staff act on in the webhooks area: an app-mode's endpoints.
export const webhookTargets = {
  webhookEndpointId: {
    noSuch: 'No such webhook endpoint.',
    async workspacesOf(ctx, ids) {
      const { member, workspace } = membership(ctx);
      return (
        await ctx.db.webhookEndpoint.findMany({
          where: { id: { in: ids }, appMode: { app: { workspace: member } } },
          select: { id: true, appMode: { select: { app: { select: { workspace } } } } },
        })
      ).map((e) => [e.id, e.appMode.app.workspace] as const);
    },
  },
} satisfies AccessTargets;
