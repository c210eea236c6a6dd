import { throughAppMode } from '../apps/staff-access.js';
import type { AccessTargets } from '../staff/access-targets.js';

// What staff act on in the preferences area: subscription topics, through their app-mode.
export const preferenceTargets = {
  preferenceTopicId: {
    noSuch: 'No such topic.',
    workspacesOf: async (ctx, ids) =>
      throughAppMode(ctx, await ctx.db.preferenceTopic.findMany({ where: { id: { in: ids } }, select: { id: true, appModeId: true } })),
  },
} satisfies AccessTargets;
