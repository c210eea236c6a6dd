import type Koa from 'koa';
import { invalidField } from '../../src/domain/errors.js';
import { refuseDeclaredOver, tooLarge } from '../../src/http/body-limit.js';
import { checkJsonCharset, parseJsonBody } from './json.js';

// Reads request bodies up to a size, keeping the raw bytes (signed hooks need them). Never on /graphql.

export function readBody(maxBytes: number): Koa.Middleware {
  return async (ctx, next) => {
    if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(ctx.method) || ctx.path.startsWith('/graphql')) return next();
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
