import { newInboundSecret } from '../apps/credentials.js';
import type { Ctx } from '../context.js';
import { exec, sql } from '../../db/sql.js';
import { invalidField, notFound } from '../errors.js';

// Rolling an app-mode's inbound secret: a new one, shown once; the one before keeps verifying hook
// posts for the hours asked (24 by default, at most 7 days, 0 for none: a leaked secret ends now),
// so the converter can move to the new one without a post refused. Posts may carry a v1 under each.

export const DEFAULT_KEEP_HOURS = 24;
export const MAX_KEEP_HOURS = 168;

export async function rollInboundSecret(
  ctx: Ctx,
  appModeId: string,
  keepPreviousHours = DEFAULT_KEEP_HOURS,
): Promise<{ inboundSecret: string; previousValidUntil: Date | null }> {
  if (!Number.isInteger(keepPreviousHours) || keepPreviousHours < 0 || keepPreviousHours > MAX_KEEP_HOURS)
    throw invalidField('keepPreviousHours', `must be a whole number of hours from 0 to ${MAX_KEEP_HOURS}`);
  const inboundSecret = newInboundSecret();
  const until = keepPreviousHours ? new Date(ctx.clock.now().getTime() + keepPreviousHours * 3_600_000) : null;
  // One statement: every SET reads the row as it was, so the secret kept is the one replaced, whatever rolls run at once.
  const rolled = await exec(
    ctx,
    sql`UPDATE app_mode SET inbound_secret_enc = ${ctx.svc.secrets.seal(inboundSecret)},
          previous_inbound_secret_enc = ${until ? sql`inbound_secret_enc` : sql`NULL`}, previous_inbound_until = ${until}
        WHERE id = ${appModeId}`,
  );
  if (!rolled) throw notFound('No such app mode.');
  return { inboundSecret, previousValidUntil: until };
}
