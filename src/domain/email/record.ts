import type { EmailVersion } from '../../generated/prisma/client.js';
import { OUTBOX_CHANNEL } from '../../db/outbox-dispatcher.js';
import { exec, sql, type Sql } from '../../db/sql.js';
import { transaction, type Ctx } from '../context.js';
import { MESSAGE_SENT } from '../push/record.js';
import { progressedCte } from './progress.js';

// What became of emails handed to the mail server, written in one statement for a chunk: each row
// still claimed by the attempt gets its answer, and each person's email the server took tells
// `message.sent` (`message_id`, `channel: email`, `email_id`) through the outbox (a test copy tells
// nothing), and the sending's live progress is told (`email.progressed`, progress.ts), all in the
// statement's own transaction.

export type Answer =
  | { id: string; state: 'sent'; mailMessageId: string }
  | { id: string; state: 'failed'; reason: string }
  | { id: string; state: 'retry'; reason: string; retryAt: Date }
  /** The mail server could not be reached: handed over again by the next attempt, not a try. */
  | { id: string; state: 'unsent' };

/**
 * The statement's end after a `written` CTE (id, contact_id, state): `message.sent` for each person's
 * email sent, the sending's progress when anything was written, and the outbox woken.
 */
const tellingSent = (version: EmailVersion, now: Date): Sql => sql`
  ${progressedCte(version, now, sql`EXISTS (SELECT 1 FROM written)`)},
  told AS (
    INSERT INTO outbox_event (app_mode_id, topic, external_id, data, created_at)
    SELECT ${version.appModeId}, ${MESSAGE_SENT}, k.external_id,
           jsonb_build_object('message_id', ${version.messageId}::text, 'channel', 'email', 'email_id', w.id::text), ${now}
    FROM written w JOIN contact k ON k.id = w.contact_id WHERE w.state = 'sent'
    RETURNING 1)
  SELECT pg_notify(${OUTBOX_CHANNEL}, '') FROM (SELECT (SELECT count(*) FROM told) + (SELECT count(*) FROM progressed) AS n) t WHERE t.n > 0`;

/** What an email marked posted whose answer was never written (its step stopped) is counted as: sent, and never sent again. */
export const INTERRUPTED = 'its step stopped before the answer was written: counted as sent, not sent again';

export async function recordAnswers(ctx: Ctx, version: EmailVersion, claim: string, answers: Answer[]): Promise<void> {
  if (!answers.length) return;
  const now = ctx.clock.now();
  const field = <K extends string>(k: K) => answers.map((a) => (k in a ? String((a as Record<K, unknown>)[k]) : null));
  await exec(
    ctx,
    sql`
    WITH written AS (
      UPDATE email_send s SET
        state = CASE WHEN x.state = 'unsent' THEN 'sending' ELSE x.state END::"EmailSendState",
        posted = x.state = 'sent',
        reason = x.reason,
        retry_at = x.retry_at::timestamptz AT TIME ZONE 'UTC',
        sent_at = CASE WHEN x.state = 'sent' THEN (${now.toISOString()}::timestamptz AT TIME ZONE 'UTC') END,
        mail_message_id = coalesce(x.mail_message_id, s.mail_message_id)
      FROM unnest(${answers.map((a) => a.id)}::uuid[], ${answers.map((a) => a.state)}::text[], ${field('reason')}::text[],
                  ${answers.map((a) => ('retryAt' in a ? a.retryAt.toISOString() : null))}::text[], ${field('mailMessageId')}::text[])
        AS x(id, state, reason, retry_at, mail_message_id)
      WHERE s.id = x.id AND s.claim = ${claim}::uuid AND s.state = 'sending'
      RETURNING s.id, s.contact_id, s.state::text AS state),
    ${tellingSent(version, now)}`,
  );
}

/**
 * Emails of the sending marked posted by an attempt other than `claim` whose answers were never
 * written (its step stopped): counted as sent, each telling `message.sent`. Never sent again.
 */
export async function settleInterrupted(ctx: Ctx, version: EmailVersion, claim: string): Promise<void> {
  const now = ctx.clock.now();
  await transaction(ctx, (tx) =>
    exec(
      tx,
      sql`
      WITH written AS (
        UPDATE email_send SET state = 'sent', reason = ${INTERRUPTED}, sent_at = ${now}, retry_at = NULL
        WHERE version_id = ${version.id} AND state = 'sending' AND posted AND claim IS DISTINCT FROM ${claim}::uuid
        RETURNING id, contact_id, state::text AS state),
      ${tellingSent(version, now)}`,
    ),
  );
}
