import { randomUUID } from 'node:crypto';
import { exec, one, sql } from '../../db/sql.js';
import type { Ctx } from '../context.js';
import { DomainError, invalidField } from '../errors.js';

// Workspaces as operators make them (the `crm` CLI): without a first owner, for an app whose
// staff are added later. createWorkspace (workspaces.ts) is the staff path, owner included. Raw
// SQL, not Prisma: the `crm` commands run without loading Prisma's client.

export const MAX_WORKSPACE_NAME = 100;

/** The rule createWorkspace applies to a workspace's name; a sentence when it is broken. */
export function checkWorkspaceName(name: string): string | undefined {
  return !name.trim() || name.trim().length > MAX_WORKSPACE_NAME ? `must be 1 to ${MAX_WORKSPACE_NAME} characters` : undefined;
}

/** A workspace with no member yet. */
export async function createOwnerlessWorkspace(ctx: Ctx, input: { name: string }): Promise<{ workspaceId: string }> {
  const problem = checkWorkspaceName(input.name);
  if (problem) throw invalidField('name', problem);
  const workspaceId = randomUUID();
  await exec(ctx, sql`INSERT INTO workspace (id, name, created_at) VALUES (${workspaceId}, ${input.name.trim()}, ${new Date()})`);
  return { workspaceId };
}

/** Refuses, naming `field`, when no workspace has this id. */
export async function requireWorkspace(ctx: Ctx, workspaceId: string, field = 'workspaceId'): Promise<{ id: string; name: string }> {
  const found = await one<{ id: string; name: string }>(ctx, sql`SELECT id, name FROM workspace WHERE id = ${workspaceId}`);
  if (!found)
    throw new DomainError(404, 'not_found', 'Not found', 'No workspace has this id.', [{ field, message: 'no workspace has this id' }]);
  return found;
}
