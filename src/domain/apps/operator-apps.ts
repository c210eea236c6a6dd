import type { AppMode } from '../../generated/prisma/client.js';
import { findAppModeByKey } from '../access/app-modes.js';
import { transaction, type Ctx } from '../context.js';
import { DomainError } from '../errors.js';
import { createOwnerlessWorkspace, MAX_WORKSPACE_NAME, requireWorkspace } from '../staff/ownerless-workspaces.js';
import { checkAppName, createApp, type CreatedApp } from './create-app.js';

// Apps as operators handle them (the `crm` CLI): made in a given workspace or a new one, and
// named by their app keys.

/**
 * An app in `workspaceId`, or in a new owner-less workspace named "<app name> workspace".
 * Everything is checked before anything is written; an unknown workspace is refused.
 */
export async function createOperatorApp(ctx: Ctx, input: { name: string; workspaceId?: string }): Promise<CreatedApp> {
  const name = checkAppName(input.name);
  if (input.workspaceId !== undefined) {
    await requireWorkspace(ctx, input.workspaceId);
    return createApp(ctx, { workspaceId: input.workspaceId, name });
  }
  const suffix = ' workspace';
  // One transaction for both: an app that cannot be made leaves no workspace behind.
  return transaction(ctx, async (tx) => {
    const { workspaceId } = await createOwnerlessWorkspace(tx, { name: name.slice(0, MAX_WORKSPACE_NAME - suffix.length).trim() + suffix });
    return createApp(tx, { workspaceId, name });
  });
}

/** The app-mode an app key (`app_…` live, `app_test_…` test) names; refused, naming `field`, when none. */
export async function requireAppModeByKey(ctx: Ctx, appKey: string, field = 'appKey'): Promise<AppMode> {
  const mode = await findAppModeByKey(ctx.svc, appKey);
  if (!mode) throw new DomainError(404, 'not_found', 'Not found', 'No app has this key.', [{ field, message: 'no app has this key' }]);
  return mode;
}
