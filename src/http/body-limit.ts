import type Koa from 'koa';
import { DomainError } from '../domain/errors.js';

// The request body limit (MAX_BODY_BYTES), as both surfaces answer it: the REST routes, which read
// the body themselves (rest-facade/http/body.ts), and /graphql, whose server reads its own.

/** The refusal of a body over the limit: 413 payload_too_large, as application/problem+json. */
export const tooLarge = (limit: number) =>
  new DomainError(413, 'payload_too_large', 'Too large', `The request body is larger than ${limit} bytes.`);

/** Refuses a request whose declared Content-Length is over the limit, before anything of its body is read. */
export function refuseDeclaredOver(ctx: Koa.Context, maxBytes: number): void {
  if (Number(ctx.get('Content-Length') || 0) > maxBytes) throw tooLarge(maxBytes);
}
