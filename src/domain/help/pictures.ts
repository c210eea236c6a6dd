import { randomUUID } from 'node:crypto';
import { PICTURE_HEAD_BYTES, type PictureType } from '../../lib/blobs/pictures.js';
import type { SignedAddress } from '../../lib/blobs/store.js';
import { checkPicture } from '../attachments/check.js';
import type { Ctx, StaffCaller, TxCtx } from '../context.js';
import { DomainError, invalid, notFound, type FieldError } from '../errors.js';
import type { ContentBlock } from './blocks.js';
import { rows, sql } from '../../db/sql.js';

// Pictures staff upload for articles. Staff ask for an upload address (createHelpPicture), PUT the
// bytes there (the service's own /blobs route, or the S3 bucket), and name the picture in an image
// block by the address it was given, `<base>/public/v1/help/assets/<id>`. That address answers a
// 302 to a short-lived signed address of the bytes, so an article never holds one that expires.

export const MAX_PICTURE_BYTES = 10 * 1024 * 1024;
export const UPLOAD_SECONDS = 15 * 60;
/** How long the signed address a picture's redirect gives works (at least; the store rounds it up to its step). */
export const PICTURE_ADDRESS_SECONDS = 10 * 60;

export const ASSET_PATH = '/public/v1/help/assets/';
const ASSET_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const pictureKey = (appModeId: string, id: string) => `help/${appModeId}/${id}`;

export function pictureOfKey(key: string): { appModeId: string; id: string } | undefined {
  const m = /^help\/([^/]+)\/([^/]+)$/.exec(key);
  return m ? { appModeId: m[1]!, id: m[2]! } : undefined;
}

export interface NewPicture {
  id: string;
  /** The address to name in an image block's imageUrl. */
  url: string;
  upload: SignedAddress;
}

export async function createHelpPicture(
  ctx: Ctx<StaffCaller>,
  appModeId: string,
  input: { contentType: PictureType; size: number },
): Promise<NewPicture> {
  if (!Number.isInteger(input.size) || input.size < 1 || input.size > MAX_PICTURE_BYTES)
    throw invalid([{ field: 'size', message: `must be 1 to ${MAX_PICTURE_BYTES} bytes` }]);
  const id = randomUUID();
  await ctx.db.helpPicture.create({
    data: {
      id,
      appModeId,
      contentType: input.contentType,
      size: input.size,
      createdBy: ctx.caller.staffUser.id,
      createdAt: ctx.clock.now(),
    },
  });
  const upload = await ctx.svc.blobs.uploadAddress(pictureKey(appModeId, id), {
    contentType: input.contentType,
    size: input.size,
    seconds: UPLOAD_SECONDS,
  });
  return { id, url: `${ctx.svc.config.baseUrl}${ASSET_PATH}${id}`, upload };
}

export const pictureInvalid = (errors: FieldError[]) =>
  new DomainError(422, 'picture_invalid', 'The picture cannot be used', errors.map((e) => e.message).join('; '), errors);

/**
 * Bytes PUT at a picture's upload address of the service's own store: kept when they are the
 * declared picture. No transaction is held while the bytes are written (the store writes on a
 * connection of its own).
 */
export async function receiveHelpPictureUpload(ctx: Ctx, key: string, bytes: Buffer): Promise<void> {
  const owner = pictureOfKey(key);
  if (!owner) throw notFound();
  const row = await ctx.db.helpPicture.findFirst({ where: { id: owner.id, appModeId: owner.appModeId } });
  if (!row) throw notFound('No such picture.');
  const found = checkPicture(row, { head: bytes.subarray(0, PICTURE_HEAD_BYTES), size: bytes.length });
  if ('refused' in found) throw pictureInvalid([{ field: 'body', message: found.refused }]);
  await ctx.svc.blobs.put(key, bytes, row.contentType);
  await ctx.db.helpPicture.update({
    where: { id: row.id },
    data: { uploadedAt: ctx.clock.now(), width: found.width, height: found.height },
  });
}

/** The picture id an image address names, when it is one of this service's picture addresses. */
export function pictureIdOf(ctx: Ctx, url: string): string | undefined {
  const path = url.startsWith(ctx.svc.config.baseUrl) ? url.slice(ctx.svc.config.baseUrl.length) : url;
  if (!path.startsWith(ASSET_PATH)) return undefined;
  const id = path.slice(ASSET_PATH.length);
  return ASSET_ID.test(id) ? id : undefined;
}

