import type { OutboxRow } from '../../db/outbox-dispatcher.js';
import type { EmailVersion } from '../../generated/prisma/client.js';
import { sql, type Sql } from '../../db/sql.js';
import { coalescedLive, type CoalescedEvent } from '../coalesced-live.js';
import { CoalescedReads } from '../coalesced-reads.js';
import type { Ctx, TxCtx } from '../context.js';
import { notFound } from '../errors.js';
import type { RowChange } from '../live-topic.js';
import { emit } from '../outbox.js';
import { emailStatistics, type EmailStatistics } from './statistics.js';

// A sending's progress live, for staff (the subscription emailSendingChanged): each write of a
// sending's steps that changes what it came to (people claimed or skipped, answers of the mail
// server, emails of a stopped step settled, the sending done or stopped) writes an `email.progressed`
// outbox row naming the sending (no person) in its own transaction, so it is told once committed. A
// subscriber gets the sending as emailSendings answers it (its state and statistics), then again
// after its rows, resumable with `after` (live-topic.ts). A fast sending writes a row for every 100
// answers; the rows between two answers fold into one, and the sending is read at most once every
// PROGRESS_EVERY_MS per sending and server process, for all its subscribers (coalesced-live.ts).

export const EMAIL_PROGRESSED = 'email.progressed';

/** At most one read of a sending's progress a second per server process, whatever the number of rows and subscribers. */
export const PROGRESS_EVERY_MS = 1000;

/** A sending as emailSendings answers it, with what it came to read at the same time. */
export type SendingProgress = EmailVersion & { statistics: EmailStatistics };
export type SendingProgressEvent = CoalescedEvent<SendingProgress>;

const dataOf = (version: Pick<EmailVersion, 'id' | 'messageId'>) => ({ sending_id: version.id, message_id: version.messageId });

/** Tells the sending's subscribers, in the transaction of a change to what it came to. */
export async function sendingProgressed(tx: TxCtx, version: Pick<EmailVersion, 'id' | 'appModeId' | 'messageId'>): Promise<void> {
  await emit(tx, EMAIL_PROGRESSED, { appModeId: version.appModeId, data: dataOf(version) });
}

/**
 * The same row as a CTE of a step's own statement (`progressed`), written when `when` holds (a
 * condition on the statement's other CTEs, such as `EXISTS (SELECT 1 FROM written)`). The statement
 * wakes the dispatchers itself when `(SELECT count(*) FROM progressed)` is more than none.
 */
export const progressedCte = (version: Pick<EmailVersion, 'id' | 'appModeId' | 'messageId'>, now: Date, when: Sql): Sql => sql`
  progressed AS (
    INSERT INTO outbox_event (app_mode_id, topic, external_id, data, created_at)
    SELECT ${version.appModeId}, ${EMAIL_PROGRESSED}, NULL, ${JSON.stringify(dataOf(version))}::jsonb, ${now}
    WHERE ${when}
    RETURNING 1)`;

/** The sending a row names: made once per row and process for every subscriber (live-topic.ts). */
const sendingOf: RowChange<string> = (row: OutboxRow) => String(row.data.sending_id);

const reads = new CoalescedReads<string, SendingProgress>(PROGRESS_EVERY_MS);

/** A sending (its version), or not found. */
export async function emailSendingIn(ctx: Ctx, id: string): Promise<EmailVersion> {
  const found = await ctx.db.emailVersion.findUnique({ where: { id } });
  if (!found) throw notFound('No such sending.');
  return found;
}

/** The sending, then what it came to: read after its state, the counts are never older than the state they come with. */
async function progressOf(ctx: Ctx, id: string): Promise<SendingProgress> {
  const version = await emailSendingIn(ctx, id);
  return { ...version, statistics: await emailStatistics(ctx, { versionId: id }) };
}

/** The sending as it is, then again after each change to what it came to (coalesced), until the signal aborts. */
export function liveEmailSending(
  ctx: Ctx,
  sending: Pick<EmailVersion, 'id' | 'appModeId'>,
  opts: { after?: string | null; signal: AbortSignal },
): AsyncGenerator<SendingProgressEvent> {
  return coalescedLive(ctx, {
    topic: EMAIL_PROGRESSED,
    appModeId: sending.appModeId,
    key: sending.id,
    change: sendingOf,
    reads,
    read: () => progressOf(ctx, sending.id),
    ...opts,
  });
}
