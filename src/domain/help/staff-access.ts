import { throughAppMode } from '../apps/staff-access.js';
import type { AccessTargets } from '../staff/access-targets.js';

// What staff act on in the help center: its collections and articles, through their app-mode.
export const helpTargets = {
  helpCollectionId: {
    noSuch: 'No such collection.',
    workspacesOf: async (ctx, ids) =>
      throughAppMode(ctx, await ctx.db.helpCollection.findMany({ where: { id: { in: ids } }, select: { id: true, appModeId: true } })),
  },
  helpArticleId: {
    noSuch: 'No such article.',
    workspacesOf: async (ctx, ids) =>
      throughAppMode(ctx, await ctx.db.helpArticle.findMany({ where: { id: { in: ids } }, select: { id: true, appModeId: true } })),
  },
} satisfies AccessTargets;
