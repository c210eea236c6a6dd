import { throughAppMode } from '../apps/staff-access.js';
import type { AccessTargets } from '../staff/access-targets.js';

// What staff act on in the email area: emails and their sendings, through their app-mode.
export const emailTargets = {
  emailMessageId: {
    noSuch: 'No such email.',
    workspacesOf: async (ctx, ids) =>
      throughAppMode(ctx, await ctx.db.emailMessage.findMany({ where: { id: { in: ids } }, select: { id: true, appModeId: true } })),
  },
  emailSendingId: {
    noSuch: 'No such sending.',
    workspacesOf: async (ctx, ids) =>
      throughAppMode(ctx, await ctx.db.emailVersion.findMany({ where: { id: { in: ids } }, select: { id: true, appModeId: true } })),
  },
} satisfies AccessTargets;
