import type { Ctx } from '../context.js';

// The team's faces on the messenger home: members of the app's workspace that staff chose, in
// their order, with a picture when staff gave one. A member who has left the workspace is not shown.

export const MAX_FACES = 5;

export interface Face {
  staffUserId: string;
  /** An https address of their picture; null: the messenger draws their initials. */
  avatarUrl: string | null;
}

export interface FaceShown {
  name: string;
  avatarUrl: string | null;
}

/** The members among `staffUserIds` of the workspace that owns the app (one read). */
export async function workspaceMembers(ctx: Ctx, appId: string, staffUserIds: string[]): Promise<Map<string, string>> {
  if (!staffUserIds.length) return new Map();
  const members = await ctx.db.membership.findMany({
    where: { staffUserId: { in: staffUserIds }, workspace: { apps: { some: { id: appId } } } },
    select: { staffUser: { select: { id: true, name: true } } },
  });
  return new Map(members.map((m) => [m.staffUser.id, m.staffUser.name]));
}

export async function facesShown(ctx: Ctx, appId: string, faces: Face[]): Promise<FaceShown[]> {
  const names = await workspaceMembers(
    ctx,
    appId,
    faces.map((f) => f.staffUserId),
  );
  return faces.flatMap((f) => (names.has(f.staffUserId) ? [{ name: names.get(f.staffUserId)!, avatarUrl: f.avatarUrl }] : []));
}
