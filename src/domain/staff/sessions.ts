import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { StaffUser } from '../../generated/prisma/client.js';
import { decoyHash, verifyPassword } from '../../lib/passwords.js';
import { randomToken, sha256 } from '../../lib/secrets.js';
import { transaction, type Ctx, type StaffCaller, type VisitorCaller } from '../context.js';
import { DomainError, unauthorized } from '../errors.js';
import { takeRequest } from '../access/rate-limits.js';
import { emit, SERVICE_WIDE, SESSION_ENDED } from '../outbox.js';
import { normalizeEmail } from './staff-users.js';

// Staff sign in with email and password and get a revocable session token (`crm_st_…`), sent as
// `Authorization: Bearer` over HTTP and as `connectionParams.authorization` over graphql-ws.

export const SESSION_DAYS = 30;

// Guessing limits. Refusing tries at one email from everywhere would let anyone lock a chosen
// person out, so refusals count per (email, address) and per address; tries at one email from
// all addresses only slow down past a ceiling.
/** Tries per minute at one email from one address; more are refused (rate_limited). */
export const SIGN_IN_PER_EMAIL_AND_ADDRESS = 10;
/** Tries per minute from one address at any emails; more are refused (rate_limited). */
export const SIGN_IN_PER_ADDRESS = 60;
/** Tries per minute at one email from all addresses before each further one is slowed down. */
export const SIGN_IN_PER_EMAIL = 100;
/** How long a try past SIGN_IN_PER_EMAIL waits before its password is checked. */
export const SIGN_IN_SLOW_MS = 1_500;

export async function signIn(
  ctx: Ctx<VisitorCaller>,
  email: string,
  password: string,
): Promise<{ token: string; staffUser: StaffUser; expiresAt: Date }> {
  const { svc, db, clock } = ctx;
  const { address } = ctx.caller;
  const normalized = normalizeEmail(email);
  const emailKey = sha256(normalized);
  // Counted before the password is looked at, so guessing costs the guesser, not only the hash.
  await takeRequest(svc, [
    { key: `signin:pair:${emailKey}:${address}`, perMinute: SIGN_IN_PER_EMAIL_AND_ADDRESS },
    { key: `signin:addr:${address}`, perMinute: SIGN_IN_PER_ADDRESS },
  ]);
  if (await pastCeiling(svc, `signin:email:${emailKey}`)) await sleep(SIGN_IN_SLOW_MS);
  const user = await db.staffUser.findUnique({ where: { email: normalized } });
  // An unknown email costs the same time as a wrong password.
  const ok = await verifyPassword(password, user?.passwordHash ?? (await decoyHash()));
  if (!user || !ok) throw unauthorized('The email or password is wrong.');
  const token = `crm_st_${randomToken(40)}`;
  const expiresAt = new Date(clock.now().getTime() + SESSION_DAYS * 86_400_000);
  await db.staffSession.create({
    data: { id: randomUUID(), staffUserId: user.id, tokenHash: sha256(token), expiresAt, createdAt: clock.now() },
  });
  return { token, staffUser: user, expiresAt };
}

/** Whether one email has had SIGN_IN_PER_EMAIL tries this minute. Tries past it are not counted, so the slowing ends a minute after the storm. */
async function pastCeiling(svc: Ctx['svc'], key: string): Promise<boolean> {
  try {
    await takeRequest(svc, [{ key, perMinute: SIGN_IN_PER_EMAIL }]);
    return false;
  } catch (err) {
    if (err instanceof DomainError && err.code === 'rate_limited') return true;
    throw err;
  }
}

/** The staff user a session token names, or undefined when it is unknown, revoked or expired. */
export async function staffForToken(
  svc: Ctx['svc'],
  token: string | undefined,
): Promise<{ staffUser: StaffUser; sessionId: string; expiresAt: Date } | undefined> {
  if (!token || !token.startsWith('crm_st_')) return undefined;
  const session = await svc.db.staffSession.findUnique({ where: { tokenHash: sha256(token) }, include: { staffUser: true } });
  if (!session || session.revokedAt || session.expiresAt <= svc.clock.now()) return undefined;
  return { staffUser: session.staffUser, sessionId: session.id, expiresAt: session.expiresAt };
}

/** Revokes the session; its live subscriptions, in every server process, end on the notice. */
export async function signOut(ctx: Ctx<StaffCaller>): Promise<void> {
  const { sessionId } = ctx.caller;
  await transaction(ctx, async (tx) => {
    const { count } = await tx.db.staffSession.updateMany({
      where: { id: sessionId, revokedAt: null },
      data: { revokedAt: tx.clock.now() },
    });
    if (count) await emit(tx, SESSION_ENDED, { appModeId: SERVICE_WIDE, data: { sessionId } });
  });
}
