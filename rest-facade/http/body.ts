import type Koa from 'koa';
import { invalidField } from '../../src/domain/errors.js';
import { refuseDeclaredOver, tooLarge } from '../../src/http/body-limit.js';
import { checkJsonCharset, parseJsonBody } from './json.js';

// Reads request bodies up to a size, keeping the raw bytes (signed hooks need them). Never on /graphql.

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function readBody(maxBytes: number): Koa.Middleware {
  const read: Koa.Middleware = async (ctx, next) => {
    refuseDeclaredOver(ctx, maxBytes);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of ctx.req) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) throw tooLarge(maxBytes);
      chunks.push(chunk as Buffer);
    }
    ctx.state.rawBody = Buffer.concat(chunks);
    return next();
  };
  // A request without a body to read passes on as it is, without a step of its own.
  return (ctx, next) => (!WITH_BODY.has(ctx.method) || ctx.path.startsWith('/graphql') ? next() : read(ctx, next));
}

/** The body as JSON; read after the credentials are checked, so a bad body never hides a 401. */
export function parseJson(ctx: Koa.Context): unknown {
  const raw: Buffer | undefined = ctx.state.rawBody;
  if (!raw || raw.length === 0) return undefined;
  const contentType = ctx.get('Content-Type');
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(contentType)) throw invalidField('Content-Type', 'send the body as application/json');
  checkJsonCharset(contentType);
  return parseJsonBody(raw);
}
