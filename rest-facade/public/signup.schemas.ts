import { z } from 'zod';
import { MAX_APP_NAME } from '../../src/domain/apps/create-app.js';
import { MAX_WORKSPACE_NAME } from '../../src/domain/staff/ownerless-workspaces.js';
import { MIN_PASSWORD } from '../../src/domain/staff/staff-users.js';

// Public sign-up on the wire. The rules of each member (an email address, a password's length, the
// names' lengths) are the domain's (src/domain/signup/signup.ts), which names the field it refuses.

/** A password longer than this is refused before it is hashed (hashing is the slow part). */
export const MAX_PASSWORD_CHARS = 1000;

export const SignupBody = z
  .object({
    app_name: z.string().describe(`The first app's name, 1 to ${MAX_APP_NAME} characters (also its brand name)`),
    email: z.string().max(254).describe("The owner's email address: the confirmation goes there, and it is the owner's sign-in"),
    password: z.string().max(MAX_PASSWORD_CHARS).describe(`The owner's password, at least ${MIN_PASSWORD} characters; kept only hashed`),
    workspace_name: z.string().describe(`The workspace's name, 1 to ${MAX_WORKSPACE_NAME} characters`),
    bot_check_token: z
      .string()
      .max(2048)
      .optional()
      .describe("The anti-bot challenge's token (such as Cloudflare Turnstile's), required when the deployment checks for bots"),
  })
  .meta({ id: 'SignupBody' });

export const SignupAccepted = z
  .object({
    email: z.string().describe('The address the mail goes to, as it is kept (trimmed, lower case)'),
    next: z.literal('confirm_email').describe('What comes next: the link in the mail, confirmed on the page it leads to'),
    expires_in_seconds: z.number().int().describe('How long the link works (86400: a day)'),
    mail_window_seconds: z
      .number()
      .int()
      .describe('Within this long (3600: an hour) of the last mail to the address, a sign-up sends no other and changes nothing'),
  })
  .meta({ id: 'SignupAccepted' });
