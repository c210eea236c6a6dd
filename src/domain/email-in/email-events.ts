import { exec, one, sql } from '../../db/sql.js';
import { transaction, type Ctx } from '../context.js';
import { normalAddress, suppressAddress } from '../email/suppression.js';
import { emit } from '../outbox.js';
import type { HookOwner } from './hook-access.js';

// A provider's email event (POST …/email-events): a bounce, a complaint or a delivery, tied to the
// email it is about by its Message-ID when that is one of this service's. Taken once by the
// provider's id (the same event posted again, or 50 times at once, counts once). A hard bounce or a
// complaint puts the address on the app-mode's suppression list; a soft bounce is counted and
// suppresses nothing. Each is counted on its email for the message's statistics, and a bounce is
// told as `email.bounced`. On the deployment-wide route the email names the app-mode; an event
// about an email this service never sent names none, and is passed over.

export const EMAIL_BOUNCED = 'email.bounced';

export interface EmailEventInput {
  id: string;
  kind: 'bounce' | 'complaint' | 'delivered';
  message_id: string;
  address: string;
  occurred_at: Date;
  hard?: boolean;
  detail?: string;
}

/** What became of an event: taken (acted on), a repeat of one taken, or passed over (no app-mode to act for). */
export type EmailEventOutcome = 'taken' | 'repeat' | 'passed_over';

/** A Message-ID as written in a header, `<id@domain>`, or bare: the bare form, as email_send keeps it. */
export const bareMessageId = (id: string) =>
  id
    .trim()
    .replace(/^<(.*)>$/, '$1')
    .trim();

interface SentTo {
  id: string;
  appModeId: string;
  messageId: string;
  test: boolean;
  externalId: string | null;
}

export async function takeEmailEvent(ctx: Ctx, owner: HookOwner, event: EmailEventInput): Promise<EmailEventOutcome> {
  const sent = await one<SentTo>(
    ctx,
    sql`SELECT s.id, s.app_mode_id AS "appModeId", s.message_id AS "messageId", s.test, c.external_id AS "externalId"
        FROM email_send s LEFT JOIN contact c ON c.id = s.contact_id WHERE s.mail_message_id = ${bareMessageId(event.message_id)}`,
  );
  // An app's own route never reaches another app-mode's email, whatever Message-ID it names.
  const email = sent && (owner === 'deployment' || sent.appModeId === owner.appModeId) ? sent : undefined;
  const appModeId = owner === 'deployment' ? email?.appModeId : owner.appModeId;
  if (!appModeId) return 'passed_over';
  const hard = event.kind === 'bounce' && event.hard === true;
  return transaction(ctx, async (tx) => {
    const first = await exec(
      tx,
      sql`INSERT INTO email_event (app_mode_id, provider_id, kind, send_id, address, hard, detail, occurred_at, received_at)
          VALUES (${appModeId}, ${event.id}, ${event.kind}, ${email?.id ?? null}::uuid, ${normalAddress(event.address)}, ${hard},
                  ${event.detail ?? null}, ${event.occurred_at}, ${tx.clock.now()})
          ON CONFLICT DO NOTHING`,
    );
    if (!first) return 'repeat';
    if (hard || event.kind === 'complaint')
      await suppressAddress(tx, appModeId, event.address, hard ? 'bounce' : 'complaint', event.detail?.slice(0, 500) ?? null);
    if (!email) return 'taken';
    const at = event.occurred_at;
    await exec(
      tx,
      event.kind === 'delivered'
        ? sql`UPDATE email_send SET delivered_at = coalesce(delivered_at, ${at}) WHERE id = ${email.id}::uuid`
        : event.kind === 'complaint'
          ? sql`UPDATE email_send SET complained_at = coalesce(complained_at, ${at}) WHERE id = ${email.id}::uuid`
          : hard
            ? sql`UPDATE email_send SET bounced_at = coalesce(bounced_at, ${at}) WHERE id = ${email.id}::uuid`
            : sql`UPDATE email_send SET soft_bounces = soft_bounces + 1 WHERE id = ${email.id}::uuid`,
    );
    if (event.kind === 'bounce' && !email.test)
      await emit(tx, EMAIL_BOUNCED, {
        appModeId,
        externalId: email.externalId,
        data: {
          message_id: email.messageId,
          email_id: email.id,
          address: event.address,
          hard,
          detail: event.detail ?? null,
          occurred_at: at,
        },
      });
    return 'taken';
  });
}
