import type Koa from 'koa';
import type { AppMode } from '../../src/generated/prisma/client.js';
import type { GuestCaller, Services } from '../../src/domain/context.js';
import { findAppModeByKey, isAnyWebOrigin } from '../../src/domain/access/app-modes.js';
import { authenticateGuest } from '../../src/domain/access/guest.js';
import { beingErased, beingErasedRefusal } from '../../src/domain/contacts/erasure.js';
import { takeRequest, takeShared } from '../../src/domain/access/rate-limits.js';
import { authenticateServer } from '../../src/domain/access/server.js';
import { DomainError, unauthorized } from '../../src/domain/errors.js';
import { utf8Text } from '../../src/lib/text.js';
import { crossOrigin } from './cors.js';
import { checkHookPost } from '../../src/domain/email-in/hook-access.js';

/** The sign-up route, whose cross-origin rule is its own (publicCors). */
export const SIGNUP_PATH = '/public/v1/signup';

// The credential and rate-limit chain of each surface. Cookies are never read.

/** The app-mode named by X-CRM-App-Key, looked up once per request (null: none). */
async function headerAppMode(svc: Services, ctx: Koa.Context): Promise<AppMode | null> {
  if (!('appMode' in ctx.state)) ctx.state.appMode = (await findAppModeByKey(svc, ctx.get('X-CRM-App-Key') || undefined)) ?? null;
  return ctx.state.appMode as AppMode | null;
}

/** Guest routes: a page may read them only from its app's web origins (a preflight names no app). */
export const guestCors = (svc: Services) =>
  crossOrigin(async (ctx, origin) => {
    if (ctx.method === 'OPTIONS') return isAnyWebOrigin(svc, origin);
    return (await headerAppMode(svc, ctx))?.webOrigins.includes(origin) ?? false;
  });

/**
 * `GET /public/v1/apps/{key}`: readable from that app's web origins. `POST /public/v1/signup`: from
 * the deployment's home page origin alone (SIGNUP_HOME_ORIGIN), which reads every answer, refusals
 * and a 429's Retry-After included. Other public routes: no one.
 */
export const publicCors = (svc: Services) =>
  crossOrigin(async (ctx, origin) => {
    if (ctx.path === SIGNUP_PATH) return origin === svc.config.signup?.homeOrigin;
    const key = /^\/public\/v1\/apps\/([\w-]+)$/.exec(ctx.path)?.[1];
    if (!key) return false;
    if (ctx.method === 'OPTIONS') return isAnyWebOrigin(svc, origin);
    return (await findAppModeByKey(svc, key))?.webOrigins.includes(origin) ?? false;
  });

/** A refused credential still counts against the caller's address, so guessing is limited too. */
async function countingRefusals<T>(take: () => Promise<void>, check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (err) {
    if (err instanceof DomainError && err.status === 401) await take();
    throw err;
  }
}

/**
 * Guest access: the app key, the user, the limits; and a person whose erase was asked is served
 * nothing while it runs (beingErased): `erasedStatus` answers them, 409 `erased` on a route that
 * refuses an erased person's writes so, 403 `erased` (refused) on the others.
 */
export function guestAccess(svc: Services, erasedStatus: 403 | 409 | 'checked by the route' = 403): Koa.Middleware {
  return async (ctx, next) => {
    const { guestAppPerMinute, guestAddressPerMinute } = svc.config.limits;
    const appMode = await headerAppMode(svc, ctx);
    const address = { key: `guest:addr:${ctx.ip}`, perMinute: guestAddressPerMinute };
    let caller: GuestCaller;
    try {
      const { headers } = ctx.req;
      caller = await authenticateGuest(
        svc,
        {
          appKey: (headers['x-crm-app-key'] as string | undefined) || undefined,
          authorization: headers.authorization || undefined,
          userId: userIdHeader(ctx),
          sdk: (headers['x-crm-sdk'] as string | undefined) || undefined,
        },
        appMode,
      );
    } catch (err) {
      // A refused credential still counts against the caller's address (countingRefusals).
      if (err instanceof DomainError && err.status === 401) await takeShared(svc, [address]);
      throw err;
    }
    // Approximate (src/domain/access/rate-limits.ts): mostly spent from this process's memory.
    await takeShared(svc, [{ key: `guest:app:${caller.appModeId}`, perMinute: guestAppPerMinute }, address]);
    if (erasedStatus !== 'checked by the route' && (await beingErased(svc, caller.appModeId, caller.externalId)))
      throw beingErasedRefusal(erasedStatus);
    ctx.state.caller = caller;
    // The request's own logger (made per request by observe()) takes the bindings: no second child.
    ctx.state.log?.setBindings({ app_mode: caller.appModeId, sdk: caller.sdk });
    return next();
  };
}

/** Node reads header bytes as Latin-1; an id is UTF-8 text, refused when its bytes are not. */
function userIdHeader(ctx: Koa.Context): string | undefined {
  const raw = ctx.get('X-CRM-User-Id');
  if (!raw) return undefined;
  const text = utf8Text(Buffer.from(raw, 'latin1'));
  if (text === undefined) throw unauthorized('The X-CRM-User-Id header must be UTF-8 text.');
  return text;
}

export function serverAccess(svc: Services): Koa.Middleware {
  return async (ctx, next) => {
    const refused = { key: `server:refused:${ctx.ip}`, perMinute: svc.config.limits.serverKeyPerMinute };
    const caller = await countingRefusals(
      () => takeRequest(svc, [refused]),
      () => authenticateServer(svc, ctx.get('Authorization') || undefined),
    );
    // Exact, as the spec states it: one statement per request.
    await takeRequest(svc, [{ key: `server:key:${caller.serverKeyId}`, perMinute: svc.config.limits.serverKeyPerMinute }]);
    ctx.state.caller = caller;
    ctx.state.log?.setBindings({ app_mode: caller.appModeId });
    return next();
  };
}

/** Public routes: per address, and per app where the route names one. */
export function publicAccess(
  svc: Services,
  appKeyOf: (ctx: Koa.Context) => string | undefined,
  opts: { soft?: boolean } = {},
): Koa.Middleware {
  return async (ctx, next) => {
    const { publicAppPerMinute, publicAddressPerMinute } = svc.config.limits;
    const appKey = appKeyOf(ctx);
    const taking = takeShared(svc, [
      { key: `public:addr:${ctx.ip}`, perMinute: publicAddressPerMinute },
      ...(appKey ? [{ key: `public:app:${appKey}`, perMinute: publicAppPerMinute }] : []),
    ]);
    // A soft limit: over it, the route answers all the same and counts nothing (ctx.state.overLimit).
    if (opts.soft)
      await taking.catch((err: unknown) => {
        if (!(err instanceof DomainError) || err.status !== 429) throw err;
        ctx.state.overLimit = true;
      });
    else await taking;
    return next();
  };
}

/** The inbound email hooks: the signature over the raw body names who posted (checkHookPost), before anything else is read. */
export function hookAccess(svc: Services): Koa.Middleware {
  return async (ctx, next) => {
    const raw = (ctx.state.rawBody as Buffer | undefined) ?? Buffer.alloc(0);
    ctx.state.hookOwner = await checkHookPost(svc, ctx.params.key as string | undefined, ctx.get('X-CRM-Signature') || undefined, raw);
    return next();
  };
}
