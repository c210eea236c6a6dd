import { throughAppMode } from '../apps/staff-access.js';
import type { AccessTargets } from '../staff/access-targets.js';

// What staff act on in the workflows area: workflows, through their app-mode.
export const workflowTargets = {
  workflowId: {
    noSuch: 'No such workflow.',
    workspacesOf: async (ctx, ids) =>
      throughAppMode(ctx, await ctx.db.workflow.findMany({ where: { id: { in: ids } }, select: { id: true, appModeId: true } })),
  },
} satisfies AccessTargets;
