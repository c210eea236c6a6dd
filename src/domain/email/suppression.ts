import type { EmailSuppression, EmailSuppressionReason } from '../../generated/prisma/client.js';
import { randomUUID } from 'node:crypto';
import { rows, sql } from '../../db/sql.js';
import { transaction, type Ctx, type StaffCaller } from '../context.js';
import { invalidField } from '../errors.js';
import { addressProblem } from '../mail/message.js';

// The app-mode's suppression list: addresses nothing is sent to. A hard bounce or a complaint puts an
// address there (the email events); staff may put one there or take one off. Kept by address,
// lowercased (one mailbox, however it was spelt); a sending skips people whose address is on it
// (`suppressed`). Adding one already there keeps the first reason.

export const normalAddress = (address: string) => address.trim().toLowerCase();

export async function suppressAddress(
  ctx: Ctx,
  appModeId: string,
  address: string,
  reason: EmailSuppressionReason,
  detail: string | null = null,
): Promise<EmailSuppression> {
  const problem = addressProblem(address.trim());
  if (problem) throw invalidField('address', problem);
  const key = { appModeId, address: normalAddress(address) };
  return ctx.db.emailSuppression.upsert({
    where: { appModeId_address: key },
    create: { ...key, reason, detail, createdAt: ctx.clock.now() },
    update: {},
  });
}

/** Why staff take an address off the list: 1 to this many characters, kept with who and when. */
export const MAX_REMOVAL_REASON = 500;

/**
 * Takes an address off the list, saying why: sendings reach it again, and the list's history keeps
 * the address, what had put it there, the reason, who and when. Answers whether it was there.
 */
export async function unsuppressAddress(ctx: Ctx<StaffCaller>, appModeId: string, address: string, reason: string): Promise<boolean> {
  const why = reason.trim();
  if (!why || why.length > MAX_REMOVAL_REASON) throw invalidField('reason', `say why, in 1 to ${MAX_REMOVAL_REASON} characters`);
  return transaction(ctx, async (tx) => {
    const [gone] = await rows<{ address: string; reason: EmailSuppressionReason }>(
      tx,
      sql`DELETE FROM email_suppression WHERE app_mode_id = ${appModeId} AND address = ${normalAddress(address)} RETURNING address, reason`,
    );
    if (!gone) return false;
    await tx.db.emailSuppressionRemoval.create({
      data: {
        id: randomUUID(),
        appModeId,
        address: gone.address,
        was: gone.reason,
        reason: why,
        removedBy: ctx.caller.staffUser.id,
        removedAt: tx.clock.now(),
      },
    });
    return true;
  });
}
