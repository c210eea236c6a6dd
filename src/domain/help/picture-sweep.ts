import { transaction, type Ctx } from '../context.js';
import { ASSET_PATH, pictureKey } from './pictures.js';
import { rows, sql } from '../../db/sql.js';

// Pictures no article names are removed with their bytes once they are a day old, like unused
// attachments, by the housekeeping every server process runs each minute (src/server.ts). Named
// means: the picture's address is in the blocks of a draft or a published version, in any
// language, of an article of its app-mode. A picture found named is stamped (`named_at`) and looked
// at again a day later, so a pass does not read every article; one whose article dropped it goes
// at the first look after that.

/** How old a picture must be before the sweep may remove it: time for staff to name it in a draft. */
export const UNNAMED_PICTURE_HOURS = 24;

/** A picture's id wherever its address appears in an article's blocks (the kept path, or a whole address). */
const NAMED = `${ASSET_PATH.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})`;

interface PictureRow {
  id: string;
  app_mode_id: string;
}

/**
 * One pass: up to `batch` pictures due a look, locked (rows another pass holds are passed over),
 * with as many more of the same app-modes past their grace period as fit, so that one read of an
 * app-mode's articles serves its pictures and they come due together from then on. The articles
 * are read after the lock, so a version saved before it counts. Bytes go before rows, so a failure
 * leaves rows for the next pass, never bytes; bytes already gone are passed over.
 * Returns how many pictures were removed.
 */
export async function sweepUnnamedHelpPictures(ctx: Ctx, batch = 500): Promise<number> {
  const now = ctx.clock.now();
  const graced = new Date(now.getTime() - UNNAMED_PICTURE_HOURS * 3_600_000);
  // A picture named a day ago is due now; one named more than half a day ago may as well come along.
  const soon = new Date(now.getTime() - (UNNAMED_PICTURE_HOURS / 2) * 3_600_000);
  return transaction(ctx, async (tx) => {
    const due = await rows<PictureRow>(
      tx,
      sql`
      SELECT id, app_mode_id FROM help_picture
      WHERE (named_at IS NULL AND created_at < ${graced}) OR named_at < ${graced}
      LIMIT ${batch} FOR UPDATE SKIP LOCKED`,
    );
    if (!due.length) return 0;
    const modes = [...new Set(due.map((r) => r.app_mode_id))];
    const along =
      due.length < batch
        ? await rows<PictureRow>(
            tx,
            sql`
          SELECT id, app_mode_id FROM help_picture
          WHERE app_mode_id = ANY(${modes}::text[]) AND created_at < ${graced} AND named_at < ${soon}
            AND id <> ALL(${due.map((r) => r.id)}::text[])
          ORDER BY named_at LIMIT ${batch - due.length} FOR UPDATE SKIP LOCKED`,
          )
        : [];
    const pictures = [...due, ...along];

    const named = await rows<PictureRow>(
      tx,
      sql`
      SELECT DISTINCT v.app_mode_id, m.found[1] AS id
      FROM (
        SELECT a.app_mode_id, d.blocks FROM help_article_draft d JOIN help_article a ON a.id = d.article_id
        WHERE a.app_mode_id = ANY(${modes}::text[])
        UNION ALL
        SELECT p.app_mode_id, p.blocks FROM help_article_published p WHERE p.app_mode_id = ANY(${modes}::text[])
      ) v
      CROSS JOIN LATERAL regexp_matches(v.blocks::text, ${NAMED}, 'g') AS m(found)
      WHERE m.found[1] = ANY(${pictures.map((r) => r.id)}::text[])`,
    );
    const isNamed = new Set(named.map((n) => `${n.app_mode_id}/${n.id}`));
    const kept = pictures.filter((r) => isNamed.has(`${r.app_mode_id}/${r.id}`)).map((r) => r.id);
    const gone = pictures.filter((r) => !isNamed.has(`${r.app_mode_id}/${r.id}`));

    if (kept.length) await tx.db.helpPicture.updateMany({ where: { id: { in: kept } }, data: { namedAt: now } });
    if (!gone.length) return 0;
    await tx.svc.blobs.deleteMany(gone.map((r) => pictureKey(r.app_mode_id, r.id)));
    const { count } = await tx.db.helpPicture.deleteMany({ where: { id: { in: gone.map((r) => r.id) } } });
    return count;
  });
}
