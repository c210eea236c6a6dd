import { ACCESS_TARGETS } from './areas.js';
import type { Ctx, StaffCaller } from './context.js';
import { notFound, type DomainError } from './errors.js';
import { roleRefusal, type Action, type Role } from './staff/roles.js';

// Staff reach a workspace, and what it holds (its apps, their modes and server keys, its
// invitations, conversations, tickets...), only as its members. An id from a workspace the staff
// user does not belong to is refused exactly like an unknown one, so ids cannot be probed. The
// kinds of target are registered by their areas (areas.ts, each area's staff-access.ts).

export type TargetKind = keyof typeof ACCESS_TARGETS & string;
/** What an action is done to, named by the id a staff field takes: `{ appModeId }`, `{ invitationId }`… */
export type Target = { [K in TargetKind]: Record<K, string> }[TargetKind];

export interface Access {
  workspaceId: string;
  role: Role;
}

export const targetOf = (target: Target): [TargetKind, string] => Object.entries(target)[0] as [TargetKind, string];

/**
 * The staff user's access to each target of one kind, read together: a target is missing from
 * the answer when it is unknown or in a workspace they do not belong to.
 */
export async function accessTo(ctx: Ctx<StaffCaller>, kind: TargetKind, ids: readonly string[]): Promise<Map<string, Access>> {
  const found = await ACCESS_TARGETS[kind].workspacesOf(ctx, [...ids]);
  return new Map(
    found.flatMap(([targetId, w]) => (w.members[0] ? [[targetId, { workspaceId: w.id, role: w.members[0].role }] as const] : [])),
  );
}

/** The refusal of an action on a target, given the staff user's access to it (none: not a member). */
export function accessRefusal(kind: TargetKind, access: Access | undefined, action: Action): DomainError | undefined {
  return access ? roleRefusal(access.role, action) : notFound(ACCESS_TARGETS[kind].noSuch);
}
