import { randomUUID } from 'node:crypto';
import type { Ctx } from '../context.js';
import { DomainError, invalidField } from '../errors.js';

// Workspaces as operators make them (the `crm` CLI): without a first owner, for an app whose
// staff are added later. createWorkspace (workspaces.ts) is the staff path, owner included.

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
  await ctx.db.workspace.create({ data: { id: workspaceId, name: input.name.trim() } });
  return { workspaceId };
}

/** Refuses, naming `field`, when no workspace has this id. */
export async function requireWorkspace(ctx: Ctx, workspaceId: string, field = 'workspaceId'): Promise<{ id: string; name: string }> {
  const found = await ctx.db.workspace.findUnique({ where: { id: workspaceId }, select: { id: true, name: true } });
  if (!found)
    throw new DomainError(404, 'not_found', 'Not found', 'No workspace has this id.', [{ field, message: 'no workspace has this id' }]);
  return found;
}
