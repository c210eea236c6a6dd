import type Koa from 'koa';
import { invalidField } from '../domain/errors.js';

// A path or query that is not percent-encoded UTF-8 is refused: the router would otherwise keep
// the undecodable text as it came, and an id such as %ED%A0%80 would silently become another id.

const decodes = (text: string) => {
  try {
    decodeURIComponent(text.replaceAll('+', ' '));
    return true;
  } catch {
    return false;
  }
};

export function readableTarget(): Koa.Middleware {
  return (ctx, next) => {
    if (!decodes(ctx.path)) throw invalidField('path', 'must be percent-encoded UTF-8');
    if (!decodes(ctx.querystring)) throw invalidField('query', 'must be percent-encoded UTF-8');
    return next();
  };
}
