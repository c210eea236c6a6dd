import { lock } from '../locks.js';
import type { AppMode, ServerKey } from '../../generated/prisma/client.js';
import { rows, sql, type Sql } from '../../db/sql.js';
import { APP_MODE_COLUMNS, findAppModeByKey } from '../access/app-modes.js';
import { sqlTransaction, type Ctx } from '../context.js';
import { DomainError } from '../errors.js';
import { createOwnerlessWorkspace, MAX_WORKSPACE_NAME, requireWorkspace } from '../staff/ownerless-workspaces.js';
import { checkAppName, createApp, type CreatedApp } from './create-app.js';
import { SERVER_KEY_COLUMNS } from './server-keys.js';

// Apps as operators handle them (the `crm` CLI): made in a given workspace or a new one, and
// named by their app keys. Raw SQL throughout, not Prisma: the `crm` commands run without loading
// Prisma's client.

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
  return sqlTransaction(ctx, async (tx) => {
    await lock(tx, 'operator-app-workspace', 'any');
    const workspaces = await rows<{ id: string; name: string }>(tx, sql`SELECT id, name FROM workspace ORDER BY created_at LIMIT 6`);
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

/** The apps `where` names, oldest first, each with its workspace and both modes (live first). */
async function operatorApps(ctx: Ctx, where: Sql, limit: number): Promise<OperatorApp[]> {
  const apps = await rows<{ id: string; name: string; createdAt: Date; workspaceId: string; workspaceName: string }>(
    ctx,
    sql`SELECT a.id, a.name, a.created_at AS "createdAt", w.id AS "workspaceId", w.name AS "workspaceName"
        FROM app a JOIN workspace w ON w.id = a.workspace_id WHERE ${where} ORDER BY a.created_at, a.id LIMIT ${limit}`,
  );
  if (!apps.length) return [];
  const modes = await rows<AppMode>(
    ctx,
    sql`SELECT ${APP_MODE_COLUMNS} FROM app_mode WHERE app_id = ANY(${apps.map((a) => a.id)}::text[]) ORDER BY app_id, mode`,
  );
  return apps.map((a) => ({
    id: a.id,
    name: a.name,
    createdAt: a.createdAt,
    workspace: { id: a.workspaceId, name: a.workspaceName },
    modes: modes.filter((m) => m.appId === a.id),
  }));
}

/** Every app, oldest first (at most `limit`). */
export async function listOperatorApps(ctx: Ctx, limit = 1000): Promise<OperatorApp[]> {
  return operatorApps(ctx, sql`true`, limit);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The app an app key (either mode's) or an app id names, with its server keys per mode; refused, naming `field`, when none. */
export async function requireOperatorApp(ctx: Ctx, keyOrId: string, field = 'app'): Promise<OperatorApp & { serverKeys: ServerKey[] }> {
  const appId = UUID.test(keyOrId) ? keyOrId.toLowerCase() : (await findAppModeByKey(ctx.svc, keyOrId))?.appId;
  const [app] = appId ? await operatorApps(ctx, sql`a.id = ${appId}`, 1) : [];
  if (!app)
    throw new DomainError(404, 'not_found', 'Not found', 'No app has this key or id.', [{ field, message: 'no app has this key or id' }]);
  const serverKeys = await rows<ServerKey>(
    ctx,
    sql`SELECT ${SERVER_KEY_COLUMNS} FROM server_key WHERE app_mode_id = ANY(${app.modes.map((m) => m.id)}::text[]) ORDER BY created_at, id`,
  );
  return { ...app, serverKeys };
}

/** The server keys of one mode, oldest first, revoked ones included. Only their hints are ever shown. */
export async function listServerKeys(ctx: Ctx, appModeId: string): Promise<ServerKey[]> {
  return rows<ServerKey>(ctx, sql`SELECT ${SERVER_KEY_COLUMNS} FROM server_key WHERE app_mode_id = ${appModeId} ORDER BY created_at, id`);
}

/** The app-mode an app key (`app_…` live, `app_test_…` test) names; refused, naming `field`, when none. */
export async function requireAppModeByKey(ctx: Ctx, appKey: string, field = 'appKey'): Promise<AppMode> {
  const mode = await findAppModeByKey(ctx.svc, appKey);
  if (!mode) throw new DomainError(404, 'not_found', 'Not found', 'No app has this key.', [{ field, message: 'no app has this key' }]);
  return mode;
}
