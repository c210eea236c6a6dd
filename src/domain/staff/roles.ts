import { forbidden, type DomainError } from '../errors.js';

// What each role may do. Owners do everything; admins run the workspace's apps and keys but not
// who belongs; agents read, and answer and hand over the people who write in.

export type Role = 'owner' | 'admin' | 'agent';

export const ACTIONS = ['read', 'reply', 'assign', 'manage_settings', 'manage_keys', 'manage_members'] as const;
/** What a staff user does: each field of the staff API declares the one it needs. */
export type Action = (typeof ACTIONS)[number];

const ALLOWED: Record<Role, readonly Action[]> = {
  owner: ACTIONS,
  admin: ['read', 'reply', 'assign', 'manage_settings', 'manage_keys'],
  agent: ['read', 'reply', 'assign'],
};

export const roleAllows = (role: Role, action: Action) => ALLOWED[role].includes(action);

/** The refusal of an action the role does not allow, if it does not. */
export const roleRefusal = (role: Role, action: Action): DomainError | undefined =>
  roleAllows(role, action) ? undefined : forbidden('role_forbids', `A workspace ${role} may not do this.`);
