import type Koa from 'koa';
import { DomainError, unavailableRefusal } from '../../src/domain/errors.js';

// Every refusal is application/problem+json with `code`, `title`, `detail` and, for bad fields,
// `errors[].field`. A 5xx says nothing of the internals.

export function problemBody(err: DomainError, requestId: string) {
  return {
    type: 'about:blank',
    status: err.status,
    code: err.code,
    title: err.title,
    detail: err.detail,
    ...(err.errors.length ? { errors: err.errors } : {}),
    request_id: requestId,
  };
}

/** Where a failed request is logged: the request's own logger. */
export interface FailureLog {
  error(o: object, m: string): void;
  warn(o: object, m: string): void;
}

/** What a thrown error is answered with: its status, its problem document and its headers; a 5xx logged (503 as a warning). */
export function problemOf(thrown: unknown, requestId: string, log?: FailureLog) {
  const err = asDomainError(thrown);
  if (err.status >= 500) log?.[err.status === 503 ? 'warn' : 'error']({ err: thrown }, 'request failed');
  return { status: err.status, body: problemBody(err, requestId), headers: err.headers };
}

export function problems(): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
      // The routers leave these bare (405 with its Allow header): dress them as problems.
      if (ctx.status === 404 && ctx.body === undefined)
        throw new DomainError(404, 'not_found', 'Not found', `No route answers ${ctx.method} ${ctx.path}.`);
      if ((ctx.status === 405 || ctx.status === 501) && !ctx.body)
        throw new DomainError(
          405,
          'method_not_allowed',
          'Method not allowed',
          `This route answers ${ctx.response.get('Allow') || 'other methods'}.`,
        );
    } catch (thrown) {
      const { status, body, headers } = problemOf(thrown, ctx.state.requestId ?? '', ctx.state.log);
      ctx.status = status;
      for (const [name, value] of Object.entries(headers)) ctx.set(name, value);
      ctx.type = 'application/problem+json';
      ctx.body = body;
    }
  };
}

function asDomainError(thrown: unknown): DomainError {
  if (thrown instanceof DomainError) return thrown;
  return (
    unavailableRefusal(thrown) ??
    new DomainError(500, 'internal', 'Something went wrong on our side', 'Try again later; nothing was half done.')
  );
}
