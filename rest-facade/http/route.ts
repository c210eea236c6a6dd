import type Koa from 'koa';
import type Router from '@koa/router';
import { z } from 'zod';
import { isConnectionLost } from '../../src/db/lost-connection.js';
import compose from 'koa-compose';
import type { Ctx, GuestCaller, ServerCaller, VisitorCaller } from '../../src/domain/context.js';
import { invalid, invalidField, type FieldError } from '../../src/domain/errors.js';
import { parseJson } from './body.js';
import { problemOf, type FailureLog } from './problem.js';

// One declaration per route: its zod schemas validate the request and are also the source of the
// OpenAPI document, so the two cannot disagree.

export type Surface = 'guest' | 'server' | 'public';

/**
 * What a surface's access chain leaves on `ctx.state`: the request's context, with that surface's
 * caller. A route sees only its own surface's state, so a public route cannot read a guest.
 */
export interface SurfaceState {
  guest: { context: Ctx<GuestCaller> };
  server: { context: Ctx<ServerCaller> };
  public: { context: Ctx<VisitorCaller> };
}

export type RouteContext<S extends Surface> = Koa.ParameterizedContext<SurfaceState[S]>;
type Method = 'get' | 'put' | 'post' | 'delete';

export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /**
   * The answer comes later (a long poll): the request's middleware finish now, and what this
   * resolves to is written then (a problem document when it rejects), so a request held for long
   * keeps only what its answer needs. `status` is then only what the request log says until then.
   */
  later?: Promise<Answer>;
}

export interface RouteSpec<
  S extends Surface,
  P extends z.ZodType,
  Q extends z.ZodType,
  B extends z.ZodType,
  H extends z.ZodType = z.ZodObject,
> {
  method: Method;
  /** OpenAPI form, with `{param}`. */
  path: string;
  surface: S;
  summary: string;
  tag: string;
  params?: P;
  query?: Q;
  /** Request headers the route reads, by their names (`Idempotency-Key`); a refusal names the header. */
  headers?: H;
  body?: B;
  /** Success answers by status, with their schema when they have a body. */
  responses: Record<number, { description: string; schema?: z.ZodType; contentType?: string }>;
  /** Refusal statuses the route can answer, each a problem document. */
  errors: number[];
  /**
   * Guest routes: the route's own first statement holds and checks the person against an erase
   * (crm_erased, which counts an erase asked and not yet done) and answers them nothing or refuses
   * them (409 `erased`), so the guest access does not check again: a check-in stays one statement,
   * and one product event a request no second round trip.
   */
  erasedChecked?: true;
  /**
   * A page's plain form (application/x-www-form-urlencoded) is taken too: its fields made into the
   * body, which `body` then checks as it checks JSON; the route is told (`form`) to answer the page.
   */
  form?: { description: string; read(fields: URLSearchParams): unknown };
  /**
   * Public routes a person's mail client or browser follows (a click, the open pixel): over the
   * rate, the route still answers and `overLimit` tells it to count nothing, rather than a 429.
   */
  softLimit?: true;
  /**
   * An inbound email hook: its caller is whoever signs the raw body with the inbound secret
   * (X-CRM-Signature), checked before the body is read; not rate limited.
   */
  hook?: true;
  handle(
    ctx: RouteContext<S>,
    input: { params: z.output<P>; query: z.output<Q>; headers: z.output<H>; body: z.output<B>; form: boolean },
  ): Promise<Answer>;
}

export type AnyRoute = RouteSpec<Surface, z.ZodType, z.ZodType, z.ZodType, z.ZodType>;

export const defineRoute = <
  S extends Surface,
  P extends z.ZodType = z.ZodObject,
  Q extends z.ZodType = z.ZodObject,
  B extends z.ZodType = z.ZodUndefined,
  H extends z.ZodType = z.ZodObject,
>(
  spec: RouteSpec<S, P, Q, B, H>,
): AnyRoute => spec as unknown as AnyRoute;

/** The declared headers' values (absent ones undefined), by the names the route gave them. */
const headersOf = (route: AnyRoute, ctx: Koa.Context) =>
  route.headers instanceof z.ZodObject
    ? Object.fromEntries(Object.keys(route.headers.shape).map((name) => [name, ctx.get(name) || undefined]))
    : {};

