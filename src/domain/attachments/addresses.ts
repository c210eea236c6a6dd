import type { SignedAddress } from '../../lib/blobs/store.js';
import type { Ctx } from '../context.js';
import { attachmentKey, READ_ADDRESS_SECONDS } from './limits.js';
import type { Picture } from './use.js';

/**
 * Where a guest or staff member reads a picture of a part: a short-lived signed address (at least
 * an hour; the same address is answered for five minutes, so a cache holds), with the checked type.
 */
export function pictureAddress(ctx: Ctx, appModeId: string, picture: Pick<Picture, 'id' | 'contentType'>): Promise<SignedAddress> {
  return ctx.svc.blobs.readAddress(attachmentKey(appModeId, picture.id), {
    seconds: READ_ADDRESS_SECONDS,
    contentType: picture.contentType,
  });
}

/** The pictures of these parts of one app-mode, each part's in the order they were named. */
export async function picturesOfParts(ctx: Ctx, appModeId: string, partIds: string[]): Promise<Map<string, Picture[]>> {
  const out = new Map<string, Picture[]>();
  if (!partIds.length) return out;
  const rows = await ctx.db.attachment.findMany({
    where: { appModeId, partId: { in: partIds } },
    orderBy: [{ partId: 'asc' }, { position: 'asc' }],
  });
  for (const r of rows) {
    const list = out.get(r.partId!) ?? [];
    list.push({ id: r.id, contentType: r.contentType, size: r.size, width: r.width, height: r.height });
    out.set(r.partId!, list);
  }
  return out;
}
