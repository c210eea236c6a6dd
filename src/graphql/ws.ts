import type http from 'node:http';
import { GraphQLError, type DocumentNode, type ExecutionArgs } from 'graphql';
import { useServer } from 'graphql-ws/use/ws';
import { WebSocketServer } from 'ws';
import type { Services } from '../domain/context.js';
import type { Logger } from '../lib/logger.js';
import type { Metrics } from '../http/observability.js';
import { unavailableRefusal } from '../domain/errors.js';
import { staffContext } from './context.js';
import { staffErrors } from './errors.js';
import { subscribeShared, type Delivery } from './shared-events.js';
import type { StaffYoga } from './yoga.js';

// graphql-ws on the HTTP server's /graphql, executed by yoga's pipeline. The staff credential
// comes once, as connectionParams.authorization; it is checked on connect (4401 when bad) and
// again for every operation, so a session signed out meanwhile starts nothing new.

const UNAUTHORIZED = 4401;
/** The database is away (src/domain/errors.ts unavailable): clients connect again later, as after a REST 503. */
const TRY_AGAIN_LATER = 1013;
/** How long sockets get to answer the close handshake before they are cut. */
const CLOSE_GRACE_MS = 1000;

/** Yoga's execute and subscribe for one operation, with its plugins (masking, context) around them, and where its answers go. */
type Pipeline = Pick<ReturnType<StaffYoga['getEnveloped']>, 'execute' | 'subscribe'> & { delivery: Delivery };

export function serveGraphQLOverWebSocket(deps: { svc: Services; log: Logger; server: http.Server; yoga: StaffYoga; metrics: Metrics }): {
  close(): Promise<void>;
} {
  const { svc, yoga } = deps;
  // WebSockets are outside CORS: a page on any site could open one. Browsers always send Origin,
  // so only the service's own pages and the configured staff consoles get through; clients that
  // are not browsers send none.
  const allowedOrigins = new Set([new URL(svc.config.baseUrl).origin, ...svc.config.staffConsoleOrigins]);
  const wss = new WebSocketServer({
    server: deps.server,
    path: '/graphql',
    // A message larger than an HTTP body may be closes the socket (1009).
    maxPayload: svc.config.maxBodyBytes,
    verifyClient: ({ origin }, done) => (!origin || allowedOrigins.has(origin) ? done(true) : done(false, 403, 'Origin not allowed')),
  });
  deps.metrics.sources.liveConnections = () => wss.clients.size;
  const maskError = staffErrors(deps.log);
  // As Koa reads ctx.ip: the first X-Forwarded-For entry only behind a proxy the operator runs.
  const addressOf = (request: http.IncomingMessage) => {
    const forwarded = svc.config.trustProxy
      ? String(request.headers['x-forwarded-for'] ?? '')
          .split(',')[0]
          ?.trim()
      : '';
    return forwarded || request.socket.remoteAddress || 'unknown';
  };

  const graphqlWs = useServer<{ authorization?: unknown }>(
    {
      onConnect: async (ctx) => {
        let signedIn: boolean;
        try {
          signedIn = !!(await staffContext(svc, ctx.connectionParams?.authorization, addressOf(ctx.extra.request))).viewer;
        } catch (err) {
          if (!unavailableRefusal(err)) throw err;
          ctx.extra.socket.close(TRY_AGAIN_LATER, 'Database unavailable; try again');
          return false;
        }
        if (signedIn) return true;
        // Returning false alone would close with 4403, which clients retry; 4401 tells them to sign in.
        ctx.extra.socket.close(UNAUTHORIZED, 'Unauthorized');
        return false;
      },
      onSubscribe: async (ctx, id, payload) => {
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          authorization: ctx.connectionParams?.authorization,
          address: addressOf(ctx.extra.request),
          params: payload,
        });
        let document: DocumentNode;
        try {
          document = parse(payload.query);
        } catch (err) {
          if (err instanceof GraphQLError) return [err];
          throw err;
        }
        const errors = validate(schema, document);
        if (errors.length) return errors;
        const { socket } = ctx.extra;
        // As graphql-ws sends (use/ws): nothing once the socket is closing, and each frame's write awaited.
        const send = (frame: string) =>
          new Promise<void>((resolve, reject) =>
            socket.readyState !== socket.OPEN ? resolve() : socket.send(frame, (err) => (err ? reject(err) : resolve())),
          );
        const rootValue: Pipeline = { execute, subscribe, delivery: { id, send } };
        let contextValue: Awaited<ReturnType<typeof contextFactory>>;
        try {
          contextValue = await contextFactory();
        } catch (err) {
          // The operation's refusal (the database away: `unavailable`), not the socket's end.
          return [maskError(err)];
        }
        return { schema, document, operationName: payload.operationName, variableValues: payload.variables, contextValue, rootValue };
      },
      // The pipeline's execute and subscribe ride in rootValue, as yoga's graphql-ws recipe does.
      execute: (args: ExecutionArgs) => (args.rootValue as Pipeline).execute(args),
      // Each event of a live subscription runs, and is serialized, once for the subscribers that share its answer (shared-events.ts).
      subscribe: (args: ExecutionArgs) =>
        subscribeShared({ ...args, rootValue: undefined }, maskError, deps.metrics.liveAnswers, (args.rootValue as Pipeline).delivery),
      // Errors thrown while a subscription streams bypass yoga's masking: mask them here too.
      onError: (_ctx, _id, _payload, errors) => errors.map((e) => maskError(e).toJSON()),
      // A failure outside any operation closes the socket with its reason: never say what it was.
      isProd: true,
    },
    wss,
  );

  return {
    async close() {
      const cut = setTimeout(() => wss.clients.forEach((socket) => socket.terminate()), CLOSE_GRACE_MS);
      await graphqlWs.dispose();
      clearTimeout(cut);
    },
  };
}
