import path from 'node:path';
import Router from '@koa/router';
import { checkoutRoot, IMMUTABLE, serveFile } from './static-files.js';

// The web messenger (messenger/, built into dist/messenger/ at install), loaded on customers' pages
// from other origins: its first script at a stable address (`/messenger.js`, cached briefly so a new
// build reaches pages within minutes), and its screens named by their hash (cached for ever), which
// the first script imports as a module, so they answer any origin (they hold nothing of anyone's); and
// the SDK alone at `/sdk.js`, a module for websites that draw their own UI; and the service worker part at
// `/messenger-sw.js`, which a site's own worker imports to show the pushes.

/** How long a browser keeps the first script before asking again (it is a few KB, and names the screens' build). */
const FIRST_SCRIPT_CACHE = 'public, max-age=300';

export function messengerRouter(opts: { dir?: string } = {}): Router {
  const dir = opts.dir ?? path.join(checkoutRoot(), 'dist', 'messenger');
  const router = new Router();
  router.get('/messenger.js', async (ctx) => {
    await serveFile(ctx, dir, 'messenger.js', FIRST_SCRIPT_CACHE);
    ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
  });
  // The SDK alone, as a module a website imports (`import { createClient } from '{base_url}/sdk.js'`).
  router.get('/sdk.js', async (ctx) => {
    await serveFile(ctx, dir, 'sdk.js', FIRST_SCRIPT_CACHE);
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
  });
  // The service worker part a site's own worker imports (`importScripts('{base_url}/messenger-sw.js')`): it shows the pushes.
  router.get('/messenger-sw.js', async (ctx) => {
    await serveFile(ctx, dir, 'messenger-sw.js', FIRST_SCRIPT_CACHE);
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
  });
  router.get('/messenger/assets/:name', async (ctx) => {
    await serveFile(ctx, path.join(dir, 'assets'), ctx.params.name ?? '', IMMUTABLE);
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
  });
  return router;
}
