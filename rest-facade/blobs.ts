import cors from '@koa/cors';
import Router from '@koa/router';
import type Koa from 'koa';
import { receiveAttachmentUpload } from '../src/domain/attachments/upload.js';
import { pictureInvalid, receiveHelpPictureUpload } from '../src/domain/help/pictures.js';
import { attachmentInvalid } from '../src/domain/attachments/refusals.js';
import { takeShared } from '../src/domain/access/rate-limits.js';
import { contextOf, type Ctx, type Services } from '../src/domain/context.js';
import { DomainError, invalidField, notFound } from '../src/domain/errors.js';
import { BLOB_ROUTE_PREFIX, type PostgresBlobStore } from '../src/lib/blobs/postgres.js';
import { BlobAddressRefused, type TokenTerms } from '../src/lib/blobs/signed-token.js';

// The PostgreSQL blob store's own addresses: `PUT /blobs/<token>` takes an upload's bytes and
// `GET /blobs/<token>` answers them, the token being the credential (signed, short-lived; see
// src/lib/blobs/signed-token.ts). Mounted before the JSON body reader: an upload is raw bytes up to
// its signed size, not MAX_BODY_BYTES. With S3 configured, clients go to the bucket and these answer 404.

/** The areas that hand out upload addresses, by key prefix: each checks and keeps its own uploads. */
const UPLOADS: { prefix: string; receive(ctx: Ctx, key: string, bytes: Buffer): Promise<void>; refuse(message: string): DomainError }[] = [
  { prefix: 'attachments/', receive: receiveAttachmentUpload, refuse: (message) => attachmentInvalid([{ field: 'body', message }]) },
  { prefix: 'help/', receive: receiveHelpPictureUpload, refuse: (message) => pictureInvalid([{ field: 'body', message }]) },
];

/** What the address in the path allows: 403 `address_invalid` (forged, altered) or `address_expired`; 404 with another store. */
function openAddress(svc: Services, token: string, method: 'put' | 'get'): { store: PostgresBlobStore; terms: TokenTerms } {
  const store = svc.blobs;
  if (store.kind !== 'postgres') throw notFound();
  try {
    return { store, terms: store.open(token, method) };
  } catch (err) {
    if (err instanceof BlobAddressRefused) throw new DomainError(403, `address_${err.reason}`, 'Refused', err.message);
    throw err;
  }
}

/** Anyone holding an address may use it from any page: it is the credential, and no cookie is read. */
export const blobCors = (): Koa.Middleware =>
  cors({
    origin: '*',
    allowMethods: ['GET', 'PUT'],
    allowHeaders: ['Content-Type'],
    exposeHeaders: ['Retry-After'],
    maxAge: 600,
    keepHeadersOnError: true,
  });

/** The body, refused by the area as soon as it runs past the signed size. */
async function readExactly(ctx: Koa.Context, size: number, refuse: (message: string) => DomainError): Promise<Buffer> {
  const tooLong = () => refuse(`the upload has more than the ${size} bytes declared`);
  if (Number(ctx.get('Content-Length') || 0) > size) throw tooLong();
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of ctx.req) {
    length += (chunk as Buffer).length;
    if (length > size) throw tooLong();
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export function blobRouter(svc: Services): Router {
  const router = new Router();
  const path = `${BLOB_ROUTE_PREFIX}:token`;
  const limit: Koa.Middleware = async (ctx, next) => {
    await takeShared(svc, [{ key: `blobs:addr:${ctx.ip}`, perMinute: svc.config.limits.blobAddressPerMinute }]);
    return next();
  };

  router.put(path, limit, async (ctx) => {
    const { terms } = openAddress(svc, ctx.params.token!, 'put');
    const owner = UPLOADS.find((u) => terms.key.startsWith(u.prefix));
    if (!owner) throw notFound();
    if (ctx.get('Content-Type').split(';')[0]!.trim().toLowerCase() !== terms.contentType)
      throw invalidField('Content-Type', `must be ${terms.contentType}, as the address says`);
    const bytes = await readExactly(ctx, terms.size ?? 0, owner.refuse);
    await owner.receive(contextOf(svc, { kind: 'visitor', address: ctx.ip }), terms.key, bytes);
    ctx.status = 204;
  });

  router.get(path, limit, async (ctx) => {
    const { store, terms } = openAddress(svc, ctx.params.token!, 'get');
    const blob = await store.read(terms.key);
    if (!blob) throw notFound('Nothing is kept at this address any more.');
    const seconds = Math.max(0, Math.floor((terms.expiresAt.getTime() - svc.clock.now().getTime()) / 1000));
    ctx.set('Cache-Control', `private, max-age=${seconds}, immutable`);
    // Served as the type checked at upload, never sniffed, and never run as a page.
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
    ctx.set('Content-Disposition', 'inline');
    ctx.type = terms.contentType;
    ctx.body = blob.bytes;
  });
  return router;
}
