import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import type { Services } from '../domain/context.js';
import type { Logger } from '../lib/logger.js';
import { staffContext, type StaffContext } from './context.js';
import { staffErrors } from './errors.js';
import { staffLimits, staffParseCaches } from './limits.js';
import { buildStaffSchema } from './schema.js';

/** What each transport hands yoga: the staff credential as the client sent it. */
export interface TransportContext {
  authorization: unknown;
  address: string;
  /** Over HTTP: when the answer has gone (Ctx.answered). */
  answered?: () => Promise<void>;
}

export type StaffYoga = YogaServerInstance<TransportContext, StaffContext>;

/** One execution pipeline (parse, validate, context, error masking) for HTTP and graphql-ws alike. */
export function createStaffYoga(svc: Services, log: Logger): StaffYoga {
  return createYoga<TransportContext, StaffContext>({
    schema: buildStaffSchema(),
    graphqlEndpoint: '/graphql',
    // Yoga's CORS would echo any origin with credentials; the staff API is called from its own
    // origin or by servers, and WebSocket origins are checked on upgrade.
    cors: false,
    // GraphiQL from the package itself: yoga's default page loads its scripts from a CDN, which a
    // deployment behind a firewall cannot reach. Loaded on the first page asked for: the package is
    // some 30 MB of heap that a process serving only the API never needs.
    graphiql: { title: 'Staff API' },
    renderGraphiQL: async (options) => (await import('@graphql-yoga/render-graphiql')).renderGraphiQL(options),
    landingPage: false,
    maskedErrors: { maskError: staffErrors(log) },
    // Yoga would log every refusal its masking touches as an error; staffErrors logs what matters.
    logging: false,
    context: ({ authorization, address, answered }) => staffContext(svc, authorization, address, answered),
    plugins: staffLimits(),
    parserAndValidationCache: staffParseCaches(),
    // mount.ts answers a larger body with the REST 413 problem document.
    maxRequestBodySize: svc.config.maxBodyBytes,
  });
}
