import { createHash } from 'node:crypto';
import type { Ctx, TxCtx } from '../context.js';
import { DomainError } from '../errors.js';
import { rows, sql } from '../../db/sql.js';

// `Idempotency-Key` on guest writes (a conversation start, a message): the first request with a
// key claims it in its transaction; the same key from the same person for the same target, sent
// again (after a timeout, or at the same moment), waits for that transaction and answers what it
// made. A key is remembered IDEMPOTENCY_HOURS; after that it is a new key. The same key with a
// different request is refused (422 idempotency_key_reused), as the IETF draft on the header says.

export const IDEMPOTENCY_HOURS = 24;
export const MAX_IDEMPOTENCY_KEY = 100;
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

export const fingerprintOf = (request: unknown) => createHash('sha256').update(JSON.stringify(request)).digest('hex');

export interface KeyClaim {
  contactId: string;
  /** `start`, or the id of the conversation a message goes to. */
  scope: string;
  key: string;
  fingerprint: string;
}

/**
 * Claims the key in the caller's transaction: undefined when this request is the first (it then
 * calls `settleKey` with what it made), or the id of what the first request made. A concurrent
 * request with the same key waits here until the first commits or rolls back.
 */
export async function claimKey(tx: TxCtx, appModeId: string, claim: KeyClaim): Promise<string | undefined> {
  const now = tx.clock.now();
  const expired = new Date(now.getTime() - IDEMPOTENCY_HOURS * 3_600_000);
  // Inserted, or taken over from an expired claim: this request is the first.
  const won = await rows<unknown>(
    tx,
    sql`
    INSERT INTO idempotency_key (app_mode_id, contact_id, scope, key, fingerprint, result_id, created_at)
    VALUES (${appModeId}, ${claim.contactId}, ${claim.scope}, ${claim.key}, ${claim.fingerprint}, NULL, ${now})
    ON CONFLICT (app_mode_id, contact_id, scope, key) DO UPDATE
      SET fingerprint = EXCLUDED.fingerprint, result_id = NULL, created_at = EXCLUDED.created_at
      WHERE idempotency_key.created_at <= ${expired}
    RETURNING 1`,
  );
  if (won.length) return undefined;
  const first = await tx.db.idempotencyKey.findUniqueOrThrow({
    where: { appModeId_contactId_scope_key: { appModeId, contactId: claim.contactId, scope: claim.scope, key: claim.key } },
  });
  if (first.fingerprint !== claim.fingerprint) {
    throw new DomainError(
      422,
      'idempotency_key_reused',
      'Idempotency-Key used for another request',
      `This ${IDEMPOTENCY_HEADER} was sent with a different request in the last ${IDEMPOTENCY_HOURS} hours; use a new key for a new request.`,
      [{ field: IDEMPOTENCY_HEADER, message: 'was used for a different request' }],
    );
  }
  return first.resultId!;
}

/** Records what the claiming request made, in its transaction. */
export async function settleKey(tx: TxCtx, appModeId: string, claim: KeyClaim, resultId: string): Promise<void> {
  await tx.db.idempotencyKey.update({
    where: { appModeId_contactId_scope_key: { appModeId, contactId: claim.contactId, scope: claim.scope, key: claim.key } },
    data: { resultId },
  });
}

/** Forgets keys past their time (every server process sweeps now and then). */
export async function purgeIdempotencyKeys(ctx: Ctx): Promise<number> {
  const expired = new Date(ctx.clock.now().getTime() - IDEMPOTENCY_HOURS * 3_600_000);
  const { count } = await ctx.db.idempotencyKey.deleteMany({ where: { createdAt: { lte: expired } } });
  return count;
}
