import { one, sql } from '../../db/sql.js';
import type { Ctx } from '../context.js';

// What became of an email's sendings (or of one sending), read from its emails (test copies aside):
// sent, skipped by reason, failed, still going; opened and clicked by people, and by machines only
// (an email a scanner or an image proxy opened that no person has), so a rule that misjudges is seen;
// unsubscribed, bounced and complained. And per app-mode, the share of its emails of the last 30 days
// people marked as spam, against what a sender should stay under (0.1%) and must never reach (0.3%).

export interface EmailStatistics {
  sent: number;
  /** Each reason with how many: suppressed, topic_closed, all_off, unsubscribed, no_consent, stopped. */
  skipped: { reason: string; count: number }[];
  failed: number;
  /** Claimed or put off, not answered yet. */
  pending: number;
  opened: number;
  /** Opened by a machine and by no person. */
  machineOpenedOnly: number;
  clicked: number;
  machineClickedOnly: number;
  unsubscribed: number;
  /** Hard bounces: the address is suppressed. */
  bounced: number;
  /** Emails with a soft bounce told (counted, nothing suppressed). */
  softBounced: number;
  complained: number;
  /** Emails the provider said it delivered. */
  delivered: number;
}

export async function emailStatistics(ctx: Ctx, of: { messageId: string } | { versionId: string }): Promise<EmailStatistics> {
  const where = 'messageId' in of ? sql`message_id = ${of.messageId}` : sql`version_id = ${of.versionId}`;
  return (await one<EmailStatistics>(
    ctx,
    sql`
    SELECT count(*) FILTER (WHERE state = 'sent')::int AS sent,
           count(*) FILTER (WHERE state = 'failed')::int AS failed,
           count(*) FILTER (WHERE state IN ('sending', 'retry'))::int AS pending,
           count(opened_at)::int AS opened,
           count(*) FILTER (WHERE machine_opened_at IS NOT NULL AND opened_at IS NULL)::int AS "machineOpenedOnly",
           count(clicked_at)::int AS clicked,
           count(*) FILTER (WHERE machine_clicked_at IS NOT NULL AND clicked_at IS NULL)::int AS "machineClickedOnly",
           count(unsubscribed_at)::int AS unsubscribed,
           count(bounced_at)::int AS bounced,
           count(complained_at)::int AS complained,
           count(*) FILTER (WHERE soft_bounces > 0)::int AS "softBounced",
           count(delivered_at)::int AS delivered,
           coalesce((SELECT json_agg(json_build_object('reason', reason, 'count', n) ORDER BY n DESC, reason)
                     FROM (SELECT coalesce(reason, 'unknown') AS reason, count(*)::int AS n FROM email_send
                           WHERE ${where} AND NOT test AND state = 'skipped' GROUP BY 1) r), '[]'::json) AS skipped
    FROM email_send WHERE ${where} AND NOT test`,
  ))!;
}

/** What a sender should keep its complaint rate under, and what it must never reach (the large mailbox providers' bulk-sender rules). */
export const COMPLAINT_RATE_TARGET = 0.001;
export const COMPLAINT_RATE_LIMIT = 0.003;
export const COMPLAINT_WINDOW_DAYS = 30;

export interface ComplaintRate {
  sent: number;
  complained: number;
  /** complained / sent; 0 with nothing sent. */
  rate: number;
  /** ok: under 0.1%; warning: 0.1% or more; over: 0.3% or more. */
  level: 'ok' | 'warning' | 'over';
}

export async function complaintRate(ctx: Ctx, appModeId: string): Promise<ComplaintRate> {
  const since = new Date(ctx.clock.now().getTime() - COMPLAINT_WINDOW_DAYS * 86_400_000);
  const { sent, complained } = (await one<{ sent: number; complained: number }>(
    ctx,
    sql`SELECT count(*)::int AS sent, count(complained_at)::int AS complained FROM email_send
        WHERE app_mode_id = ${appModeId} AND sent_at >= ${since} AND NOT test`,
  ))!;
  const rate = sent ? complained / sent : 0;
  return { sent, complained, rate, level: rate >= COMPLAINT_RATE_LIMIT ? 'over' : rate >= COMPLAINT_RATE_TARGET ? 'warning' : 'ok' };
}
