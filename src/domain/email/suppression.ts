import type { EmailSuppression, EmailSuppressionReason } from '../../generated/prisma/client.js';
import type { Ctx } from '../context.js';
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

/** Takes an address off the list: sendings reach it again. Answers whether it was there. */
export async function unsuppressAddress(ctx: Ctx, appModeId: string, address: string): Promise<boolean> {
  const { count } = await ctx.db.emailSuppression.deleteMany({ where: { appModeId, address: normalAddress(address) } });
  return count > 0;
}
