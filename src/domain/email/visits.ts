import { exec, one, sql } from '../../db/sql.js';
import { transaction, type Ctx } from '../context.js';
import { emit } from '../outbox.js';
import { clickLocation } from './links.js';
import { byMachine } from './machines.js';
import { noSuchEmail, sentEmailOf, type SentEmail } from './sends.js';

// Clicks and opens of an email sent, from its link routes. Each link of an email counts its first
// click by a person and its first by a machine, each once; the email its first open by each, once
// (machines.ts says which is which). A person's first click on a link and first open are told as
// `message.clicked` and `message.opened`; machines' are only counted. A test copy counts nothing.

export interface VisitFacts {
  method: string;
  userAgent: string | undefined;
  /** The app reported the click itself (POST /email/c/{token}): a person's. */
  reported?: boolean;
  /** Over the public routes' rate: the answer is given, nothing is counted. */
  overLimit?: boolean;
}

const told = (email: SentEmail, data: Record<string, unknown>) => ({
  appModeId: email.appModeId,
  externalId: email.externalId,
  data: { message_id: email.messageId, channel: 'email', email_id: email.id, ...data },
});

/** A click on a tracked link: where it leads (the link as its email's own version holds it); counted once by a person and once by a machine. */
export async function clickEmailLink(ctx: Ctx, token: string, facts: VisitFacts): Promise<string> {
  const found = await sentEmailOf(ctx, token, 'click');
  if (!found || found.email.link === null) throw noSuchEmail();
  const { email, terms } = found;
  const link = found.email.link;
  if (!email.test && !facts.overLimit)
    await transaction(ctx, async (tx) => {
      // One click of an email at a time: a scanner's clicks on two links are seen one after the other.
      await exec(tx, sql`SELECT 1 FROM email_send WHERE id = ${email.id}::uuid FOR UPDATE`);
      const now = tx.clock.now();
      const other = await one<{ at: Date | null }>(
        tx,
        sql`SELECT max(at) AS at FROM email_click WHERE send_id = ${email.id}::uuid AND link <> ${terms.link}`,
      );
      const machine = !facts.reported && byMachine({ ...facts, sentAt: email.createdAt, now, otherClickAt: other?.at });
      const first = await exec(
        tx,
        sql`INSERT INTO email_click (send_id, link, machine, at) VALUES (${email.id}::uuid, ${terms.link}, ${machine}, ${now})
            ON CONFLICT DO NOTHING`,
      );
      if (!first) return;
      await exec(
        tx,
        machine
          ? sql`UPDATE email_send SET machine_clicked_at = coalesce(machine_clicked_at, ${now}) WHERE id = ${email.id}::uuid`
          : sql`UPDATE email_send SET clicked_at = coalesce(clicked_at, ${now}) WHERE id = ${email.id}::uuid`,
      );
      if (!machine) await emit(tx, 'message.clicked', told(email, { link, link_index: terms.link }));
    });
  return clickLocation(link);
}

/** The open pixel fetched: its first fetch by a person, and its first by a machine, counted; anything else (no such email, a test copy) counts nothing. */
export async function openEmail(ctx: Ctx, token: string, facts: VisitFacts): Promise<void> {
  if (facts.overLimit) return;
  const found = await sentEmailOf(ctx, token, 'open');
  if (!found || found.email.test) return;
  const { email } = found;
  await transaction(ctx, async (tx) => {
    const now = tx.clock.now();
    const machine = byMachine({ ...facts, sentAt: email.createdAt, now });
    const first = await exec(
      tx,
      machine
        ? sql`UPDATE email_send SET machine_opened_at = ${now} WHERE id = ${email.id}::uuid AND machine_opened_at IS NULL`
        : sql`UPDATE email_send SET opened_at = ${now} WHERE id = ${email.id}::uuid AND opened_at IS NULL`,
    );
    if (first && !machine) await emit(tx, 'message.opened', told(email, {}));
  });
}
