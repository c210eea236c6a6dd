import { readFile } from 'node:fs/promises';
import path from 'node:path';
import Router from '@koa/router';
import type Koa from 'koa';
import { checkoutRoot, IMMUTABLE, serveFile } from './static-files.js';

// The staff console (console/, built into dist/console/ at install): the HTML shell for /console/
// and every path under it (the console's own routes), and its hashed assets. Same origin as
// /graphql: no CORS, nothing from another host. The shell is read at each answer (a few hundred
// bytes), so a rebuild beside a running server is served at once.

export const CONSOLE_PATH = '/console/';

/** A Host header as a policy may name it (a name or address and a port): anything else is left out of the policy. */
const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/** The shell's policy: script, style and everything else from this origin only; the socket to this same host. */
export function consolePolicy(host: string): string {
  const socket = HOST.test(host) ? ` ws://${host} wss://${host}` : '';
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    `connect-src 'self'${socket}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function consoleRouter(opts: { dir?: string } = {}): Router {
  const dir = opts.dir ?? path.join(checkoutRoot(), 'dist', 'console');
  const router = new Router();

  const shell = async (ctx: Koa.Context) => {
    const html = await readFile(path.join(dir, 'index.html')).catch(() => undefined);
    ctx.set('Cache-Control', 'no-cache');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'same-origin');
    if (!html) {
      ctx.status = 503;
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = 'The staff console is not built: run `npm run build`.';
      return;
    }
    ctx.set('Content-Security-Policy', consolePolicy(ctx.host));
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = html;
  };

  router.get('/console', async (ctx) => {
    // The router takes /console/ here too (a trailing slash is optional to it): that is the shell.
    if (ctx.path !== '/console') return shell(ctx);
    ctx.status = 308;
    ctx.redirect(CONSOLE_PATH + (ctx.querystring ? `?${ctx.querystring}` : ''));
  });
  router.get('/console/assets/:name', async (ctx) => {
    // The name carries the content's hash: the same name is the same bytes for ever.
    await serveFile(ctx, path.join(dir, 'assets'), ctx.params.name ?? '', IMMUTABLE);
  });
  router.get(['/console/', '/console/{*rest}'], shell);
  return router;
}
