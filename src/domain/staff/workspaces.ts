import { randomUUID } from 'node:crypto';
import { hashPassword } from '../../lib/passwords.js';
import { exec, sql } from '../../db/sql.js';
import type { Ctx } from '../context.js';
import { invalid } from '../errors.js';
import { checkWorkspaceName } from './ownerless-workspaces.js';
import { emailInUse, emailTaken, newStaffUserProblems, normalizeEmail, staffName } from './staff-users.js';

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
  if (await emailInUse(ctx, email)) throw emailTaken();
  const passwordHash = await hashPassword(input.ownerPassword);
  const made = await insertWorkspaceWithOwner(ctx, { name: input.name, email, ownerName: input.ownerName, passwordHash });
  if (!made) throw emailTaken();
  return made;
}

/**
 * The workspace, its owner (a new staff user with the password already hashed) and the membership,
 * in one statement (raw SQL, so `crm workspace create` runs without loading Prisma's client); part
 * of the caller's transaction when it is in one. Someone may have taken the email meanwhile: then
 * nothing is made, the workspace neither, and the answer is undefined.
 */
export async function insertWorkspaceWithOwner(
  ctx: Ctx,
  input: { name: string; email: string; ownerName?: string; passwordHash: string },
): Promise<{ workspaceId: string; ownerId: string } | undefined> {
  const { email, passwordHash } = input;
  const workspaceId = randomUUID();
  const ownerId = randomUUID();
  const now = new Date();
  const made = await exec(
    ctx,
    sql`WITH owner AS (INSERT INTO staff_user (id, email, name, password_hash, created_at)
          VALUES (${ownerId}, ${email}, ${staffName(input.ownerName, email)}, ${passwordHash}, ${now})
          ON CONFLICT DO NOTHING RETURNING id),
        workspace AS (INSERT INTO workspace (id, name, created_at) SELECT ${workspaceId}, ${input.name.trim()}, ${now} FROM owner RETURNING id)
        INSERT INTO membership (workspace_id, staff_user_id, role, created_at)
        SELECT workspace.id, owner.id, 'owner', ${now} FROM workspace, owner`,
  );
  return made ? { workspaceId, ownerId } : undefined;
}
