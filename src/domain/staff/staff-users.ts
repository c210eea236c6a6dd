import { randomUUID } from 'node:crypto';
import { hashPassword } from '../../lib/passwords.js';
import { exec, one, rows, sql } from '../../db/sql.js';
import type { Ctx } from '../context.js';
import { conflict, invalid, type FieldError } from '../errors.js';

// Staff users: one per email, across workspaces. Operators make them (`crm staff create`), or
// createWorkspace with its first owner; they join other workspaces only by accepting invitations.
// Raw SQL, not Prisma: the `crm` commands run without loading Prisma's client.

export const MIN_PASSWORD = 10;
export const MAX_STAFF_NAME = 100;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export function checkStaffEmail(email: string): string | undefined {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email) && email.length <= 254 ? undefined : 'must be an email address';
}

export interface NewStaffUser {
  email: string;
  password: string;
  name?: string | null;
}

/** The problems of a new staff user, each under the caller's name for its field. */
export function newStaffUserProblems(input: NewStaffUser, field = { email: 'email', password: 'password', name: 'name' }): FieldError[] {
  const errors: FieldError[] = [];
  const emailProblem = checkStaffEmail(normalizeEmail(input.email));
  if (emailProblem) errors.push({ field: field.email, message: emailProblem });
  if (input.password.length < MIN_PASSWORD) errors.push({ field: field.password, message: `must be at least ${MIN_PASSWORD} characters` });
  if ((input.name?.trim().length ?? 0) > MAX_STAFF_NAME)
    errors.push({ field: field.name, message: `must be at most ${MAX_STAFF_NAME} characters` });
  return errors;
}

/** The display name: the one given, else the email's local part. */
export const staffName = (name: string | null | undefined, email: string) => name?.trim() || email.split('@')[0]!;

/** Whether a staff user has this (normalized) email. */
export const emailInUse = async (ctx: Ctx, email: string): Promise<boolean> =>
  (await one(ctx, sql`SELECT 1 FROM staff_user WHERE email = ${email}`)) !== undefined;

export const emailTaken = () => conflict('email_taken', 'A staff user with this email exists; invite them to the workspace instead.');

/** A staff user of no workspace yet, who can sign in and accept invitations. */
export async function createStaffUser(ctx: Ctx, input: NewStaffUser): Promise<{ staffUserId: string; email: string; name: string }> {
  const errors = newStaffUserProblems(input);
  if (errors.length) throw invalid(errors);
  const email = normalizeEmail(input.email);
  // Checked before hashing, which is the slow part.
  if (await emailInUse(ctx, email)) throw emailTaken();
  const row = { id: randomUUID(), email, name: staffName(input.name, email), passwordHash: await hashPassword(input.password) };
  // Someone may have taken the email while the password was hashed.
  const made = await exec(
    ctx,
    sql`INSERT INTO staff_user (id, email, name, password_hash, created_at) VALUES (${row.id}, ${email}, ${row.name}, ${row.passwordHash}, ${new Date()})
        ON CONFLICT DO NOTHING`,
  );
  if (!made) throw emailTaken();
  return { staffUserId: row.id, email, name: row.name };
}

/** A staff user as operators list them: who, since when, and their workspaces with their roles. Never a password hash. */
export interface ListedStaffUser {
  id: string;
  email: string;
  name: string;
  createdAt: Date;
  memberships: { workspaceId: string; role: string; workspace: { name: string } }[];
}

/** Every staff user, by email (at most `limit`). */
export async function listStaffUsers(ctx: Ctx, limit = 1000): Promise<ListedStaffUser[]> {
  const staff = await rows<Omit<ListedStaffUser, 'memberships'>>(
    ctx,
    sql`SELECT id, email, name, created_at AS "createdAt" FROM staff_user ORDER BY email LIMIT ${limit}`,
  );
  if (!staff.length) return [];
  const memberships = await rows<{ staffUserId: string; workspaceId: string; role: string; workspaceName: string }>(
    ctx,
    sql`SELECT m.staff_user_id AS "staffUserId", m.workspace_id AS "workspaceId", m.role::text AS role, w.name AS "workspaceName"
        FROM membership m JOIN workspace w ON w.id = m.workspace_id
        WHERE m.staff_user_id = ANY(${staff.map((s) => s.id)}::text[]) ORDER BY m.created_at`,
  );
  return staff.map((s) => ({
    ...s,
    memberships: memberships
      .filter((m) => m.staffUserId === s.id)
      .map((m) => ({ workspaceId: m.workspaceId, role: m.role, workspace: { name: m.workspaceName } })),
  }));
}
