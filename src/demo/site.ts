import Router from '@koa/router';
import type Koa from 'koa';
import { issueUserToken } from '../domain/access/user-tokens.js';
import { systemContext, type Services } from '../domain/context.js';
import { DomainError } from '../domain/errors.js';
import { html } from '../lib/html/index.js';
import { DEMO_CONTACT, demoLiveMode } from './names.js';

// The demo site of `npm start` on the embedded PostgreSQL: a pretend customer's website at
// `/demo/` with the web messenger on it, loaded as any site loads it (one script tag and a boot
// with a token function), its person signed in as the demo contact. A real site's backend makes
// its users' tokens; here `/demo/token` does, for the demo contact only, for 10 minutes, and only
// for a browser on this machine (the socket's own address, never a forwarded one) on this page's
// origin. Nothing of it exists on a server with DATABASE_URL (no demo is made there).

export const DEMO_SITE_PATH = '/demo/';
const TOKEN_SECONDS = 600;
const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** The page's policy: what a site with a Content-Security-Policy allows the messenger (here the service is this origin). */
export const DEMO_SITE_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // The messenger's styles are style elements inside its shadow root.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' https: data: blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The boot, as a site writes it before the messenger's script: the token from the site's own route. */
const BOOT_SCRIPT = `window.Messenger = window.Messenger || { q: [] };
window.Messenger.q.push(['boot', [{
  token: () => fetch('/demo/token', { method: 'POST' }).then((r) => {
    if (!r.ok) throw new Error('the demo site gave no token (' + r.status + ')');
    return r.text();
  }),
}]]);
`;

const STYLE = `body { font: 16px/1.5 system-ui, sans-serif; margin: 0; color: #1d2330; background: #f6f7fb; }
header { background: #1d2330; color: #fff; padding: 1rem 2rem; }
header p { margin: 0; font-weight: 600; }
main { max-width: 46rem; margin: 0 auto; padding: 2rem; }
pre { background: #fff; border: 1px solid #d5d9e3; border-radius: 6px; padding: 1rem; overflow-x: auto; font-size: 14px; }
a { color: #2e4bc6; }
`;

function page(appKey: string): string {
  const snippet = `<script src="{base_url}/messenger.js" data-app-key="${appKey}" async></script>
<script>
  Messenger.boot({ token: () => fetch('/my-token').then((r) => r.text()) });
</script>`;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>Acme Analytics (demo site)</title>
        <link rel="stylesheet" href="/demo/site.css" />
      </head>
      <body>
        <header><p>Acme Analytics</p></header>
        <main>
          <h1>A customer's website, with the messenger</h1>
          <p>
            This page stands for a website of the demo app's customer. Its person is signed in as
            <strong>Ada Lovelace</strong> (the demo contact <code>${DEMO_CONTACT}</code>). Open the round button at the bottom right:
            Ada's conversations, the help center, her notices and the live banner are there. Answer her from the
            <a href="/console/">staff console</a> and the reply shows here at once.
          </p>
          <h2>How a site puts it on its pages</h2>
          <pre tabindex="0"><code>${snippet}</code></pre>
          <p>
            The site's own backend makes its signed-in user's token (HS256 with the app's identity secret). On this demo the
            service makes Ada's, for ten minutes, and only for a browser on this machine.
          </p>
        </main>
        <script src="/demo/boot.js"></script>
        <script src="/messenger.js" data-app-key="${appKey}" async></script>
      </body>
    </html>`.markup;
}

const refuse = (status: number, code: string, detail: string) => new DomainError(status, code, 'Not given', detail);

export function demoSiteRouter(svc: Services): Router {
  // Strict: /demo (redirected) and /demo/ (the page) are two routes.
  const router = new Router({ strict: true });
  const text = (ctx: Koa.Context, type: string, body: string) => {
    ctx.set('Content-Type', type);
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = body;
  };
  router.get('/demo', (ctx) => ctx.redirect(DEMO_SITE_PATH));
  router.get(DEMO_SITE_PATH, async (ctx) => {
    const mode = await demoLiveMode(svc);
    if (!mode) return; // the demo app was renamed or archived: 404
    ctx.set('Content-Security-Policy', DEMO_SITE_POLICY);
    ctx.set('Referrer-Policy', 'no-referrer');
    text(ctx, 'text/html; charset=utf-8', page(mode.appKey));
  });
  router.get('/demo/boot.js', (ctx) => text(ctx, 'text/javascript; charset=utf-8', BOOT_SCRIPT));
  router.get('/demo/site.css', (ctx) => text(ctx, 'text/css; charset=utf-8', STYLE));
  router.post('/demo/token', async (ctx) => {
    if (!LOOPBACK.has(ctx.req.socket.remoteAddress ?? ''))
      throw refuse(403, 'forbidden', 'The demo site gives its token only to a browser on the machine the service runs on.');
    const origin = ctx.get('Origin');
    if (origin && origin !== `${ctx.protocol}://${ctx.host}`)
      throw refuse(403, 'forbidden', "The demo site gives its token only to its own page's origin.");
    const mode = await demoLiveMode(svc);
    if (!mode) throw refuse(404, 'not_found', 'The demo app is not here.');
    const made = await issueUserToken(systemContext(svc, 'demo site'), mode, { sub: DEMO_CONTACT, seconds: TOKEN_SECONDS });
    text(ctx, 'text/plain; charset=utf-8', made.token);
    ctx.set('Cache-Control', 'no-store');
  });
  return router;
}
