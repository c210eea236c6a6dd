import { randomUUID } from 'node:crypto';
import type { SignedAddress } from '../../lib/blobs/store.js';
import type { PictureType } from '../../lib/blobs/pictures.js';
import { erasedAmong } from '../contacts/erasure.js';
import { transaction, type Caller, type Ctx, type GuestCaller, type TxCtx } from '../context.js';
import { DomainError, forbidden, notFound } from '../errors.js';
import {
  APP_LIMIT_RETRY_SECONDS,
  attachmentKey,
  MAX_UNUSED_ATTACHMENTS,
  MAX_UNUSED_ATTACHMENTS_PER_APP_MODE,
  MAX_UNUSED_BYTES_PER_APP_MODE,
  MAX_UNUSED_BYTES_PER_PERSON,
  MiB,
  UPLOAD_ADDRESS_SECONDS,
} from './limits.js';
import { lock } from '../locks.js';
import { ownedBy, type AttachmentOwner } from './owner.js';
import { one, sql } from '../../db/sql.js';

/** The messenger's routes answer 404 while it is switched off for the app-mode. */
export function refuseIfMessengerOff(ctx: Ctx<GuestCaller>): void {
  if (!ctx.caller.settings.messengerOn) throw notFound('The messenger is switched off for this app.');
}

/**
 * `POST /attachments`: an attachment of the user's, and the address to PUT its bytes at (the
 * declared type and exact size). It can be named in `attachment_ids` once its bytes are there.
 */
export async function createAttachment(
  ctx: Ctx<GuestCaller>,
  input: { size: number; contentType: PictureType },
): Promise<{ id: string; upload: SignedAddress }> {
  refuseIfMessengerOff(ctx);
  const { appModeId, externalId } = ctx.caller;
  return makeAttachment(ctx, input, async (tx) => {
    // Holds the person against an erase until this commits (nothing made here outlives one).
    if ((await erasedAmong(tx, [externalId])).size)
      throw forbidden('erased', 'This user was erased; nothing is kept for them for 30 days.');
    return { appModeId, externalId };
  });
}

/**
 * Makes an attachment of the owner `ownerIn` holds (in the transaction: a user's or a team
 * member's, owner.ts), within what may wait; then its upload address. The one way attachments are made.
 */
export async function makeAttachment<C extends Caller>(
  ctx: Ctx<C>,
  input: { size: number; contentType: PictureType },
  ownerIn: (tx: TxCtx<C>) => Promise<AttachmentOwner>,
): Promise<{ id: string; upload: SignedAddress }> {
  const id = randomUUID();
  const { appModeId } = await transaction(ctx, async (tx) => {
    const owner = await ownerIn(tx);
    // The app-mode's creations queue here, so the sums below hold when many arrive at once.
    await lock(tx, 'attachments', owner.appModeId);
    refuseBeyondLimits(await waiting(tx, owner), input.size);
    await tx.db.attachment.create({
      data: { id, ...owner, contentType: input.contentType, size: input.size, createdAt: tx.clock.now() },
    });
    return owner;
  });
  const upload = await ctx.svc.blobs.uploadAddress(attachmentKey(appModeId, id), {
    contentType: input.contentType,
    size: input.size,
    seconds: UPLOAD_ADDRESS_SECONDS,
  });
  return { id, upload };
}

interface Waiting {
  mine: number;
  myBytes: number;
  all: number;
  allBytes: number;
}

/** What waits to be sent in the app-mode (made, not yet in a message), the owner's and everyone's: one index range. */
async function waiting(tx: TxCtx, owner: AttachmentOwner): Promise<Waiting> {
  const mine = ownedBy(owner);
  const row = await one<{ mine: number; my_bytes: string; all: number; all_bytes: string }>(
    tx,
    sql`
    SELECT count(*) FILTER (WHERE ${mine})::int AS mine,
           coalesce(sum(size) FILTER (WHERE ${mine}), 0)::bigint AS my_bytes,
           count(*)::int AS all, coalesce(sum(size), 0)::bigint AS all_bytes
    FROM attachment WHERE app_mode_id = ${owner.appModeId} AND part_id IS NULL`,
  );
  return { mine: row!.mine, myBytes: Number(row!.my_bytes), all: row!.all, allBytes: Number(row!.all_bytes) };
}

/** Refuses a picture of `size` bytes beyond what may wait: the person's (422) first, then the app-mode's (429). */
function refuseBeyondLimits(w: Waiting, size: number): void {
  const lapse = 'send them or wait for them to lapse';
  const personLimit = (detail: string) => new DomainError(422, 'attachment_limit', 'Too many pictures waiting', detail);
  if (w.mine >= MAX_UNUSED_ATTACHMENTS) throw personLimit(`At most ${MAX_UNUSED_ATTACHMENTS} pictures may wait to be sent; ${lapse}.`);
  if (w.myBytes + size > MAX_UNUSED_BYTES_PER_PERSON)
    throw personLimit(
      `At most ${MAX_UNUSED_BYTES_PER_PERSON / MiB} MiB (${MAX_UNUSED_BYTES_PER_PERSON} bytes) of pictures may wait to be sent; ` +
        `${w.myBytes} bytes wait and this one declares ${size}: ${lapse}.`,
    );
  if (w.all >= MAX_UNUSED_ATTACHMENTS_PER_APP_MODE || w.allBytes + size > MAX_UNUSED_BYTES_PER_APP_MODE)
    throw new DomainError(
      429,
      'attachment_app_limit',
      'Too many pictures waiting in this app',
      `The app's users and team may have at most ${MAX_UNUSED_BYTES_PER_APP_MODE / MiB} MiB of pictures, and ${MAX_UNUSED_ATTACHMENTS_PER_APP_MODE} pictures, ` +
        `waiting to be sent at once; try again in ${APP_LIMIT_RETRY_SECONDS} seconds.`,
      [],
      { 'Retry-After': String(APP_LIMIT_RETRY_SECONDS) },
    );
}
