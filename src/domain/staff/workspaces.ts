import { randomUUID } from 'node:crypto';
import { hashPassword } from '../../lib/passwords.js';
import type { Services } from '../context.js';
import { conflict, invalid, type FieldError } from '../errors.js';

export const MIN_PASSWORD = 10;

export function checkStaffEmail(email: string): string | undefined {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) && email.length <= 254 ? undefined : 'must be an email address';
}

/** A workspace and its first owner. The owner's email may already belong to a staff user elsewhere. */
export async function createWorkspace(
  svc: Services,
  input: { name: string; ownerEmail: string; ownerPassword: string; ownerName?: string },
): Promise<{ workspaceId: string; ownerId: string }> {
  const email = input.ownerEmail.trim().toLowerCase();
  const errors: FieldError[] = [];
  if (!input.name.trim() || input.name.length > 100) errors.push({ field: 'name', message: 'must be 1 to 100 characters' });
  const emailProblem = checkStaffEmail(email);
  if (emailProblem) errors.push({ field: 'ownerEmail', message: emailProblem });
  if (input.ownerPassword.length < MIN_PASSWORD) errors.push({ field: 'ownerPassword', message: `must be at least ${MIN_PASSWORD} characters` });
  if (errors.length) throw invalid(errors);

  const existing = await svc.db.staffUser.findUnique({ where: { email } });
  if (existing) throw conflict('email_taken', 'A staff user with this email exists; add them to the workspace instead.');
  const passwordHash = await hashPassword(input.ownerPassword);
  const workspaceId = randomUUID();
  const ownerId = randomUUID();
  await svc.db.$transaction(async (tx) => {
    await tx.workspace.create({ data: { id: workspaceId, name: input.name.trim() } });
    await tx.staffUser.create({ data: { id: ownerId, email, name: input.ownerName?.trim() || email.split('@')[0]!, passwordHash } });
    await tx.membership.create({ data: { workspaceId, staffUserId: ownerId, role: 'owner' } });
  });
  return { workspaceId, ownerId };
}