/**
 * Image addresses as an article keeps them: one of the app-mode's pictures as its path (so a new
 * BASE_URL moves it along), any other https address as given. Pictures named must be uploaded:
 * with S3, where the bytes went to the bucket, they are checked here, at first use.
 */
/** The app's pictures blocks name: each block's index and the picture's id. */
const namedPictures = (ctx: Ctx, blocks: ContentBlock[]) =>
  blocks.flatMap((b, i) => {
    const id = b.imageUrl ? pictureIdOf(ctx, b.imageUrl) : undefined;
    return id ? [{ i, id }] : [];
  });

export async function keptPictureUrls(ctx: Ctx, appModeId: string, blocks: ContentBlock[], field: string): Promise<ContentBlock[]> {
  const named = namedPictures(ctx, blocks);
  if (!named.length) return blocks;
  const rows = await ctx.db.helpPicture.findMany({ where: { appModeId, id: { in: named.map((n) => n.id) } } });
  const errors: FieldError[] = [];
  for (const { i, id } of named) {
    const row = rows.find((r) => r.id === id);
    const problem = !row ? 'names no picture of this app' : row.uploadedAt ? undefined : await checkUploaded(ctx, row);
    if (problem) errors.push({ field: `${field}.${i}.imageUrl`, message: problem });
  }
  if (errors.length) throw invalid(errors);
  return blocks.map((b, i) => (named.some((n) => n.i === i) ? { ...b, imageUrl: `${ASSET_PATH}${named.find((n) => n.i === i)!.id}` } : b));
}

/**
 * Holds the pictures `blocks` name against the sweep of unnamed ones (picture-sweep.ts) until the
 * transaction that names them commits; one the sweep removed meanwhile is refused as unknown.
 */
export async function holdPictures(tx: TxCtx, appModeId: string, blocks: ContentBlock[], field: string): Promise<void> {
  const named = namedPictures(tx, blocks);
  if (!named.length) return;
  const held = await rows<{ id: string }>(
    tx,
    sql`
    SELECT id FROM help_picture WHERE app_mode_id = ${appModeId} AND id = ANY(${named.map((n) => n.id)}::text[]) FOR KEY SHARE`,
  );
  const gone = named.filter((n) => !held.some((h) => h.id === n.id));
  if (gone.length) throw invalid(gone.map(({ i }) => ({ field: `${field}.${i}.imageUrl`, message: 'names no picture of this app' })));
}

/** Bytes uploaded straight to the store (S3): checked from their head once, then marked uploaded. */
async function checkUploaded(
  ctx: Ctx,
  row: { id: string; appModeId: string; contentType: string; size: number },
): Promise<string | undefined> {
  if (ctx.svc.blobs.receivesUploads) return 'names a picture whose bytes were never uploaded';
  const head = await ctx.svc.blobs.head(pictureKey(row.appModeId, row.id), PICTURE_HEAD_BYTES);
  if (!head) return 'names a picture whose bytes were never uploaded';
  const found = checkPicture(row, { head: head.head, size: head.size });
  if ('refused' in found) return `names a picture that cannot be used: ${found.refused}`;
  await ctx.db.helpPicture.update({
    where: { id: row.id },
    data: { uploadedAt: ctx.clock.now(), width: found.width, height: found.height },
  });
  return undefined;
}

/** Blocks with the app's picture paths made whole with the service's address (BASE_URL), for readers elsewhere. */
export function absolutePictureUrls(baseUrl: string, blocks: ContentBlock[]): ContentBlock[] {
  return blocks.map((b) => (b.imageUrl?.startsWith(ASSET_PATH) ? { ...b, imageUrl: `${baseUrl}${b.imageUrl}` } : b));
}

/**
 * GET /public/v1/help/assets/{asset_id}: where the picture's bytes are, for a short while. 404 for
 * no such picture, one not uploaded, or one of an app whose help center is off.
 */
export async function pictureAddress(ctx: Ctx, id: string): Promise<SignedAddress> {
  if (!ASSET_ID.test(id)) throw notFound('No such picture.');
  const row = await ctx.db.helpPicture.findUnique({ where: { id } });
  if (!row?.uploadedAt) throw notFound('No such picture.');
  const app = await ctx.db.appMode.findUnique({
    where: { id: row.appModeId },
    select: { helpOn: true, switchedOff: true, archived: true },
  });
  if (!app || !app.helpOn || app.switchedOff || app.archived) throw notFound('No such picture.');
  return ctx.svc.blobs.readAddress(pictureKey(row.appModeId, row.id), { seconds: PICTURE_ADDRESS_SECONDS, contentType: row.contentType });
}
