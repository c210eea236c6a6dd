import Router from '@koa/router';
import Koa from 'koa';
import { openApiDocument } from '../rest-facade/openapi.js';
import { blobCors, blobRouter } from '../rest-facade/blobs.js';
import { emailPagesRouter } from '../rest-facade/pages/email.js';
import { helpSiteRouter } from '../rest-facade/pages/help.js';
import { helpSitePath } from '../rest-facade/pages/help-paths.js';
import { signupPagesRouter } from '../rest-facade/pages/signup.js';
import { allRoutes, restRouter } from '../rest-facade/routes.js';
import { guestCors, publicCors } from '../rest-facade/http/access.js';
import { readBody } from '../rest-facade/http/body.js';
import { under, underOr } from '../rest-facade/http/cors.js';
import { problems } from '../rest-facade/http/problem.js';
import { exec, sql } from './db/sql.js';
import { sweepRateBuckets } from './domain/access/rate-limits.js';
import { sweepUnusedAttachments } from './domain/attachments/sweep.js';
import { purgeEraseRequests } from './domain/contacts/erasure.js';
import { purgeIdempotencyKeys } from './domain/conversations/idempotency.js';
import { flushViews } from './domain/help/views.js';
import { sweepUnnamedHelpPictures } from './domain/help/picture-sweep.js';
import { sweepVoteAddresses } from './domain/help/ratings.js';
import { sweepPendingSignups } from './domain/signup/signup.js';
import { sweepDateTriggers } from './domain/workflows/date-trigger.js';
import { purgeOutbox } from './domain/outbox.js';
import { systemContext, type Services } from './domain/context.js';
import { DomainError } from './domain/errors.js';
import { mountGraphQL } from './graphql/mount.js';
import { demoHelpAppKey } from './demo/names.js';
import { DEMO_SITE_PATH, demoSiteRouter } from './demo/site.js';
import { createHttpServer } from './http/connections.js';
import { CONSOLE_PATH, consoleRouter } from './http/console.js';
import { messengerRouter } from './http/messenger.js';
import { drainable, DRAIN_BOUNDS, type DrainBounds } from './http/drain.js';
import { apiReferencePage, frontPage, type OpenApiLike } from './http/front-page.js';
import { createMetrics, observe } from './http/observability.js';
import { readableTarget } from './http/request-target.js';
import compose from 'koa-compose';
import type { Logger } from './lib/logger.js';

export interface RunningServer {
  url: string;
  port: number;
  /**
   * Takes no new connection, closes each kept-alive one with its next answer, lets requests in
   * flight finish (bounded: src/http/drain.ts), and resolves once no request handler is left
   * running: what they use may be closed after it.
   */
  close(): Promise<void>;
}

