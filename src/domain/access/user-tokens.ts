import type { AppMode } from '../../generated/prisma/client.js';
import { textProblem } from '../../lib/text.js';
import type { Ctx } from '../context.js';
import { invalidField } from '../errors.js';

// User tokens as a customer's backend makes them, for operators and newcomers trying the guest
// surface (`crm token`): a compact HS256 JWS under the mode's identity secret, with the claims the
// guest surface verifies (guest.ts): `sub` (the user's external id), `iat` and `exp`.

/** A user token lives an hour unless asked otherwise. */
export const DEFAULT_TOKEN_SECONDS = 3600;
/** At most thirty days: a token is a try-out credential here, not a long-lived one. */
export const MAX_TOKEN_SECONDS = 30 * 24 * 3600;
const MAX_EXTERNAL_ID = 200;

export interface IssuedUserToken {
  token: string;
  expiresAt: Date;
}

/** A user token for `sub` in `mode` (live or test, by the mode's own identity secret), valid `seconds` from now. */
export async function issueUserToken(ctx: Ctx, mode: AppMode, input: { sub: string; seconds?: number }): Promise<IssuedUserToken> {
  const sub = input.sub;
  if (sub.length < 1 || sub.length > MAX_EXTERNAL_ID) throw invalidField('sub', `must be 1 to ${MAX_EXTERNAL_ID} characters`);
  const problem = textProblem(sub);
  if (problem) throw invalidField('sub', problem);
  const seconds = input.seconds ?? DEFAULT_TOKEN_SECONDS;
  if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_TOKEN_SECONDS)
    throw invalidField('ttl', `must be a whole number of seconds from 1 to ${MAX_TOKEN_SECONDS}`);
  const now = Math.floor(ctx.clock.now().getTime() / 1000);
  const secret = new TextEncoder().encode(ctx.svc.secrets.open(mode.identitySecretEnc));
  // Loaded here: `crm` reads its command line (which names DEFAULT_TOKEN_SECONDS) without the JOSE library.
  const { SignJWT } = await import('jose');
  const token = await new SignJWT({ sub })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now)
    .setExpirationTime(now + seconds)
    .sign(secret);
  return { token, expiresAt: new Date((now + seconds) * 1000) };
}
