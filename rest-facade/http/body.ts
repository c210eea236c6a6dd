import type Koa from 'koa';
import { DomainError, invalidField } from '../../src/domain/errors.js';
import { checkJsonCharset, parseJsonBody } from './json.js';

// Reads request bodies up to a size, keeping the raw bytes (signed hooks need them). Never on /graphql.

export const tooLarge = (limit: number) =>
  new DomainError(413, 'payload_too_large', 'Too large', `The request body is larger than ${limit} bytes.`);

export function readBody(maxBytes: number): Koa.Middleware {
  return async (ctx, next) => {
    if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(ctx.method) || ctx.path.startsWith('/graphql')) return next();
    const declared = Number(ctx.get('Content-Length') || 0);
    if (declared > maxBytes) throw tooLarge(maxBytes);
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
