import type Koa from 'koa';
import { DomainError, invalidField } from '../../src/domain/errors.js';

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
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(ctx.get('Content-Type'))) throw invalidField('Content-Type', 'send the body as application/json');
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new DomainError(400, 'malformed_json', 'The body is not readable JSON', 'The request body could not be parsed as JSON.', [
      { field: 'body', message: 'not valid JSON' },
    ]);
  }
  const nul = pathOfNul(body, []);
  if (nul) throw invalidField(nul.join('.') || 'body', 'must not contain the NUL character (\\u0000)');
  return body;
}

/** PostgreSQL text cannot hold U+0000: the path of the first string (or key) that has one. */
function pathOfNul(value: unknown, path: string[]): string[] | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (!value || typeof value !== 'object') return undefined;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000')) return [...path, key.replaceAll('\u0000', '')];
    const found = pathOfNul(item, [...path, key]);
    if (found) return found;
  }
  return undefined;
}
