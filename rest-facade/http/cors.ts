import cors from '@koa/cors';
import type Koa from 'koa';

// The spec's cross-origin rules. Each surface says which origin, if any, may read an answer;
// @koa/cors does the rest: preflight, echoing the origin, `Vary: Origin`, never credentials.

export const ALLOWED_REQUEST_HEADERS = ['Authorization', 'X-CRM-App-Key', 'Content-Type', 'X-Crm-Sdk', 'Idempotency-Key'];

/** `allow` answers the origin to echo, or '' for none. */
export function crossOrigin(allow: (ctx: Koa.Context, origin: string) => Promise<boolean>): Koa.Middleware {
  const handler = cors({
    origin: async (ctx) => {
      const origin = ctx.get('Origin');
      return origin && (await allow(ctx, origin)) ? origin : '';
    },
    allowMethods: ['GET', 'PUT', 'POST', 'DELETE'],
    allowHeaders: ALLOWED_REQUEST_HEADERS,
    exposeHeaders: ['Retry-After'],
    maxAge: 600,
    keepHeadersOnError: true,
  });
  return (ctx, next) => {
    ctx.vary('Origin');
    // No Origin (not a page's request): nothing to allow, as @koa/cors would find, without its steps.
    if (!ctx.get('Origin')) return next();
    return handler(ctx, next);
  };
}

/** Runs a middleware only under a path prefix. */
export const under =
  (prefix: string, mw: Koa.Middleware): Koa.Middleware =>
  (ctx, next) =>
    ctx.path === prefix || ctx.path.startsWith(`${prefix}/`) ? mw(ctx, next) : next();

/** `inside` for a path under the prefix, else `outside`. */
export const underOr =
  (prefix: string, inside: Koa.Middleware, outside: Koa.Middleware): Koa.Middleware =>
  (ctx, next) =>
    ctx.path === prefix || ctx.path.startsWith(`${prefix}/`) ? inside(ctx, next) : outside(ctx, next);
