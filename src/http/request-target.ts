import type Koa from 'koa';
import { invalidField } from '../domain/errors.js';

// A path or query that is not percent-encoded UTF-8 is refused: the router would otherwise keep
// the undecodable text as it came, and an id such as %ED%A0%80 would silently become another id.
// A NUL (%00) in the path, a query parameter or a header is refused here too, once for every route
// and before any credential is looked up: PostgreSQL cannot keep it (JSON bodies: rest-facade/http/json.ts).

const decoded = (text: string) => {
  // Without a percent sign there is nothing to decode (and nothing that can fail to decode).
  if (!text.includes('%')) return text.includes('+') ? text.replaceAll('+', ' ') : text;
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return undefined;
  }
};

const NUL = 'must not contain the NUL character (%00)';

/**
 * `namedByRoutes`: path prefixes whose routes refuse a NUL in a path parameter themselves, naming
 * the parameter, still before credentials (rest-facade/http/route.ts); every other path is refused here.
 */
export function readableTarget(namedByRoutes: string[] = []): Koa.Middleware {
  return (ctx, next) => {
    const path = decoded(ctx.path);
    if (path === undefined) throw invalidField('path', 'must be percent-encoded UTF-8');
    if (decoded(ctx.querystring) === undefined) throw invalidField('query', 'must be percent-encoded UTF-8');
    if (path.includes('\u0000') && !namedByRoutes.some((prefix) => ctx.path.startsWith(prefix))) throw invalidField('path', NUL);
    const query = ctx.querystring;
    if (query)
      for (const [name, value] of new URLSearchParams(query))
        if (name.includes('\u0000') || value.includes('\u0000')) throw invalidField(`query.${name.replaceAll('\u0000', '')}`, NUL);
    // Node's parser refuses a NUL in a header already; kept for any other way a request arrives.
    const raw = ctx.req.rawHeaders;
    for (let i = 0; i + 1 < raw.length; i += 2)
      if (raw[i]!.includes('\u0000') || raw[i + 1]!.includes('\u0000'))
        throw invalidField(`header.${raw[i]!.replaceAll('\u0000', '')}`, NUL);
    return next();
  };
}
