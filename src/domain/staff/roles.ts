import type { Services } from '../context.js';
import { forbidden, notFound } from '../errors.js';

// What each role may do. Owners and admins run the workspace's apps; agents answer people.

export type Role = 'owner' | 'admin' | 'agent';
export type Action = 'read' | 'manage_apps' | 'manage_keys' | 'manage_members';

const ALLOWED: Record<Role, Action[]> = {
  owner: ['read', 'manage_apps', 'manage_keys', 'manage_members'],
  admin: ['read', 'manage_apps', 'manage_keys'],
  agent: ['read'],
};

export const roleAllows = (role: Role, action: Action) => ALLOWED[role].includes(action);

/** The staff user's role in a workspace, refusing when it does not allow the action. */
export async function requireRole(svc: Services, staffUserId: string, workspaceId: string, action: Action): Promise<Role> {
  const m = await svc.db.membership.findUnique({ where: { workspaceId_staffUserId: { workspaceId, staffUserId } } });
  if (!m) throw notFound('No such workspace.');
  if (!roleAllows(m.role, action)) throw forbidden('role_forbids', `A workspace ${m.role} may not do this.`);
  return m.role;
}
