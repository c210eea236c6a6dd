import type { Services } from '../context.js';
import { notFound } from '../errors.js';
import { requireRole, type Action, type Role } from './roles.js';

// Staff reach an app, one of its modes or one of its server keys only through a workspace they
// belong to. An id from someone else's workspace is refused exactly like an unknown one, so ids
// cannot be probed.

export type AppTarget = { appId: string } | { appModeId: string } | { serverKeyId: string };

/** The workspace holding the target and the staff user's role there, refusing what the role does not allow. */
export async function requireRoleForApp(svc: Services, staffUserId: string, target: AppTarget, action: Action): Promise<{ workspaceId: string; role: Role }> {
  const workspaceId = await memberWorkspaceOf(svc, staffUserId, target);
  if (!workspaceId) throw notFound('No such app.');
  return { workspaceId, role: await requireRole(svc, staffUserId, workspaceId, action) };
}

async function memberWorkspaceOf(svc: Services, staffUserId: string, target: AppTarget): Promise<string | undefined> {
  const app = { workspace: { members: { some: { staffUserId } } } };
  if ('appId' in target) return (await svc.db.app.findFirst({ where: { id: target.appId, ...app }, select: { workspaceId: true } }))?.workspaceId;
  const modeWhere = { app };
  if ('appModeId' in target) {
    const mode = await svc.db.appMode.findFirst({ where: { id: target.appModeId, ...modeWhere }, select: { app: { select: { workspaceId: true } } } });
    return mode?.app.workspaceId;
  }
  const key = await svc.db.serverKey.findFirst({
    where: { id: target.serverKeyId, appMode: modeWhere },
    select: { appMode: { select: { app: { select: { workspaceId: true } } } } },
  });
  return key?.appMode.app.workspaceId;
}
