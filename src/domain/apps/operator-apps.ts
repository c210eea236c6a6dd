import { lock } from '../locks.js';
import type { AppMode, ServerKey } from '../../generated/prisma/client.js';
import { findAppModeByKey } from '../access/app-modes.js';
import { transaction, type Ctx } from '../context.js';
import { DomainError } from '../errors.js';
import { createOwnerlessWorkspace, MAX_WORKSPACE_NAME, requireWorkspace } from '../staff/ownerless-workspaces.js';
import { checkAppName, createApp, type CreatedApp } from './create-app.js';

// Apps as operators handle them (the `crm` CLI): made in a given workspace or a new one, and
// named by their app keys.

/**
 * An app in `workspaceId`; without one, in the only workspace there is, or in a new owner-less
 * workspace named "<app name> workspace" when there is none yet. With several workspaces and none
 * named, it is refused (naming `workspaceId`): guessing would put the app where its staff are not.
 * Everything is checked before anything is written; an unknown workspace is refused.
 */
export async function createOperatorApp(ctx: Ctx, input: { name: string; workspaceId?: string }): Promise<CreatedApp> {
  const name = checkAppName(input.name);
  if (input.workspaceId !== undefined) {
    await requireWorkspace(ctx, input.workspaceId);
    return createApp(ctx, { workspaceId: input.workspaceId, name });
  }
  const suffix = ' workspace';
  // One transaction for both: an app that cannot be made leaves no workspace behind. The lock
  // makes two such runs on an empty database agree on one answer: the second sees the first's workspace.
  return transaction(ctx, async (tx) => {
    await lock(tx, 'operator-app-workspace', 'any');
    const workspaces = await tx.db.workspace.findMany({ select: { id: true, name: true }, orderBy: { createdAt: 'asc' }, take: 6 });
    if (workspaces.length > 1)
      throw new DomainError(
        409,
        'workspace_required',
        'Refused as things stand',
        `There are several workspaces; name the app's workspace with --workspace (${workspaces
          .slice(0, 5)
          .map((w) => `${w.id} "${w.name}"`)
          .join(', ')}${workspaces.length > 5 ? ', …' : ''}).`,
        [{ field: 'workspaceId', message: 'required when there are several workspaces' }],
      );
    const workspaceId =
      workspaces[0]?.id ??
      (await createOwnerlessWorkspace(tx, { name: name.slice(0, MAX_WORKSPACE_NAME - suffix.length).trim() + suffix })).workspaceId;
    return createApp(tx, { workspaceId, name });
  });
}

/** An app as operators list it: its workspace and both modes' keys and switches, never a secret. */
export interface OperatorApp {
  id: string;
  name: string;
  createdAt: Date;
  workspace: { id: string; name: string };
  modes: AppMode[];
}

const appSelect = {
  id: true,
  name: true,
  createdAt: true,
  workspace: { select: { id: true, name: true } },
  modes: { orderBy: { mode: 'asc' as const } },
} as const;

/** Every app, oldest first (at most `limit`). */
export async function listOperatorApps(ctx: Ctx, limit = 1000): Promise<OperatorApp[]> {
  return ctx.db.app.findMany({ select: appSelect, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], take: limit });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The app an app key (either mode's) or an app id names, with its server keys per mode; refused, naming `field`, when none. */
export async function requireOperatorApp(ctx: Ctx, keyOrId: string, field = 'app'): Promise<OperatorApp & { serverKeys: ServerKey[] }> {
  const appId = UUID.test(keyOrId) ? keyOrId.toLowerCase() : (await findAppModeByKey(ctx.svc, keyOrId))?.appId;
  const app = appId ? await ctx.db.app.findUnique({ where: { id: appId }, select: appSelect }) : null;
  if (!app)
    throw new DomainError(404, 'not_found', 'Not found', 'No app has this key or id.', [{ field, message: 'no app has this key or id' }]);
  const serverKeys = await ctx.db.serverKey.findMany({
    where: { appModeId: { in: app.modes.map((m) => m.id) } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  return { ...app, serverKeys };
}

/** The server keys of one mode, oldest first, revoked ones included. Only their hints are ever shown. */
export async function listServerKeys(ctx: Ctx, appModeId: string): Promise<ServerKey[]> {
  return ctx.db.serverKey.findMany({ where: { appModeId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

/** The app-mode an app key (`app_…` live, `app_test_…` test) names; refused, naming `field`, when none. */
export async function requireAppModeByKey(ctx: Ctx, appKey: string, field = 'appKey'): Promise<AppMode> {
  const mode = await findAppModeByKey(ctx.svc, appKey);
  if (!mode) throw new DomainError(404, 'not_found', 'Not found', 'No app has this key.', [{ field, message: 'no app has this key' }]);
  return mode;
}
