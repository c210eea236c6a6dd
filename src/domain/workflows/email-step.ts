import { randomUUID } from 'node:crypto';
import { one, rows, sql } from '../../db/sql.js';
import type { Ctx } from '../context.js';
import { peopleSql } from '../email/batch.js';
import { handOver, type Claimed } from '../email/hand-over.js';
import { INTERRUPTED } from '../email/record.js';
import { recordStep, skipped, stillToTake, type Done, type Visit } from './run-record.js';

// A workflow's email step, for one person: the email as it was when the workflow's version was
// published (its own sending, src/domain/email/sending.ts workflowSending), sent through the mail
// transport by the email sending's own hand-over, so its tokens, headers, statistics and
// `message.sent` are an email's like any other. Skipped, with the reason the email sending gives:
// no address, the address suppressed, the topic closed, everything off, the topic off, no consent
// to offers. A person gets a version's email once: a second run (entry again) or a loop back to the
// step is skipped, `already_sent`, until the workflow is published again. The mail server's refusal
// fails the visit with its answer; an email it puts off (4yz) fails it too, `provider_unavailable`,
// rather than hold the run (the email sending's own retries are for fan-outs). A mail server that
// cannot be reached fails the activity, which the engine tries again: the email is handed over then.

export interface EmailVisit extends Visit {
  appModeId: string;
  step: { key: string; kind: string; emailVersionId?: string };
  /** When the run entered the step: an email of the sending made since then is this visit's own. */
  at: string;
}

export async function sendEmailStep(ctx: Ctx, v: EmailVisit): Promise<Done> {
  const record = (done: Done) => recordStep(ctx, v, done);
  if (!(await stillToTake(ctx, v))) return record(skipped('erased'));
  const version = v.step.emailVersionId ? await ctx.db.emailVersion.findUnique({ where: { id: v.step.emailVersionId } }) : null;
  if (!version)
    return record(skipped('not_available', 'the step has no sending of its email (a version published before emails could be sent)'));
  if (version.state === 'stopped') return record(skipped('stopped', 'staff stopped the workflow’s sending of this email'));
  const [person] = await rows<{ id: string; email: string; skip: string | null }>(
    ctx,
    peopleSql(v.appModeId, version.topicId, sql`k.id = ${v.contactId}`),
  );
  if (!person) return record(skipped('no_address', 'the person has no email address'));
  if (person.skip) return record(skipped(person.skip));

  // Claimed for this attempt: a new email, or this visit's own not yet handed over (an earlier attempt stopped).
  const claim = randomUUID();
  const [claimed] = await rows<Claimed>(
    ctx,
    sql`
    INSERT INTO email_send (id, app_mode_id, version_id, message_id, contact_id, address, state, claim, tries, created_at)
    VALUES (gen_random_uuid(), ${v.appModeId}, ${version.id}, ${version.messageId}, ${v.contactId}, ${person.email}, 'sending',
            ${claim}::uuid, 1, ${ctx.clock.now()})
    ON CONFLICT (version_id, contact_id) DO UPDATE SET claim = excluded.claim, address = excluded.address
      WHERE email_send.state = 'sending' AND NOT email_send.posted AND email_send.created_at >= ${new Date(v.at)}
    RETURNING id::text, contact_id, address, tries`,
  );
  if (claimed) await handOver(ctx, version, claim, [claimed], 1);
  const sent = await one<{ state: string; reason: string | null; own: boolean }>(
    ctx,
    sql`SELECT state::text, reason, created_at >= ${new Date(v.at)} AS own FROM email_send WHERE version_id = ${version.id} AND contact_id = ${v.contactId}`,
  );
  if (!sent || !sent.own) return record(skipped('already_sent', 'the person was sent this email by this version of the workflow before'));
  switch (sent.state) {
    case 'sent':
      return record({ outcome: 'sent' });
    case 'retry':
      await one(
        ctx,
        sql`UPDATE email_send SET state = 'failed', retry_at = NULL WHERE version_id = ${version.id} AND contact_id = ${v.contactId} AND state = 'retry' RETURNING 1`,
      );
      return record({ outcome: 'failed', reason: 'provider_unavailable', detail: sent.reason ?? undefined });
    case 'failed':
      return record({ outcome: 'failed', reason: 'provider_refused', detail: sent.reason ?? undefined });
    default:
      // Posted by an attempt that stopped before its answer: counted as sent, as the email sending counts it.
      await one(
        ctx,
        sql`UPDATE email_send SET state = 'sent', reason = ${INTERRUPTED}, sent_at = ${ctx.clock.now()}
            WHERE version_id = ${version.id} AND contact_id = ${v.contactId} AND state = 'sending' AND posted RETURNING 1`,
      );
      return record({ outcome: 'sent', detail: INTERRUPTED });
  }
}
