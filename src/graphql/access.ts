import { accessRefusal, accessTo, targetOf, type Access, type Target } from '../domain/app-access.js';
import { ACTIONS, type Action } from '../domain/staff/roles.js';
import { batchLoad } from './batch.js';
import { asStaff, type StaffContext } from './context.js';

// Who may run a field, declared on it. Every root field needs a session: the root types ask for
// `staff`. A field that acts on a workspace, or on something in one, names its action and takes
// the target from its own arguments:
//
//   authScopes: (_root, args) => ({ manage_keys: { appModeId: args.appModeId } })
//
// Scope auth checks each action and target once per request; the membership behind a target is
// read once per request whatever the actions, and targets of one kind are read together.

export type StaffScopes = { staff: boolean } & { [A in Action]: Target };

type ScopeLoaders = { staff: boolean } & { [A in Action]: (target: Target) => Promise<boolean> };

/** The scopes of one request (scope auth calls this once per request). */
export function staffScopes(ctx: StaffContext): ScopeLoaders {
  const loaders = Object.fromEntries(ACTIONS.map((action) => [action, (target: Target) => allows(ctx, target, action)]));
  return { staff: !!ctx.viewer, ...(loaders as { [A in Action]: (target: Target) => Promise<boolean> }) };
}

/**
 * True, or the refusal: thrown rather than answered false, so the field fails with the domain's
 * own refusal (not_found for a target outside the viewer's workspaces, role_forbids for the role).
 */
async function allows(ctx: StaffContext, target: Target, action: Action): Promise<boolean> {
  await accessFor(ctx, target, action);
  return true;
}

/** The viewer's access to a target (their workspace and role there), refusing what it does not allow; read once per request. */
export async function accessFor(ctx: StaffContext, target: Target, action: Action): Promise<Access> {
  const staff = asStaff(ctx);
  const [kind, id] = targetOf(target);
  const access = await batchLoad(ctx, `access:${staff.caller.staffUser.id}:${kind}`, id, (ids) => accessTo(staff, kind, ids));
  const refusal = accessRefusal(kind, access, action);
  if (refusal) throw refusal;
  return access!;
}
