import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type Koa from 'koa';

// What the web apps the service serves (the console, the messenger) share: where dist/ is, and a
// hashed asset answered for ever.

/** The checkout's root: the folder with package.json above this file, whether it runs from src/ or dist/src/. */
export function checkoutRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

export const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

const ASSET = /^[A-Za-z0-9._-]+$/;

function notFound(ctx: Koa.Context): void {
  ctx.status = 404;
  ctx.set('Cache-Control', 'no-cache');
  ctx.type = 'text/plain; charset=utf-8';
  ctx.body = 'Not found';
}

/**
 * A file of `dir` named `name`, answered with `cacheControl` (a hashed asset's name is the same bytes
 * for ever: immutable), or 404. Only plain names: no path reaches outside `dir`.
 */
export async function serveFile(ctx: Koa.Context, dir: string, name: string, cacheControl: string): Promise<void> {
  const file = path.join(dir, name);
  const found = ASSET.test(name) ? await stat(file).catch(() => undefined) : undefined;
  if (!found?.isFile()) return notFound(ctx);
  ctx.set('Cache-Control', cacheControl);
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.type = TYPES[path.extname(name)] ?? 'application/octet-stream';
  ctx.length = found.size;
  ctx.body = await readFile(file);
}

export const IMMUTABLE = 'public, max-age=31536000, immutable';
