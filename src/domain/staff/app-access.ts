import type { Ctx, StaffCaller } from '../context.js';
import { notFound, type DomainError } from '../errors.js';
import { roleRefusal, type Action, type Role } from './roles.js';

// Staff reach a workspace, and what it holds (its apps, their modes and server keys, its
// invitations), only as its members. An id from a workspace the staff user does not belong to is
// refused exactly like an unknown one, so ids cannot be probed.

export type TargetKind =
  | 'workspaceId'
  | 'appId'
  | 'appModeId'
  | 'serverKeyId'
  | 'invitationId'
  | 'webhookEndpointId'
  | 'conversationId'
  | 'helpCollectionId'
  | 'helpArticleId'
  | 'ticketId'
  | 'ticketTypeId'
  | 'preferenceTopicId'
  | 'inAppMessageId';
/** What an action is done to, named by the id a staff field takes: `{ appModeId }`, `{ invitationId }`… */
export type Target = { [K in TargetKind]: Record<K, string> }[TargetKind];

export interface Access {
  workspaceId: string;
  role: Role;
}

const noSuch: Record<TargetKind, string> = {
  workspaceId: 'No such workspace.',
  appId: 'No such app.',
  appModeId: 'No such app.',
  serverKeyId: 'No such app.',
  invitationId: 'No such invitation.',
  webhookEndpointId: 'No such webhook endpoint.',
  conversationId: 'No such conversation.',
  helpCollectionId: 'No such collection.',
  helpArticleId: 'No such article.',
  ticketId: 'No such ticket.',
  ticketTypeId: 'No such ticket type.',
  preferenceTopicId: 'No such topic.',
  inAppMessageId: 'No such message.',
};

export const targetOf = (target: Target): [TargetKind, string] => Object.entries(target)[0] as [TargetKind, string];

/**
 * The staff user's access to each target of one kind, read together: a target is missing from
 * the answer when it is unknown or in a workspace they do not belong to.
 */
export async function accessTo(ctx: Ctx<StaffCaller>, kind: TargetKind, ids: readonly string[]): Promise<Map<string, Access>> {
  const found = await workspacesOf(ctx, kind, { in: [...ids] });
  return new Map(
    found.flatMap(([targetId, w]) => (w.members[0] ? [[targetId, { workspaceId: w.id, role: w.members[0].role }] as const] : [])),
  );
}

type MemberWorkspace = { id: string; members: { role: Role }[] };

/** Each target with its workspace and the staff user's membership there, for targets in their workspaces only. */
async function workspacesOf(
  ctx: Ctx<StaffCaller>,
  kind: TargetKind,
  id: { in: string[] },
): Promise<(readonly [string, MemberWorkspace])[]> {
  const { db, caller } = ctx;
  const staffUserId = caller.staffUser.id;
  const member = { members: { some: { staffUserId } } };
  const workspace = { select: { id: true, members: { where: { staffUserId }, select: { role: true } } } };
  switch (kind) {
    case 'workspaceId':
      return (await db.workspace.findMany({ where: { id, ...member }, ...workspace })).map((w) => [w.id, w] as const);
    case 'appId':
      return (await db.app.findMany({ where: { id, workspace: member }, select: { id: true, workspace } })).map(
        (a) => [a.id, a.workspace] as const,
      );
    case 'appModeId':
      return (
        await db.appMode.findMany({ where: { id, app: { workspace: member } }, select: { id: true, app: { select: { workspace } } } })
      ).map((m) => [m.id, m.app.workspace] as const);
    case 'serverKeyId':
      return (
        await db.serverKey.findMany({
          where: { id, appMode: { app: { workspace: member } } },
          select: { id: true, appMode: { select: { app: { select: { workspace } } } } },
        })
      ).map((k) => [k.id, k.appMode.app.workspace] as const);
    case 'webhookEndpointId':
      return (
        await db.webhookEndpoint.findMany({
          where: { id, appMode: { app: { workspace: member } } },
          select: { id: true, appMode: { select: { app: { select: { workspace } } } } },
        })
      ).map((e) => [e.id, e.appMode.app.workspace] as const);
    case 'conversationId':
      return throughAppMode(ctx, await db.conversation.findMany({ where: { id }, select: { id: true, appModeId: true } }));
    case 'invitationId':
      return (await db.invitation.findMany({ where: { id, workspace: member }, select: { id: true, workspace } })).map(
        (i) => [i.id, i.workspace] as const,
      );
    case 'helpCollectionId':
      return throughAppMode(ctx, await db.helpCollection.findMany({ where: { id }, select: { id: true, appModeId: true } }));
    case 'helpArticleId':
      return throughAppMode(ctx, await db.helpArticle.findMany({ where: { id }, select: { id: true, appModeId: true } }));
    case 'ticketId':
      return throughAppMode(ctx, await db.ticket.findMany({ where: { id }, select: { id: true, appModeId: true } }));
    case 'ticketTypeId':
      return throughAppMode(ctx, await db.ticketType.findMany({ where: { id }, select: { id: true, appModeId: true } }));
    case 'preferenceTopicId':
      return throughAppMode(ctx, await db.preferenceTopic.findMany({ where: { id }, select: { id: true, appModeId: true } }));
    case 'inAppMessageId':
      return throughAppMode(ctx, await db.inAppMessage.findMany({ where: { id }, select: { id: true, appModeId: true } }));
  }
}

/** Rows keyed by their app-mode (no relation to it), with the app-mode's workspace. */
async function throughAppMode(
  ctx: Ctx<StaffCaller>,
  rows: { id: string; appModeId: string }[],
): Promise<(readonly [string, MemberWorkspace])[]> {
  const modes = new Map(await workspacesOf(ctx, 'appModeId', { in: [...new Set(rows.map((r) => r.appModeId))] }));
  return rows.flatMap((r) => (modes.has(r.appModeId) ? [[r.id, modes.get(r.appModeId)!] as const] : []));
}

/** The refusal of an action on a target, given the staff user's access to it (none: not a member). */
export function accessRefusal(kind: TargetKind, access: Access | undefined, action: Action): DomainError | undefined {
  return access ? roleRefusal(access.role, action) : notFound(noSuch[kind]);
}
