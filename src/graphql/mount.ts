import type http from 'node:http';
import type { Router, RouterMiddleware } from '@koa/router';
import type { Services } from '../domain/context.js';
import type { Logger } from '../lib/logger.js';
import type { Metrics } from '../http/observability.js';
import { answeredOf } from '../http/answered.js';
import { refuseDeclaredOver, tooLarge } from '../http/body-limit.js';
import { serveGraphQLOverWebSocket } from './ws.js';
import { createStaffYoga } from './yoga.js';

/** Mounts the staff GraphQL API at /graphql (HTTP and graphql-ws on the same path). */
export async function mountGraphQL(deps: {
  svc: Services;
  log: Logger;
  server: http.Server;
  router: Router;
  metrics: Metrics;
}): Promise<{ close(): Promise<void> }> {
  const yoga = createStaffYoga(deps.svc, deps.log);
  const handle: RouterMiddleware = async (ctx) => {
    // A declared length is refused before yoga reads anything; yoga counts a body without one (chunked).
    refuseDeclaredOver(ctx, deps.svc.config.maxBodyBytes);
    const response = await yoga.handleNodeRequestAndResponse(ctx.req, ctx.res, {
      authorization: ctx.get('Authorization') || undefined,
      address: ctx.ip,
      answered: answeredOf(ctx.res),
    });
    // The problems middleware answers it as the REST routes do: 413, application/problem+json.
    if (response.status === 413) throw tooLarge(deps.svc.config.maxBodyBytes);
    // Body first: Koa turns a bodiless answer (such as a 406) into a 204 unless the status follows.
    ctx.body = response.body;
    ctx.status = response.status;
    response.headers.forEach((value, name) => ctx.set(name, value));
  };
  deps.router.get('/graphql', handle).post('/graphql', handle);
  return serveGraphQLOverWebSocket({ ...deps, yoga });
}
