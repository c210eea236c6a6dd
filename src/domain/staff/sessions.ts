import { randomUUID } from 'node:crypto';
import type { StaffUser } from '../../generated/prisma/client.js';
import { decoyHash, verifyPassword } from '../../lib/passwords.js';
import { randomToken, sha256 } from '../../lib/secrets.js';
import type { Services } from '../context.js';
import { unauthorized } from '../errors.js';
import { takeRequest } from '../access/rate-limits.js';

// Staff sign in with email and password and get a revocable session token (`crm_st_…`), sent as
// `Authorization: Bearer` over HTTP and as `connectionParams.authorization` over graphql-ws.

export const SESSION_DAYS = 30;
/** Guesses allowed per minute: for one email from anywhere, and from one address at any emails. */
export const SIGN_IN_PER_EMAIL = 10;
export const SIGN_IN_PER_ADDRESS = 60;

export async function signIn(svc: Services, email: string, password: string, address: string): Promise<{ token: string; staffUser: StaffUser; expiresAt: Date }> {
  const normalized = email.trim().toLowerCase();
  // Counted before the password is looked at, so guessing costs the guesser, not only the hash.
  await takeRequest(svc, [
    { key: `signin:email:${sha256(normalized)}`, perMinute: SIGN_IN_PER_EMAIL },
    { key: `signin:addr:${address}`, perMinute: SIGN_IN_PER_ADDRESS },
  ]);
  const user = await svc.db.staffUser.findUnique({ where: { email: normalized } });
  // An unknown email costs the same time as a wrong password.
  const ok = await verifyPassword(password, user?.passwordHash ?? (await decoyHash()));
  if (!user || !ok) throw unauthorized('The email or password is wrong.');
  const token = `crm_st_${randomToken(40)}`;
  const expiresAt = new Date(svc.clock.now().getTime() + SESSION_DAYS * 86_400_000);
  await svc.db.staffSession.create({ data: { id: randomUUID(), staffUserId: user.id, tokenHash: sha256(token), expiresAt, createdAt: svc.clock.now() } });
  return { token, staffUser: user, expiresAt };
}

/** The staff user a session token names, or undefined when it is unknown, revoked or expired. */
export async function staffForToken(svc: Services, token: string | undefined): Promise<{ staffUser: StaffUser; sessionId: string } | undefined> {
  if (!token || !token.startsWith('crm_st_')) return undefined;
  const session = await svc.db.staffSession.findUnique({ where: { tokenHash: sha256(token) }, include: { staffUser: true } });
  if (!session || session.revokedAt || session.expiresAt <= svc.clock.now()) return undefined;
  return { staffUser: session.staffUser, sessionId: session.id };
}

/** Whether a session may still be used: not revoked, not expired. */
export async function sessionIsLive(svc: Services, sessionId: string): Promise<boolean> {
  const session = await svc.db.staffSession.findUnique({ where: { id: sessionId } });
  return !!session && !session.revokedAt && session.expiresAt > svc.clock.now();
}

export async function signOut(svc: Services, sessionId: string): Promise<void> {
  await svc.db.staffSession.updateMany({ where: { id: sessionId, revokedAt: null }, data: { revokedAt: svc.clock.now() } });
}
