import type { StaffUser } from '../generated/prisma/client.js';
import { contextOf, type Ctx, type Services, type StaffCaller, type VisitorCaller } from '../domain/context.js';
import { DomainError } from '../domain/errors.js';
import { staffForToken } from '../domain/staff/sessions.js';

/** What every staff field sees: the services and, when a valid session token came, who is signed in. */
export interface StaffContext {
  svc: Services;
  viewer: { staffUser: StaffUser; sessionId: string; expiresAt: Date } | undefined;
  /** The caller's address, for the limits on signing in. */
  address: string;
  /** When the operation began, before its session was read (live subscriptions: notices heard since may not be in that read). */
  startedAt: number;
  /** A live subscription's rights, as liveFor decided them when it started: what its events' answers may depend on. */
  liveAccess?: { workspaceId: string; role: string };
  /** Over HTTP: when the answer has gone (Ctx.answered). */
  answered?: () => Promise<void>;
}

/** Reads `Bearer crm_st_…` (the Authorization header over HTTP, connectionParams.authorization over graphql-ws). */
export async function staffContext(
  svc: Services,
  authorization: unknown,
  address: string,
  answered?: () => Promise<void>,
): Promise<StaffContext> {
  const startedAt = Date.now();
  const token = typeof authorization === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] : undefined;
  const ctx: StaffContext = { svc, viewer: await staffForToken(svc, token), address, startedAt };
  if (answered) ctx.answered = answered;
  return ctx;
}

export const unauthenticated = () =>
  new DomainError(401, 'unauthenticated', 'Not signed in', 'Sign in with signIn and send its token as Authorization: Bearer crm_st_….');

/** The session of the signed-in staff user, or the `unauthenticated` refusal. */
export function sessionOf(ctx: StaffContext): NonNullable<StaffContext['viewer']> {
  if (!ctx.viewer) throw unauthenticated();
  return ctx.viewer;
}

/** The signed-in staff user, or the `unauthenticated` refusal. */
export const viewerOf = (ctx: StaffContext): StaffUser => sessionOf(ctx).staffUser;

/** The domain context of the signed-in staff user, or the `unauthenticated` refusal. */
export function asStaff(ctx: StaffContext): Ctx<StaffCaller> {
  const { staffUser, sessionId } = sessionOf(ctx);
  return contextOf(ctx.svc, { kind: 'staff', staffUser, sessionId }, ctx.answered);
}

/** The domain context of someone not signed in (signing in). */
export const asVisitor = (ctx: StaffContext): Ctx<VisitorCaller> =>
  contextOf(ctx.svc, { kind: 'visitor', address: ctx.address }, ctx.answered);
