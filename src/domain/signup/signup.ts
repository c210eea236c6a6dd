import { randomUUID } from 'node:crypto';
import { exec, rows, sql } from '../../db/sql.js';
import { hashPassword } from '../../lib/passwords.js';
import { sha256 } from '../../lib/secrets.js';
import { takeRequest } from '../access/rate-limits.js';
import { appNameProblem } from '../apps/create-app.js';
import { sqlTransaction, type Ctx, type VisitorCaller } from '../context.js';
import { invalid, notSetUp } from '../errors.js';
import { emit, SERVICE_WIDE } from '../outbox.js';
import { checkWorkspaceName } from '../staff/ownerless-workspaces.js';
import { newStaffUserProblems, normalizeEmail } from '../staff/staff-users.js';
import { checkBot } from './bot-check.js';

// Public sign-up (POST /public/v1/signup). Every acceptable sign-up is answered alike, 202 with the
// same body after the same work (the password hashed, one statement, perhaps a mail asked for),
// whether or not the address has an account: no one learns who is signed up. The address then gets
// one mail, a confirmation link or, when it has an account, a note saying so, at most once per
// MAIL_WINDOW: a sign-up within the window of the last mail changes nothing (so fake sign-ups cannot
// flood an address, and no one can swap the details behind a link already mailed). Nothing is made
// until the link is confirmed (confirm.ts); an unconfirmed sign-up expires and is swept.

/** At most one mail per address in this window; a sign-up within it changes nothing. */
export const SIGNUP_MAIL_WINDOW_MS = 60 * 60_000;
/** How long a confirmation link works. */
export const SIGNUP_EXPIRY_MS = 24 * 60 * 60_000;
/** Sign-ups per minute for one address (email), from anywhere. */
export const SIGNUP_PER_EMAIL_PER_MINUTE = 5;
/** Sign-ups per minute from one client address. */
export const SIGNUP_PER_CLIENT_PER_MINUTE = 20;

/** The outbox topic whose row asks for a sign-up's mail (the signup-mail process sends it). */
export const SIGNUP_MAILED = 'signup.mail_asked';

export interface SignupInput {
  app_name: string;
  email: string;
  password: string;
  workspace_name: string;
  bot_check_token?: string;
}

/** The spec's SignupAccepted (its members are this service's choice): the same for every acceptable sign-up. */
export interface SignupAccepted {
  /** The address the mail goes to, as it is kept (trimmed, lower case). */
  email: string;
  /** What comes next: always `confirm_email`. */
  next: 'confirm_email';
  /** How long the link in the mail works. */
  expires_in_seconds: number;
  /** Within this long of the last mail to the address, a sign-up sends no other and changes nothing. */
  mail_window_seconds: number;
}

export const signupOff = () => notSetUp('Sign-up is not set up on this deployment (SIGNUP_HOME_ORIGIN).');

/** The sign-up's settings, or 503 when it is off here. */
export function signupSettings(ctx: Ctx) {
  const settings = ctx.svc.config.signup;
  if (!settings) throw signupOff();
  return settings;
}

/** The problems of a sign-up, each naming its field: the staff rules for the email and password, the app's and workspace's for the names. */
export function signupProblems(input: SignupInput) {
  const errors = newStaffUserProblems({ email: input.email, password: input.password });
  const app = appNameProblem(input.app_name);
  if (app) errors.push({ field: 'app_name', message: app });
  const workspace = checkWorkspaceName(input.workspace_name);
  if (workspace) errors.push({ field: 'workspace_name', message: workspace });
  return errors;
}

export async function signUp(ctx: Ctx<VisitorCaller>, input: SignupInput): Promise<SignupAccepted> {
  const settings = signupSettings(ctx);
  const errors = signupProblems(input);
  if (errors.length) throw invalid(errors);
  const email = normalizeEmail(input.email);
  await takeRequest(ctx.svc, [
    { key: `signup:email:${sha256(email)}`, perMinute: SIGNUP_PER_EMAIL_PER_MINUTE },
    { key: `signup:client:${ctx.caller.address}`, perMinute: SIGNUP_PER_CLIENT_PER_MINUTE },
  ]);
  await checkBot(settings.botCheck, input.bot_check_token, ctx.caller.address);
  // Hashed whether or not it is kept (an address with an account keeps none): the same work either way.
  const passwordHash = await hashPassword(input.password);
  const now = ctx.clock.now();
  const id = randomUUID();
  await sqlTransaction(ctx, async (tx) => {
    // One statement: made, or replacing one whose mail window has passed; within the window, nothing.
    const [made] = await rows<{ id: string }>(
      tx,
      sql`INSERT INTO pending_signup AS p (id, email, account_exists, password_hash, app_name, workspace_name, created_at, expires_at)
          SELECT ${id}, ${email}, x.taken, CASE WHEN x.taken THEN NULL ELSE ${passwordHash} END, ${input.app_name.trim()},
            ${input.workspace_name.trim()}, ${now}, ${new Date(now.getTime() + SIGNUP_EXPIRY_MS)}
          FROM (SELECT EXISTS (SELECT 1 FROM staff_user WHERE email = ${email}) AS taken) x
          ON CONFLICT (email) DO UPDATE SET id = EXCLUDED.id, account_exists = EXCLUDED.account_exists,
            password_hash = EXCLUDED.password_hash, app_name = EXCLUDED.app_name, workspace_name = EXCLUDED.workspace_name,
            created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at, confirmed_at = NULL, workspace_id = NULL
          WHERE p.created_at <= ${new Date(now.getTime() - SIGNUP_MAIL_WINDOW_MS)}
          RETURNING id`,
    );
    if (made) await emit(tx, SIGNUP_MAILED, { appModeId: SERVICE_WIDE, data: { signup_id: made.id } });
  });
  return {
    email,
    next: 'confirm_email',
    expires_in_seconds: SIGNUP_EXPIRY_MS / 1000,
    mail_window_seconds: SIGNUP_MAIL_WINDOW_MS / 1000,
  };
}

/** Drops sign-ups past their expiry, confirmed or not. */
export async function sweepPendingSignups(ctx: Ctx): Promise<number> {
  return exec(ctx, sql`DELETE FROM pending_signup WHERE expires_at <= ${ctx.clock.now()}`);
}
