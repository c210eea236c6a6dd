import { exec, rows, sql } from '../../db/sql.js';
import type { Ctx } from '../context.js';
import { whyNotHear } from '../preferences/hears.js';
import { skipped, takeStep, type Done, type Visit } from './run-record.js';

// A workflow's in-app step, for one person: the message is sent them (inapp_workflow_send), and their
// check-ins show it as if they were in its audience, under its other rules (schedule, sending window
// and quiet hours, topic, the daily cap, how often it shows), with its receipts and statistics as any
// check-in's; a message for workflows only is shown to no one else. Skipped, saying why: the
// message not live (a draft, paused or ended), its schedule over, the person not hearing of its topic
// in-app (everything off, the topic off, the topic closed), or sent them by a workflow before (once a
// person and message: its `show` rule governs it from then).

export interface InAppVisit extends Visit {
  appModeId: string;
  step: { key: string; kind: string; messageId: string };
}

export const sendInAppStep = (ctx: Ctx, v: InAppVisit): Promise<Done> =>
  takeStep(ctx, v, async ({ tx }) => {
    const now = tx.clock.now();
    const [m] = await rows<{ state: string; topicKey: string | null; stopAt: Date | null }>(
      tx,
      sql`SELECT state::text, topic_key AS "topicKey", stop_at AS "stopAt" FROM inapp_message
          WHERE id = ${v.step.messageId} AND app_mode_id = ${v.appModeId}`,
    );
    if (!m) return skipped('not_available', 'the in-app message was deleted');
    if (m.state !== 'live') return skipped('message_not_live', `the message is ${m.state}, not live`);
    if (m.stopAt && m.stopAt <= now) return skipped('outside_schedule', 'the message’s schedule is over');
    const why = await whyNotHear(tx, v.appModeId, v.contactId, m.topicKey, 'in_app');
    if (why) return skipped(why);
    const added = await exec(
      tx,
      sql`INSERT INTO inapp_workflow_send (contact_id, message_id, app_mode_id, run_id, step_key, sent_at)
          VALUES (${v.contactId}, ${v.step.messageId}, ${v.appModeId}, ${v.runKey}, ${v.step.key}, ${now})
          ON CONFLICT DO NOTHING`,
    );
    if (!added) return skipped('already_sent', 'a workflow sent the person this message before');
    return { outcome: 'sent', detail: 'shown at their check-ins within the message’s schedule, sending window and caps' };
  });
