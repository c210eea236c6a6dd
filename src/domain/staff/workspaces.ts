import { randomUUID } from 'node:crypto';
import { hashPassword } from '../../lib/passwords.js';
import { transaction, type Ctx } from '../context.js';
import { invalid } from '../errors.js';
import { checkWorkspaceName } from './ownerless-workspaces.js';
import { emailTaken, newStaffUserProblems, normalizeEmail, staffName } from './staff-users.js';

/** A workspace and its first owner, a new staff user; someone who has an account is invited instead. */
export async function createWorkspace(
  ctx: Ctx,
  input: { name: string; ownerEmail: string; ownerPassword: string; ownerName?: string },
): Promise<{ workspaceId: string; ownerId: string }> {
  const errors = newStaffUserProblems(
    { email: input.ownerEmail, password: input.ownerPassword, name: input.ownerName },
    { email: 'ownerEmail', password: 'ownerPassword', name: 'ownerName' },
  );
  const nameProblem = checkWorkspaceName(input.name);
  if (nameProblem) errors.unshift({ field: 'name', message: nameProblem });
  if (errors.length) throw invalid(errors);

  const email = normalizeEmail(input.ownerEmail);
  if (await ctx.db.staffUser.findUnique({ where: { email }, select: { id: true } })) throw emailTaken();
  const passwordHash = await hashPassword(input.ownerPassword);
  const workspaceId = randomUUID();
  const ownerId = randomUUID();
  await transaction(ctx, async ({ db: tx }) => {
    await tx.workspace.create({ data: { id: workspaceId, name: input.name.trim() } });
    await tx.staffUser.create({ data: { id: ownerId, email, name: staffName(input.ownerName, email), passwordHash } });
    await tx.membership.create({ data: { workspaceId, staffUserId: ownerId, role: 'owner' } });
  });
  return { workspaceId, ownerId };
}
