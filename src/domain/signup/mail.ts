import { one, sql } from '../../db/sql.js';
import type { Ctx } from '../context.js';
import { sendMail } from '../mail/send.js';
import { SIGNUP_EXPIRY_MS } from './signup.js';
import { signupToken } from './token.js';

// A sign-up's one mail, sent by the signup-mail process's step (never by the request): the
// confirmation link, or, for an address that has an account, a note saying so with no link. Sent
// once per sign-up (its id is the mail's idempotency key); a sign-up confirmed, replaced or swept
// before its step ran gets none. The names the sign-up gave are not written into the mail (anyone
// may sign up with anyone's address: a mail of words of their choosing would be theirs to send).

/** Where a confirmation link leads: the page that asks before it confirms. */
export const SIGNUP_CONFIRM_PAGE = '/signup/confirm';

export const signupConfirmAddress = (baseUrl: string, token: string) => `${baseUrl}${SIGNUP_CONFIRM_PAGE}/${token}`;

export async function mailSignup(ctx: Ctx, signupId: string): Promise<void> {
  const row = await one<{ email: string; accountExists: boolean }>(
    ctx,
    sql`SELECT email, account_exists AS "accountExists"
        FROM pending_signup WHERE id = ${signupId} AND confirmed_at IS NULL AND expires_at > ${ctx.clock.now()}`,
  );
  if (!row) return;
  const { baseUrl } = ctx.svc.config;
  const ignore = 'If it was not you, ignore this mail: nothing is made, and nothing about your address changes.';
  const message = row.accountExists
    ? {
        subject: 'You already have an account',
        text: [
          'Someone, perhaps you, asked to sign up with this address, which already has an account; no new account was made.',
          '',
          `Sign in with your address and password at ${baseUrl}/ (the staff console).`,
          '',
          ignore,
        ].join('\n'),
        kind: 'signup.account_exists',
      }
    : {
        subject: 'Confirm your sign-up',
        text: [
          'Someone, we hope you, signed up with this address for a workspace and an app.',
          '',
          `Confirm it within ${SIGNUP_EXPIRY_MS / 3_600_000} hours at this address:`,
          signupConfirmAddress(baseUrl, signupToken(ctx.svc, signupId)),
          '',
          ignore,
        ].join('\n'),
        kind: 'signup.confirm',
      };
  await sendMail(ctx, { to: [row.email], ...message, idempotencyKey: `signup:${signupId}` });
}