export async function startServer(
  svc: Services,
  log: Logger,
  opts: {
    port: number;
    host?: string;
    drain?: Partial<DrainBounds>;
    /** The demo site at /demo/ (the embedded PostgreSQL's demo only: src/demo/site.ts). */
    demoSite?: boolean;
  },
): Promise<RunningServer> {
  const app = new Koa();
  app.proxy = svc.config.trustProxy;
  app.silent = true;
  const metrics = createMetrics(svc);
  const server = createHttpServer(svc.config.timeouts);
  const drainer = drainable(server, log, { ...DRAIN_BOUNDS, ...opts.drain });
  let ready = true;

  const ops = new Router();
  ops.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' };
  });
  ops.get('/readyz', async (ctx) => {
    const dbUp =
      ready &&
      (await exec(svc, sql`SELECT 1`).then(
        () => true,
        () => false,
      ));
    if (!dbUp) throw new DomainError(503, 'not_ready', 'Not ready', ready ? 'The database cannot be reached.' : 'Shutting down.');
    ctx.body = { status: 'ready' };
  });
  ops.get('/metrics', async (ctx) => {
    ctx.type = metrics.registry.contentType;
    ctx.body = await metrics.registry.metrics();
  });
  const deps = { svc };
  // Made at the first ask, not at the start (about a tenth of a second of a server's start).
  let docs: { openapi: ReturnType<typeof openApiDocument>; reference: ReturnType<typeof apiReferencePage> } | undefined;
  const docsOf = () => {
    if (docs) return docs;
    const openapi = openApiDocument(allRoutes(), svc.config.baseUrl);
    return (docs = { openapi, reference: apiReferencePage(openapi as unknown as OpenApiLike) });
  };
  ops.get('/openapi.json', (ctx) => {
    ctx.body = docsOf().openapi;
  });
  // What runs here, with links to each way in (the demo's help site when the demo is here).
  ops.get('/', async (ctx) => {
    const appKey = await demoHelpAppKey(svc);
    const page = frontPage({
      helpSite: appKey ? helpSitePath(appKey) : undefined,
      staffConsole: CONSOLE_PATH,
      demoSite: opts.demoSite ? DEMO_SITE_PATH : undefined,
    });
    ctx.set(page.headers);
    ctx.body = page.html;
  });
  ops.get('/api-reference', (ctx) => {
    const { reference } = docsOf();
    ctx.set(reference.headers);
    ctx.body = reference.html;
  });

  const rest = restRouter(deps);
  const graphql = await mountGraphQL({ svc, log, server, router: ops, metrics });

  app.use(observe(log, metrics));
  // Outermost too, for what fails in the CORS step itself (such as a database away).
  app.use(problems());
  const opsMethods = ops.allowedMethods() as Koa.Middleware;
  const restRoutes = rest.routes() as Koa.Middleware;
  const restMethods = rest.allowedMethods() as Koa.Middleware;
  const readable = readableTarget(['/guest/v1/', '/public/v1/', '/server/v1/']);
  const body = readBody(svc.config.maxBodyBytes);
  const guestCorsStep = guestCors(svc);
  app.use(
    underOr(
      '/guest/v1',
      // A guest request takes only the steps that can act on its path, in the same order: the
      // other surfaces' CORS, the blob, operations, console and help-site routers answer none of
      // its paths (operations' allowed methods still answers a method no router has, as before).
      compose([guestCorsStep, problems(), readable, body, opsMethods, restRoutes, restMethods]),
      compose([
        // CORS before the inner problem middleware, so refusals carry the headers a page needs to read them.
        under('/public/v1', publicCors(svc)),
        under('/blobs', blobCors()),
        problems(),
        readable,
        // Uploads are raw bytes up to their signed size: before the JSON body reader and its limit.
        blobRouter(svc).routes() as Koa.Middleware,
        body,
        ops.routes() as Koa.Middleware,
        opsMethods,
        restRoutes,
        restMethods,
        // The staff console: its shell for every path under /console/, its hashed assets.
        consoleRouter().routes() as Koa.Middleware,
        // The web messenger: its first script at /messenger.js, its screens' hashed module.
        messengerRouter().routes() as Koa.Middleware,
        // The demo site, a pretend customer's page with the messenger on it (npm start's demo only).
        ...(opts.demoSite ? [demoSiteRouter(svc).routes() as Koa.Middleware] : []),
        // The public help site: server-rendered pages (src/lib/html), refusals as pages too.
        helpSiteRouter(svc).routes() as Koa.Middleware,
        // The pages an email's links lead to: the unsubscribe page and the preference centre.
        emailPagesRouter(svc).routes() as Koa.Middleware,
        // The page a sign-up's confirmation link leads to, and its button's confirm.
        signupPagesRouter(svc, CONSOLE_PATH).routes() as Koa.Middleware,
      ]),
    ),
  );

  server.on('request', drainer.handle(app.callback()));

  // Housekeeping every process may do: spent rate buckets, erase requests past their block, old outbox rows, unused attachments, help pictures no article names, past days' public vote counts, expired sign-ups; and the workflows' date triggers (people whose date is today).
  const sweeping = systemContext(svc, 'sweep');
  let swept: Promise<unknown> = Promise.resolve();
  const sweep = () =>
    (swept = Promise.all([
      sweepRateBuckets(svc),
      purgeEraseRequests(sweeping),
      purgeOutbox(sweeping),
      purgeIdempotencyKeys(sweeping),
      sweepUnusedAttachments(sweeping),
      sweepUnnamedHelpPictures(sweeping),
      sweepVoteAddresses(sweeping),
      sweepPendingSignups(sweeping),
      sweepDateTriggers(sweeping),
    ]).catch(() => {}));
  // The first a second after the start rather than during it: housekeeping answers no request, and
  // its statements' first compiling would hold the start's last steps (and the first /readyz).
  const firstSweep = setTimeout(() => void sweep(), 1_000);
  firstSweep.unref();
  const sweeper = setInterval(() => void sweep(), 60_000);
  sweeper.unref();

  await new Promise<void>((resolve) => server.listen(opts.port, opts.host ?? '0.0.0.0', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    async close() {
      ready = false;
      clearTimeout(firstSweep);
      clearInterval(sweeper);
      // Held long polls answer now (nothing new) rather than hold the shutdown for their 25 s.
      svc.caches.conversationWaits.stop();
      await graphql.close();
      await drainer.drain();
      await swept;
      // Views counted in memory since the last write.
      await flushViews(svc).catch(() => {});
    },
  };
}
