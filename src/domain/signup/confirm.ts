import { exec, one, sql } from '../../db/sql.js';
import { createApp } from '../apps/create-app.js';
import { sqlTransaction, type Ctx } from '../context.js';
import { insertWorkspaceWithOwner } from '../staff/workspaces.js';
import { openSignupToken } from './token.js';

// Confirming a sign-up by the link in its mail: the page shows what the link stands for and a
// button (a GET changes nothing: mail scanners follow links); the button's POST makes the
// workspace, its owner (who signs in with the sign-up's password at once) and the app with both
// modes, in one transaction under the pending sign-up's row lock, so confirming twice, or twenty
// times at once, makes them once.

/** What a link stands for now. */
export type SignupLinkState =
  /** Waiting for the button. */
  | { state: 'pending'; email: string; workspaceName: string; appName: string }
  /** Confirmed already (the workspace is made). */
  | { state: 'confirmed'; email: string }
  /** Past its expiry, replaced by a later sign-up, or swept: sign up again. */
  | { state: 'expired' }
  /** An account with the address was made meanwhile (another way): sign in with it. */
  | { state: 'taken'; email: string }
  /** The token opens nothing. */
  | { state: 'unknown' };

interface PendingRow {
  id: string;
  email: string;
  accountExists: boolean;
  passwordHash: string | null;
  appName: string;
  workspaceName: string;
  expiresAt: Date;
  confirmedAt: Date | null;
}

const pendingRow = (ctx: Ctx, id: string, forUpdate: boolean) =>
  one<PendingRow>(
    ctx,
    sql`SELECT id, email, account_exists AS "accountExists", password_hash AS "passwordHash", app_name AS "appName",
          workspace_name AS "workspaceName", expires_at AS "expiresAt", confirmed_at AS "confirmedAt"
        FROM pending_signup WHERE id = ${id} ${forUpdate ? sql`FOR UPDATE` : sql``}`,
  );

function stateOf(ctx: Ctx, row: PendingRow | undefined): SignupLinkState {
  if (!row || row.accountExists) return { state: 'expired' };
  if (row.confirmedAt) return { state: 'confirmed', email: row.email };
  if (row.expiresAt <= ctx.clock.now()) return { state: 'expired' };
  return { state: 'pending', email: row.email, workspaceName: row.workspaceName, appName: row.appName };
}

/** What the link's page shows; changes nothing. */
export async function signupLink(ctx: Ctx, token: string): Promise<SignupLinkState> {
  const id = openSignupToken(ctx.svc, token);
  if (!id) return { state: 'unknown' };
  return stateOf(ctx, await pendingRow(ctx, id, false));
}

/** Confirms the sign-up: `confirmed` with the workspace made now, or what the link stands for when nothing was to be made. */
export async function confirmSignup(
  ctx: Ctx,
  token: string,
): Promise<{ state: 'made'; workspaceId: string; email: string } | Exclude<SignupLinkState, { state: 'pending' }>> {
  const id = openSignupToken(ctx.svc, token);
  if (!id) return { state: 'unknown' };
  return sqlTransaction(ctx, async (tx) => {
    // Held until the commit: a second confirm waits here, then finds it confirmed.
    const row = await pendingRow(tx, id, true);
    const now = stateOf(tx, row);
    if (now.state !== 'pending') return now;
    const made = await insertWorkspaceWithOwner(tx, { name: row!.workspaceName, email: row!.email, passwordHash: row!.passwordHash! });
    if (!made) return { state: 'taken', email: row!.email };
    await createApp(tx, { workspaceId: made.workspaceId, name: row!.appName });
    await exec(
      tx,
      sql`UPDATE pending_signup SET confirmed_at = ${tx.clock.now()}, workspace_id = ${made.workspaceId}, password_hash = NULL WHERE id = ${id}`,
    );
    return { state: 'made', workspaceId: made.workspaceId, email: row!.email };
  });
}
