import type { Ctx, GuestCaller, TxCtx } from '../context.js';
import { emitMany } from '../outbox.js';
import type { Choice, KeptAnswer } from './checkin.js';
import type { LiveMessage } from './live.js';
import { CONTROL } from './message-input.js';
import { counted, dayOf, type Count } from './stats.js';

// What a check-in changed, written in one transaction with its outbox rows: messages answered
// (receipts, `message.sent`), people counted in a control group, goals reached (`goal.reached`),
// test copies delivered; each counted once, whatever check-ins overlap (the statements say which
// rows they changed, and only those are answered and posted).

export interface Answered {
  message: LiveMessage;
  variant: string;
}

export async function recordCheckin(tx: TxCtx<GuestCaller>, contactId: string, sessionId: string, choice: Choice): Promise<{ answered: string[]; tests: string[] }> {
  const { appModeId, externalId } = tx.caller;
  const now = tx.clock.now();
  const day = dayOf(now);
  const counts: Count[] = [];

  const ids = choice.answered.map((a) => a.message.id);
  const sent = ids.length
    ? await tx.db.$queryRaw<{ message_id: string; variant: string; first: boolean }[]>`
        INSERT INTO inapp_receipt AS r (message_id, contact_id, app_mode_id, variant, assigned_at, sent_at, last_sent_at, last_session, sent_count)
        SELECT x.m, ${contactId}, ${appModeId}, x.v, ${now}, ${now}, ${now}, ${sessionId}, 1
        FROM unnest(${ids}::text[], ${choice.answered.map((a) => a.variant)}::text[]) AS x(m, v)
        ON CONFLICT (message_id, contact_id) DO UPDATE
          SET sent_at = coalesce(r.sent_at, EXCLUDED.sent_at), last_sent_at = EXCLUDED.last_sent_at, last_session = EXCLUDED.last_session, sent_count = r.sent_count + 1
          WHERE r.last_session IS DISTINCT FROM EXCLUDED.last_session AND NOT r.control
        RETURNING r.message_id, r.variant, r.sent_count = 1 AS first`
    : [];
  for (const s of sent) if (s.first) counts.push({ messageId: s.message_id, variant: s.variant, control: false, counter: 'sent', day });
  await emitMany(tx, 'message.sent', sent.map((s) => ({ appModeId, externalId, data: { message_id: s.message_id, variant: s.variant, session_id: sessionId } })));

  const controls = choice.controls.map((c) => c.message.id);
  if (controls.length) {
    const rows = await tx.db.$queryRaw<{ message_id: string }[]>`
      INSERT INTO inapp_receipt (message_id, contact_id, app_mode_id, variant, control, assigned_at)
      SELECT m, ${contactId}, ${appModeId}, ${CONTROL}, true, ${now} FROM unnest(${controls}::text[]) AS m
      ON CONFLICT (message_id, contact_id) DO NOTHING
      RETURNING message_id`;
    for (const r of rows) counts.push({ messageId: r.message_id, variant: CONTROL, control: true, counter: 'sent', day });
  }

  if (choice.goals.length) {
    const reached = await tx.db.$queryRaw<{ message_id: string; variant: string; control: boolean }[]>`
      UPDATE inapp_receipt SET goal_reached_at = ${now}
      WHERE contact_id = ${contactId} AND message_id = ANY(${choice.goals}::text[]) AND goal_reached_at IS NULL
      RETURNING message_id, variant, control`;
    for (const r of reached) counts.push({ messageId: r.message_id, variant: r.variant, control: r.control, counter: 'goalReached', day });
    await emitMany(tx, 'goal.reached', reached.map((r) => ({ appModeId, externalId, data: { message_id: r.message_id, variant: r.variant } })));
  }

  const testIds = choice.tests.map((t) => t.id);
  const tests = testIds.length
    ? (await tx.db.$queryRaw<{ id: string }[]>`UPDATE inapp_test_send SET delivered_at = ${now} WHERE id = ANY(${testIds}::text[]) AND delivered_at IS NULL RETURNING id`).map((t) => t.id)
    : [];
  await counted(tx, appModeId, counts);
  return { answered: sent.map((s) => s.message_id), tests };
}

/** The answer a throttled check-in is answered with, kept without waiting for its disk flush (it is only timing). */
export async function storeAnswer(ctx: Ctx<GuestCaller>, contactId: string, answer: KeptAnswer, hash: string): Promise<void> {
  await ctx.svc.pool.query(
    `WITH quick AS (SELECT set_config('synchronous_commit', 'off', true))
     UPDATE inapp_checkin SET answer = $1::jsonb, answer_hash = $2 WHERE contact_id = $3 AND EXISTS (SELECT 1 FROM quick)`,
    [JSON.stringify(answer), hash, contactId],
  );
}
