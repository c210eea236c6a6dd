import { exec, sql } from '../../db/sql.js';
import { transaction, type Ctx } from '../context.js';
import { sendingProgressed } from './progress.js';

// A sending stops before its end when staff stop it, or its process gives up (its steps kept failing)
// or is cancelled: what was sent stays sent and counted; what was claimed and not handed over, or put
// off, is skipped (`stopped`); nothing more goes out. Its next step finds it stopped and ends.

export async function stopEmailSending(ctx: Ctx, versionId: string, reason: string): Promise<boolean> {
  return transaction(ctx, async (tx) => {
    const { count } = await tx.db.emailVersion.updateMany({
      where: { id: versionId, state: 'sending' },
      data: { state: 'stopped', stopReason: reason, finishedAt: tx.clock.now() },
    });
    if (!count) return false;
    await exec(
      tx,
      sql`UPDATE email_send SET state = 'skipped', reason = 'stopped', retry_at = NULL
          WHERE version_id = ${versionId} AND state IN ('sending', 'retry') AND NOT posted`,
    );
    const version = await tx.db.emailVersion.findUniqueOrThrow({
      where: { id: versionId },
      select: { id: true, appModeId: true, messageId: true },
    });
    await sendingProgressed(tx, version);
    return true;
  });
}
