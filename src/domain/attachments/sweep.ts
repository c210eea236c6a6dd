import { transaction, type Ctx } from '../context.js';
import { attachmentKey, UNUSED_ATTACHMENT_HOURS } from './limits.js';
import { rows, sql } from '../../db/sql.js';

/**
 * Attachments made more than UNUSED_ATTACHMENT_HOURS ago and never used are removed with their bytes, a batch per
 * call (every server process sweeps each minute). Rows another transaction holds (being used right
 * now) are passed over; the bytes go first, so a failure leaves rows for the next pass, never bytes.
 */
export async function sweepUnusedAttachments(ctx: Ctx, batch = 500): Promise<number> {
  const before = new Date(ctx.clock.now().getTime() - UNUSED_ATTACHMENT_HOURS * 3_600_000);
  return transaction(ctx, async (tx) => {
    const found = await rows<{ id: string; app_mode_id: string }>(
      tx,
      sql`
      SELECT id, app_mode_id FROM attachment WHERE part_id IS NULL AND created_at < ${before}
      ORDER BY created_at LIMIT ${batch} FOR UPDATE SKIP LOCKED`,
    );
    if (!found.length) return 0;
    await tx.svc.blobs.deleteMany(found.map((r) => attachmentKey(r.app_mode_id, r.id)));
    const { count } = await tx.db.attachment.deleteMany({ where: { id: { in: found.map((r) => r.id) } } });
    return count;
  });
}
