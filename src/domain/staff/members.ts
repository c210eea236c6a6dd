import { randomUUID } from 'node:crypto';
import type { Prisma } from '../../db/client.js';
import { hashPassword } from '../../lib/passwords.js';
import type { Services } from '../context.js';
import { conflict, invalid, notFound, type FieldError } from '../errors.js';
import type { Role } from './roles.js';
import { checkStaffEmail, MIN_PASSWORD } from './workspaces.js';

// Who belongs to a workspace and as what. A workspace always keeps at least one owner: the
// owners' count is read under a lock on the workspace row, so two owners demoting each other at
// once cannot both succeed.

/**
 * Adds a staff user to a workspace. An email that already belongs to a staff user (of any
 * workspace) adds that user as they are; otherwise a new staff user is made with the password.
 */
export async function addMember(
  svc: Services,
  input: { workspaceId: string; email: string; role: Role; name?: string | null; password?: string | null },
): Promise<{ staffUserId: string }> {
  const email = input.email.trim().toLowerCase();
  const emailProblem = checkStaffEmail(email);
  if (emailProblem) throw invalid([{ field: 'email', message: emailProblem }]);

  const existing = await svc.db.staffUser.findUnique({ where: { email }, select: { id: true } });
  let newUser: { name: string; passwordHash: string } | undefined;
  if (!existing) {
    const name = input.name?.trim() || email.split('@')[0]!;
    const errors: FieldError[] = [];
    if (name.length > 100) errors.push({ field: 'name', message: 'must be at most 100 characters' });
    if (!input.password || input.password.length < MIN_PASSWORD)
      errors.push({ field: 'password', message: `a new staff user needs a password of at least ${MIN_PASSWORD} characters` });
    if (errors.length) throw invalid(errors);
    newUser = { name, passwordHash: await hashPassword(input.password!) };
  }

  return svc.db.$transaction(async (tx) => {
    // Upsert: someone may have made the same staff user since the read; then that one is added.
    const user = existing ?? (await tx.staffUser.upsert({ where: { email }, create: { id: randomUUID(), email, ...newUser! }, update: {}, select: { id: true } }));
    const made = await tx.membership.createMany({ data: [{ workspaceId: input.workspaceId, staffUserId: user.id, role: input.role }], skipDuplicates: true });
    if (!made.count) throw conflict('already_member', 'This staff user is already a member of the workspace.');
    return { staffUserId: user.id };
  });
}

export async function setMemberRole(svc: Services, input: { workspaceId: string; staffUserId: string; role: Role }): Promise<void> {
  await svc.db.$transaction(async (tx) => {
    const member = await lockedMember(tx, input.workspaceId, input.staffUserId);
    if (member.role === 'owner' && input.role !== 'owner') await keepAnOwner(tx, input.workspaceId);
    await tx.membership.update({ where: { workspaceId_staffUserId: { workspaceId: input.workspaceId, staffUserId: input.staffUserId } }, data: { role: input.role } });
  });
}

export async function removeMember(svc: Services, input: { workspaceId: string; staffUserId: string }): Promise<void> {
  await svc.db.$transaction(async (tx) => {
    const member = await lockedMember(tx, input.workspaceId, input.staffUserId);
    if (member.role === 'owner') await keepAnOwner(tx, input.workspaceId);
    await tx.membership.delete({ where: { workspaceId_staffUserId: { workspaceId: input.workspaceId, staffUserId: input.staffUserId } } });
  });
}

async function lockedMember(tx: Prisma.TransactionClient, workspaceId: string, staffUserId: string) {
  await tx.$queryRaw`SELECT id FROM workspace WHERE id = ${workspaceId} FOR UPDATE`;
  const member = await tx.membership.findUnique({ where: { workspaceId_staffUserId: { workspaceId, staffUserId } } });
  if (!member) throw notFound('No such member.');
  return member;
}

/** Refuses when the member about to stop being an owner is the last one. */
async function keepAnOwner(tx: Prisma.TransactionClient, workspaceId: string): Promise<void> {
  const owners = await tx.membership.count({ where: { workspaceId, role: 'owner' } });
  if (owners <= 1) throw conflict('last_owner', 'A workspace keeps at least one owner: make another member owner first.');
}