function check<T extends z.ZodType>(schema: T | undefined, value: unknown, prefix: string, errors: FieldError[]): z.output<T> | undefined {
  if (!schema) return undefined;
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  for (const issue of r.error.issues) {
    const path = issue.path.map(String).join('.');
    errors.push({ field: path || prefix, message: issue.message });
  }
  return undefined;
}

/** Registers a route on its surface's router, behind that surface's access chain. */
export function mount(router: Router, route: AnyRoute, access: Koa.Middleware[]): void {
  const koaPath = route.path.replace(/\{(\w+)\}/g, ':$1');
  const handle: Koa.Middleware = async (ctx) => {
    const errors: FieldError[] = [];
    // What a route declares nothing of is not read.
    const params = route.params && check(route.params, ctx.params, 'path', errors);
    const query = route.query && check(route.query, { ...ctx.query }, 'query', errors);
    const headers = route.headers && check(route.headers, headersOf(route, ctx), 'headers', errors);
    // A route that takes no body ignores whatever came, as HTTP lets it.
    const form = route.form !== undefined && FORM.test(ctx.get('Content-Type'));
    const body = route.body ? check(route.body, form ? route.form!.read(formFields(ctx)) : parseJson(ctx), 'body', errors) : undefined;
    if (errors.length) throw invalid(errors);
    const answer = await route.handle(ctx as RouteContext<Surface>, { params, query, headers, body, form } as never);
    if (answer.later) return answerLater(ctx, answer.later);
    ctx.status = answer.status;
    if (answer.headers) for (const [k, v] of Object.entries(answer.headers)) ctx.set(k, v);
    if (answer.body !== undefined) ctx.body = answer.body;
  };
  // Composed once, not step by step on each request.
  const chain = compose([refuseNulInParams, ...access, handle]);
  router[route.method](koaPath, (ctx) => surviveLostConnection(ctx, chain));
}

/**
 * Writes the answer `later` resolves to on the bare response, as Koa would have (JSON, its length,
 * no body to HEAD), once the middleware are done; nothing when the client has gone meanwhile.
 */
function answerLater(ctx: Koa.Context, later: Promise<Answer>): void {
  ctx.respond = false;
  ctx.status = 200;
  const { req, res } = ctx;
  const { requestId, log } = ctx.state as { requestId?: string; log?: FailureLog };
  const write = (status: number, type: string, body: unknown, headers: Record<string, string> = {}) => {
    if (res.headersSent || res.destroyed) return;
    const text = JSON.stringify(body);
    res.statusCode = status;
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    res.setHeader('Content-Type', type);
    res.setHeader('Content-Length', Buffer.byteLength(text));
    res.end(req.method === 'HEAD' ? undefined : text);
  };
  later.then(
    (a) => write(a.status, 'application/json; charset=utf-8', a.body, a.headers),
    (thrown: unknown) => {
      const { status, body, headers } = problemOf(thrown, requestId ?? '', log);
      write(status, 'application/problem+json', body, headers);
    },
  );
}

export const FORM = /^application\/x-www-form-urlencoded\b/i;

/** A plain form's fields, read as UTF-8. */
export const formFields = (ctx: Koa.Context) =>
  new URLSearchParams(((ctx.state.rawBody as Buffer | undefined) ?? Buffer.alloc(0)).toString('utf8'));

/** A NUL in a path parameter, refused naming the parameter before any credential is read (src/http/request-target.ts refuses one elsewhere). */
const refuseNulInParams: Koa.Middleware = (ctx, next) => {
  for (const [name, value] of Object.entries(ctx.params ?? {}))
    if (typeof value === 'string' && value.includes('\u0000')) throw invalidField(name, 'must not contain the NUL character (%00)');
  return next();
};

/**
 * A database connection cut mid-request: a read is tried once more on a fresh connection. A
 * write, whose transaction PostgreSQL rolled back, is answered 503 (problems()) to be sent again.
 */
async function surviveLostConnection(ctx: Koa.Context, attempt: Koa.Middleware): Promise<void> {
  try {
    await attempt(ctx, nothingAfter);
  } catch (err) {
    if (ctx.method !== 'GET' || !isConnectionLost(err)) throw err;
    await attempt(ctx, nothingAfter);
  }
}

/** The `next` of a route's last step: the route answers, nothing runs after it. */
const nothingAfter = () => Promise.resolve();
