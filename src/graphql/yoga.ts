import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import type { Services } from '../domain/context.js';
import type { Logger } from '../lib/logger.js';
import { staffContext, type StaffContext } from './context.js';
import { staffErrors, unavailableOverHttp } from './errors.js';
import { staffLimits, staffParseCaches } from './limits.js';
import { refuseUnkeepableText } from './text-input.js';
import { buildStaffSchema } from './schema.js';

/** What each transport hands yoga: the staff credential as the client sent it. */
export interface TransportContext {
  authorization: unknown;
  address: string;
  /** Over HTTP: when the answer has gone (Ctx.answered). */
  answered?: () => Promise<void>;
}

/** What GraphiQL opens with (until the browser keeps its own): a valid sign-in and where its token goes. */
export const GRAPHIQL_DEFAULT_QUERY = `# The staff API. Sign in first: run this with your email and password
# (npm start prints the demo owner's on the first start).
#
# Then put the token it answers in the headers below, as
#   {"Authorization": "Bearer crm_st_..."}
# and every query and mutation works as that staff user (try: { viewer { email name } }).
mutation SignIn {
  signIn(email: "owner@demo.test", password: "the password printed at start") {
    token
    expiresAt
    viewer {
      email
    }
  }
}
`;

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
    // It opens on a sign-in, with the header editor shown: the one thing to do before anything
    // else answers. The schema (introspection) is answered without a session, so the editor
    // completes and documents fields from the start (limits.ts).
    graphiql: {
      title: 'Staff API',
      defaultQuery: GRAPHIQL_DEFAULT_QUERY,
      defaultEditorToolsVisibility: 'headers',
      headers: '{}',
    },
    renderGraphiQL: async (options) => (await import('@graphql-yoga/render-graphiql')).renderGraphiQL(options),
    landingPage: false,
    maskedErrors: { maskError: staffErrors(log) },
    // Yoga would log every refusal its masking touches as an error; staffErrors logs what matters.
    logging: false,
    context: ({ authorization, address, answered }) => staffContext(svc, authorization, address, answered),
    plugins: [refuseUnkeepableText(), ...staffLimits(), unavailableOverHttp()],
    parserAndValidationCache: staffParseCaches(),
    // mount.ts answers a larger body with the REST 413 problem document.
    maxRequestBodySize: svc.config.maxBodyBytes,
  });
}
