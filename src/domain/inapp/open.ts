import { transaction, type Ctx, type GuestCaller } from '../context.js';
import { notFound } from '../errors.js';
import { emit } from '../outbox.js';
import type { ShownMessage } from './checkin.js';
import { liveMode } from './live-messages.js';
import { personOf } from './person.js';
import { NEW_SESSION, RECENT_SESSIONS } from './sessions.js';
import { counted, dayOf } from './stats.js';
import { requireInApp } from './switch.js';
import { drawVariant } from './variants.js';
import { rows, sql } from '../../db/sql.js';

// POST /guest/v1/messages/{message_id}/open: the message a link names, whatever its audience (and
// schedule, window, caps and the person's preferences) says: the person asked for it. It must be
// live (404 otherwise, as for a message that does not exist). The person keeps their variant; one
// in the control group, or whose variant was removed, is shown the variant drawn among the shown
// ones. Answering it is its message.sent, once a session, and counts for the session's one large
// message. A person erased within the block is answered 404 (the route has no 409) and nothing is kept.

export async function openMessage(ctx: Ctx<GuestCaller>, messageId: string, sessionId: string): Promise<ShownMessage> {
  requireInApp(ctx);
  const { appModeId, externalId } = ctx.caller;
  const message = (await liveMode(ctx, appModeId)).messages.find((m) => m.id === messageId);
  if (!message) throw notFound('No such message, or it is not live.');
  const now = ctx.clock.now();
  return transaction(ctx, async (tx) => {
    const contact = await personOf(tx);
    if (!contact) throw notFound('No such message, or it is not live.');
    const drawn = drawVariant({ ...message, controlWeight: 0 }, externalId);
    // A row comes back only when the message is answered anew in this session.
    const [row] = await rows<{ variant: string; control: boolean; first: boolean }>(
      tx,
      sql`
      INSERT INTO inapp_receipt AS r (message_id, contact_id, app_mode_id, variant, assigned_at, sent_at, last_sent_at, last_session, recent_sessions, sent_count)
      VALUES (${message.id}, ${contact.id}, ${appModeId}, ${drawn}, ${now}, ${now}, ${now}, ${sessionId}, ARRAY[${sessionId}::text], 1)
      ON CONFLICT (message_id, contact_id) DO UPDATE
        SET sent_at = coalesce(r.sent_at, EXCLUDED.sent_at), last_sent_at = EXCLUDED.last_sent_at, last_session = EXCLUDED.last_session,
            recent_sessions = ${RECENT_SESSIONS}, sent_count = r.sent_count + 1
        WHERE ${NEW_SESSION}
      RETURNING r.variant, r.control, r.sent_count = 1 AS first`,
    );
    const kept = (
      await tx.db.inAppReceipt.findUniqueOrThrow({
        where: { messageId_contactId: { messageId, contactId: contact.id } },
        select: { variant: true },
      })
    ).variant;
    const variant = message.variants.find((v) => v.key === kept) ?? message.variants.find((v) => v.key === drawn)!;
    if (row) {
      // The control group was counted when the person was drawn into it.
      if (row.first && !row.control)
        await counted(tx, appModeId, [{ messageId, variant: variant.key, control: false, counter: 'sent', day: dayOf(now) }]);
      await emit(tx, 'message.sent', {
        appModeId,
        externalId,
        data: { message_id: messageId, variant: variant.key, session_id: sessionId },
      });
    }
    return { id: message.id, kind: message.kind, variant: variant.key, test: false, screens: message.screens, content: variant.content };
  });
}
