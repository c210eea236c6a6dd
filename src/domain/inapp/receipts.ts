import { transaction, type Ctx, type GuestCaller } from '../context.js';
import { invalidField } from '../errors.js';
import { emit } from '../outbox.js';
import { MAX_CAROUSEL_OPTIONS } from './carousel.js';
import { counted, dayOf } from './stats.js';
import { personOf } from './person.js';
import { requireInApp } from './switch.js';
import { exec, join, raw, rows, sql, type Sql } from '../../db/sql.js';

// POST /guest/v1/receipts: what the person did with a message. Each receipt counts once however
// often it is sent again: the first `seen` (message.opened), the first `dismissed`, `completed` and
// `answered` for each screen, and each distinct tap (`clicked`, message.clicked with its button and
// link; the first one counts the person as having clicked). The first path sent is kept, cut to
// MaxReceiptPath screens. A receipt about a test copy (`test`) is kept with the copy and never
// counted or posted. Only a receipt from a person the message was answered to is taken (their
// check-in answered it, they opened it by a link, or their check-in delivered the test copy);
// any other (a message never answered to them, one the app-mode does not have, a person erased
// within the block) is answered 204 and keeps nothing: no contact, no row, no count, no event.

export const ACTIONS = ['seen', 'clicked', 'dismissed', 'completed', 'answered'] as const;
export type ReceiptAction = (typeof ACTIONS)[number];
/** Screen ids a receipt's path keeps (MaxReceiptPath); beyond them the first ones are kept. */
export const MAX_RECEIPT_PATH = 100;
/** Distinct taps kept per person and message. */
const MAX_CLICKS = 50;

export interface ReceiptInput {
  messageId: string;
  variant: string;
  action: ReceiptAction;
  sessionId?: string;
  screen?: string;
  button?: string;
  link?: string;
  answers?: string[];
  path?: string[];
  test?: boolean;
}

interface Kept {
  seen_at: Date | null;
  clicked_at: Date | null;
  dismissed_at: Date | null;
  completed_at: Date | null;
  answered_at: Date | null;
  clicks: { button: string | null; link: string | null; screen: string | null; at: string }[];
  answers: Record<string, string[]>;
  path: string[];
}

const COLUMN = {
  seen: 'seen_at',
  dismissed: 'dismissed_at',
  completed: 'completed_at',
  answered: 'answered_at',
  clicked: 'clicked_at',
} as const;

/** What the receipt changes in what is kept, and whether it is the first of its kind (counted). */
function apply(kept: Kept, input: ReceiptInput, now: Date): { changes: Partial<Kept>; first: boolean; newTap: boolean } {
  const changes: Partial<Kept> = {};
  const column = COLUMN[input.action];
  const first = kept[column] === null;
  if (first) changes[column] = now;
  let newTap = false;
  if (input.action === 'clicked') {
    const tap = { button: input.button ?? null, link: input.link ?? null, screen: input.screen ?? null };
    newTap =
      !kept.clicks.some((c) => c.button === tap.button && c.link === tap.link && c.screen === tap.screen) &&
      kept.clicks.length < MAX_CLICKS;
    if (newTap) changes.clicks = [...kept.clicks, { ...tap, at: now.toISOString() }];
  }
  if (input.action === 'answered') {
    const screen = input.screen ?? '';
    if (!(screen in kept.answers)) changes.answers = { ...kept.answers, [screen]: input.answers ?? [] };
  }
  if (input.path?.length && !kept.path.length) changes.path = input.path.slice(0, MAX_RECEIPT_PATH);
  return { changes, first, newTap };
}

const SET = (changes: Partial<Kept>) =>
  Object.entries(changes).map(
    ([column, value]) => [column, column === 'clicks' || column === 'answers' ? JSON.stringify(value) : value] as const,
  );

export async function takeReceipt(ctx: Ctx<GuestCaller>, input: ReceiptInput): Promise<void> {
  requireInApp(ctx);
  if (input.action === 'answered' && !input.answers?.length) throw invalidField('answers', 'name the options picked');
  if ((input.answers?.length ?? 0) > MAX_CAROUSEL_OPTIONS)
    throw invalidField('answers', `must hold at most ${MAX_CAROUSEL_OPTIONS} options`);
  const { appModeId, externalId } = ctx.caller;
  const now = ctx.clock.now();
  await transaction(ctx, async (tx) => {
    // Only a person the message was answered to (a check-in or an open: `sent_at`; a test copy:
    // `delivered_at`) is taken: anyone else is answered 204 and nothing is kept, not even a contact.
    const answered = input.test
      ? sql`SELECT 1 FROM inapp_test_send t JOIN contact c ON c.id = t.contact_id
            WHERE t.id = ${input.messageId} AND t.app_mode_id = ${appModeId} AND t.delivered_at IS NOT NULL AND c.app_mode_id = ${appModeId} AND c.external_id = ${externalId}`
      : sql`SELECT 1 FROM inapp_receipt r JOIN contact c ON c.id = r.contact_id
            WHERE r.message_id = ${input.messageId} AND r.app_mode_id = ${appModeId} AND r.sent_at IS NOT NULL AND c.app_mode_id = ${appModeId} AND c.external_id = ${externalId}`;
    if (!(await rows(tx, answered)).length) return;
    const contact = await personOf(tx);
    if (!contact) return;
    const table = input.test ? 'inapp_test_send' : 'inapp_receipt';
    if (input.test) {
      const [kept] = await rows<Kept>(
        tx,
        sql`SELECT * FROM inapp_test_send WHERE id = ${input.messageId} AND contact_id = ${contact.id} AND delivered_at IS NOT NULL FOR UPDATE`,
      );
      if (kept) await update(tx, table, sql`id = ${input.messageId}`, apply(kept, input, now).changes);
      return;
    }
    const [kept] = await rows<Kept & { message_id: string; variant: string; control: boolean }>(
      tx,
      sql`
      SELECT * FROM inapp_receipt WHERE message_id = ${input.messageId} AND contact_id = ${contact.id} AND app_mode_id = ${appModeId} AND sent_at IS NOT NULL FOR UPDATE`,
    );
    if (!kept) return;
    const message = { id: kept.message_id };
    const { changes, first, newTap } = apply(kept, input, now);
    await update(tx, table, sql`message_id = ${message.id} AND contact_id = ${contact.id}`, changes);
    const data = { message_id: message.id, variant: kept.variant, ...(input.sessionId ? { session_id: input.sessionId } : {}) };
    if (input.action === 'seen' && first) await emit(tx, 'message.opened', { appModeId, externalId, data });
    if (newTap)
      await emit(tx, 'message.clicked', {
        appModeId,
        externalId,
        data: { ...data, button: input.button ?? null, link: input.link ?? null, screen: input.screen ?? null },
      });
    // Answers are kept, not counted: the statistics count people, not their picks.
    if (first && input.action !== 'answered')
      await counted(tx, appModeId, [
        { messageId: message.id, variant: kept.variant, control: kept.control, counter: input.action, day: dayOf(now) },
      ]);
  });
}

async function update(tx: Ctx, table: string, where: Sql, changes: Partial<Kept>): Promise<void> {
  const set = SET(changes);
  if (!set.length) return;
  const assignments = set.map(([column, value]) =>
    column === 'clicks' || column === 'answers' ? sql`${raw(column)} = ${value}::jsonb` : sql`${raw(column)} = ${value}`,
  );
  await exec(tx, sql`UPDATE ${raw(table)} SET ${join(assignments)} WHERE ${where}`);
}
