import { exec, raw, sql } from '../../db/sql.js';
import { keyset, pagedMember, type PersonalDataArea } from '../personal-data/registry.js';

// The emails sent to a person (email_send, with the links they clicked in email_click): in the
// export's `receipts` (kind `email`, the email's version as its variant `v1`, `v2`…, opened as
// seenAt, a person's first click as clickedAt), read a page at a time; erased with them, so every
// token of those emails then opens nothing (404). Test copies name a team member's address, never a
// person, and are not theirs. The erase also takes the person's address off the suppression list
// (nothing of theirs stays; a person added again later is someone new) and keeps a one-person
// sending's audience as { erased: true }. The emails the person wrote in (inbound_email, whose
// replies are their messages in the conversations' member) go with them, and so do the provider's
// events about their address and the suppression list's history of it.

const iso = (d: Date | null) => d?.toISOString() ?? null;

export const emailData: PersonalDataArea = {
  name: 'email',
  tables: ['email_send', 'email_click', 'email_suppression', 'inbound_email', 'email_event', 'email_suppression_removal'],
  async exportOf({ db }, { appModeId, externalId }) {
    const contact = await db.contact.findUnique({ where: { appModeId_externalId: { appModeId, externalId } }, select: { id: true } });
    if (!contact) return undefined;
    const receipts = await pagedMember(
      (last: { id: string } | undefined, take) =>
        db.emailSend.findMany({
          where: { contactId: contact.id },
          include: { version: { select: { number: true } } },
          orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
          ...keyset(last && { id: last.id }, take),
        }),
      (s) => ({
        message: s.messageId,
        kind: 'email',
        variant: `v${s.version.number}`,
        sentAt: s.state === 'sent' ? (s.sentAt ?? s.createdAt).toISOString() : null,
        seenAt: iso(s.openedAt),
        clickedAt: iso(s.clickedAt),
        dismissedAt: null,
        completedAt: null,
      }),
    );
    return receipts ? { receipts } : undefined;
  },
  async erase(ctx, { externalId, appModeIds }) {
    const { db } = ctx;
    const where = { contact: { appModeId: { in: appModeIds }, externalId } };
    const emailSuppressions = await exec(
      ctx,
      sql`DELETE FROM email_suppression s USING contact k
          WHERE k.app_mode_id = ANY(${appModeIds}::text[]) AND k.external_id = ${externalId}
            AND s.app_mode_id = k.app_mode_id AND s.address = lower(k.email)`,
    );
    const ofAddress = (table: 'email_event' | 'email_suppression_removal') =>
      exec(
        ctx,
        sql`DELETE FROM ${raw(table)} s USING contact k
            WHERE k.app_mode_id = ANY(${appModeIds}::text[]) AND k.external_id = ${externalId}
              AND s.app_mode_id = k.app_mode_id AND s.address = lower(k.email)`,
      );
    const emailEvents = await ofAddress('email_event');
    const emailSuppressionRemovals = await ofAddress('email_suppression_removal');
    const { count: inboundEmails } = await db.inboundEmail.deleteMany({ where });
    const emailSendings = await exec(
      ctx,
      sql`UPDATE email_version SET audience = '{"erased": true}'::jsonb
          WHERE app_mode_id = ANY(${appModeIds}::text[]) AND audience ->> 'externalId' = ${externalId}`,
    );
    // The clicks go with their sends (ON DELETE CASCADE); counted first so the erase says how many.
    const clicks = await db.emailClick.count({ where: { send: where } });
    const { count } = await db.emailSend.deleteMany({ where });
    return {
      emailSends: count,
      emailClicks: clicks,
      emailSuppressions,
      emailSendings,
      inboundEmails,
      emailEvents,
      emailSuppressionRemovals,
    };
  },
};
