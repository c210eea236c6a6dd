import { randomUUID } from 'node:crypto';
import { transaction, type Ctx, type StaffCaller } from '../context.js';
import { conflict, invalidField, notFound } from '../errors.js';
import { lockWorkspace } from './members.js';
import type { Role } from './roles.js';
import { checkStaffEmail, normalizeEmail } from './staff-users.js';

// People join a workspace only by accepting an invitation to their email, signed in with it.
// Inviting answers alike whether or not the email belongs to a staff user, so an owner learns
// nothing about other workspaces' staff. Until mail is sent, the invited person finds their
// invitations on signing in (viewer { invitations }).

export const INVITATION_DAYS = 14;
/** Pending invitations a workspace may have at once. */
export const MAX_PENDING_INVITATIONS = 100;

/** Invitations still open now: the condition every reader applies. */
export const pending = (ctx: Pick<Ctx, 'clock'>) => ({ expiresAt: { gt: ctx.clock.now() } });

const noSuchInvitation = () => notFound('No such invitation.');

/** Invites an email (once per workspace: inviting again renews the role and expiry). */
export async function inviteMember(
  ctx: Ctx<StaffCaller>,
  input: { workspaceId: string; email: string; role: Role },
): Promise<{ invitationId: string }> {
  const email = normalizeEmail(input.email);
  const problem = checkStaffEmail(email);
  if (problem) throw invalidField('email', problem);
  const { workspaceId, role } = input;
  const invitedById = ctx.caller.staffUser.id;
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + INVITATION_DAYS * 86_400_000);
  return transaction(ctx, async (ttx) => {
    const tx = ttx.db;
    // Under the lock, two invitations at once cannot both pass the cap.
    await lockWorkspace(ttx, workspaceId);
    // Said only of this workspace's members, whom the inviter can list anyway.
    if (await tx.membership.count({ where: { workspaceId, staffUser: { email } } }))
      throw conflict('already_member', 'This person is already a member of the workspace.');
    await tx.invitation.deleteMany({ where: { workspaceId, expiresAt: { lte: now } } });
    if ((await tx.invitation.count({ where: { workspaceId, email: { not: email } } })) >= MAX_PENDING_INVITATIONS)
      throw conflict('invitation_limit', `A workspace has at most ${MAX_PENDING_INVITATIONS} pending invitations: cancel some first.`);
    const { id } = await tx.invitation.upsert({
      where: { workspaceId_email: { workspaceId, email } },
      create: { id: randomUUID(), workspaceId, email, role, invitedById, createdAt: now, expiresAt },
      update: { role, invitedById, expiresAt },
      select: { id: true },
    });
    return { invitationId: id };
  });
}

/**
 * Joins the invitation's workspace with its role. Only the staff user whose email it names may:
 * for anyone else, as for an unknown, expired or already answered id, not_found.
 */
export async function acceptInvitation(ctx: Ctx<StaffCaller>, id: string): Promise<{ workspaceId: string }> {
  const { staffUser } = ctx.caller;
  return transaction(ctx, async ({ db: tx }) => {
    const invitation = await tx.invitation.findFirst({ where: { id, email: staffUser.email, ...pending(ctx) } });
    // Deleting claims it: a concurrent accept waits on the row, then deletes nothing and rolls back.
    if (!invitation || !(await tx.invitation.deleteMany({ where: { id } })).count) throw noSuchInvitation();
    await tx.membership.createMany({
      data: [{ workspaceId: invitation.workspaceId, staffUserId: staffUser.id, role: invitation.role }],
      skipDuplicates: true,
    });
    return { workspaceId: invitation.workspaceId };
  });
}

/** The invited person says no; the invitation is gone. */
export async function declineInvitation(ctx: Ctx<StaffCaller>, id: string): Promise<void> {
  const gone = await ctx.db.invitation.deleteMany({ where: { id, email: ctx.caller.staffUser.email } });
  if (!gone.count) throw noSuchInvitation();
}

/** Withdraws an invitation (the field declares who may: owners of its workspace). Gone already: not_found. */
export async function cancelInvitation(ctx: Ctx, id: string): Promise<void> {
  if (!(await ctx.db.invitation.deleteMany({ where: { id } })).count) throw noSuchInvitation();
}
