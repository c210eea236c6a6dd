import { throughAppMode } from '../apps/staff-access.js';
import type { AccessTargets } from '../staff/access-targets.js';

// What staff act on in the conversations area: a conversation, through its app-mode.
export const conversationTargets = {
  conversationId: {
    noSuch: 'No such conversation.',
    workspacesOf: async (ctx, ids) =>
      throughAppMode(ctx, await ctx.db.conversation.findMany({ where: { id: { in: ids } }, select: { id: true, appModeId: true } })),
  },
} satisfies AccessTargets;
