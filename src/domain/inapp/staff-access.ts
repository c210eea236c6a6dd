import { throughAppMode } from '../apps/staff-access.js';
import type { AccessTargets } from '../staff/access-targets.js';

// What staff act on in the in-app area: in-app messages, through their app-mode.
export const inAppTargets = {
  inAppMessageId: {
    noSuch: 'No such message.',
    workspacesOf: async (ctx, ids) =>
      throughAppMode(ctx, await ctx.db.inAppMessage.findMany({ where: { id: { in: ids } }, select: { id: true, appModeId: true } })),
  },
} satisfies AccessTargets;
