import { throughAppMode } from '../apps/staff-access.js';
import type { AccessTargets } from '../staff/access-targets.js';

// What staff act on in the tickets area: tickets and ticket types, through their app-mode.
export const ticketTargets = {
  ticketId: {
    noSuch: 'No such ticket.',
    workspacesOf: async (ctx, ids) =>
      throughAppMode(ctx, await ctx.db.ticket.findMany({ where: { id: { in: ids } }, select: { id: true, appModeId: true } })),
  },
  ticketTypeId: {
    noSuch: 'No such ticket type.',
    workspacesOf: async (ctx, ids) =>
      throughAppMode(ctx, await ctx.db.ticketType.findMany({ where: { id: { in: ids } }, select: { id: true, appModeId: true } })),
  },
} satisfies AccessTargets;
