import type { Ctx, StaffCaller } from '../context.js';
import { membership, type AccessTargets, type MemberWorkspace } from '../staff/access-targets.js';

// What staff act on in the apps area: an app, one of its modes, a mode's server keys.
export const appTargets = {
  appId: {
    noSuch: 'No such app.',
    async workspacesOf(ctx, ids) {
      const { member, workspace } = membership(ctx);
      return (await ctx.db.app.findMany({ where: { id: { in: ids }, workspace: member }, select: { id: true, workspace } })).map(
        (a) => [a.id, a.workspace] as const,
      );
    },
  },
  appModeId: {
    noSuch: 'No such app.',
    async workspacesOf(ctx, ids) {
      const { member, workspace } = membership(ctx);
      return (
        await ctx.db.appMode.findMany({
          where: { id: { in: ids }, app: { workspace: member } },
          select: { id: true, app: { select: { workspace } } },
        })
      ).map((m) => [m.id, m.app.workspace] as const);
    },
  },
  serverKeyId: {
    noSuch: 'No such app.',
    async workspacesOf(ctx, ids) {
      const { member, workspace } = membership(ctx);
      return (
        await ctx.db.serverKey.findMany({
          where: { id: { in: ids }, appMode: { app: { workspace: member } } },
          select: { id: true, appMode: { select: { app: { select: { workspace } } } } },
        })
      ).map((k) => [k.id, k.appMode.app.workspace] as const);
    },
  },
} satisfies AccessTargets;

/**
 * For targets kept by app-mode (rows with an app_mode_id and no relation to it): each row with its
 * app-mode's workspace, the modes read at once.
 */
export async function throughAppMode(
  ctx: Ctx<StaffCaller>,
  rows: { id: string; appModeId: string }[],
): Promise<(readonly [string, MemberWorkspace])[]> {
  const modes = new Map(await appTargets.appModeId.workspacesOf(ctx, [...new Set(rows.map((r) => r.appModeId))]));
  return rows.flatMap((r) => (modes.has(r.appModeId) ? [[r.id, modes.get(r.appModeId)!] as const] : []));
}
