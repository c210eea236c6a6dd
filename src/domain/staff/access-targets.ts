import type { Ctx, StaffCaller } from '../context.js';
import type { Role } from './roles.js';

// What an area registers so that staff fields may act on its things. Each area declares, in its
// own folder (its staff-access.ts), the kinds of id a staff field may name and how to find the
// workspace behind each; areas.ts collects them, and ../app-access.ts answers every kind alike.

/** A target's workspace, with the staff user's membership there (one row, or none). */
export type MemberWorkspace = { id: string; members: { role: Role }[] };

export interface AccessTarget {
  /** What an id that is unknown, or in a workspace the staff user does not belong to, is refused with. */
  noSuch: string;
  /** Each of the ids with its workspace and the staff user's membership there, for targets in their workspaces only; read at once. */
  workspacesOf(ctx: Ctx<StaffCaller>, ids: string[]): Promise<(readonly [string, MemberWorkspace])[]>;
}

/** An area's targets, by the id a staff field takes: `{ ticketId: {...}, ticketTypeId: {...} }`. */
export type AccessTargets = Record<string, AccessTarget>;

/** The query parts every target's read shares: workspaces the staff user belongs to, and their membership there. */
export function membership({ caller }: Ctx<StaffCaller>) {
  const staffUserId = caller.staffUser.id;
  return {
    /** A workspace filter: the staff user is a member. */
    member: { members: { some: { staffUserId } } },
    /** A workspace selection: its id and the staff user's membership. */
    workspace: { select: { id: true, members: { where: { staffUserId }, select: { role: true } } } },
  };
}

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** Every area's targets as one set, each kind once (a kind two areas register is a bug). */
export function registerTargets<Sets extends AccessTargets[]>(...sets: Sets): UnionToIntersection<Sets[number]> {
  const all: AccessTargets = {};
  for (const set of sets)
    for (const [kind, target] of Object.entries(set)) {
      if (kind in all) throw new Error(`access target ${kind} is registered twice`);
      all[kind] = target;
    }
  return all as UnionToIntersection<Sets[number]>;
}
