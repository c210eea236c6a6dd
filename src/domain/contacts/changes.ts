import { exec, sql } from '../../db/sql.js';
import type { TxCtx } from '../context.js';
import { answerFirst, OUTBOX_CHANNEL } from '../outbox.js';

// A person's attributes, fields or tags changed: handed on to the workflows that watch one of the
// changed names (their `attribute_changed` trigger, what their audience reads), as an outbox row
// written in the writer's transaction, so a change is heard of if and only if it committed. The
// names a workflow watches are in workflow_watch (filled on publishing, over all its versions); an
// app-mode without such workflows pays one index probe a change. Every writer of a person's
// attributes, fields or tags calls `noteChanged`: identify (server API), a survey's answers written
// to attributes (guest API), a workflow's set_attribute and tag steps; and a survey's answers
// themselves (`survey:<message id>`), which an audience's survey conditions read.

/** The outbox topic of a person's changes some workflow watches: `{ contact_id, names }`. */
export const CONTACT_CHANGED = 'workflow.change';

/** How a contact field is named among the watched names: never an attribute's name (those start with a letter). */
export const fieldName = (field: string) => `#${field}`;
/** The change of a person's answers to a survey (an in-app message's id), as a workflow's audience on them watches it. */
export const surveyName = (messageId: string) => `survey:${messageId}`;

/** Identify's fields by the name audience rules give them. */
export const FIELD_NAMES: Record<string, string> = {
  displayName: 'display_name',
  email: 'email',
  signedUpAt: 'signed_up_at',
  language: 'language',
  timeZone: 'time_zone',
  provider: 'provider',
};

/** Writes the change row when a workflow of the app-mode watches one of `names` (attributes, or `#field`), in the caller's transaction. */
export async function noteChanged(
  tx: TxCtx,
  change: { appModeId: string; contactId: string; externalId: string; names: readonly string[] },
): Promise<void> {
  if (!change.names.length) return;
  answerFirst(tx);
  const names = [...new Set(change.names)];
  await exec(
    tx,
    sql`
    WITH written AS (
      INSERT INTO outbox_event (app_mode_id, topic, external_id, data, created_at)
      SELECT ${change.appModeId}, ${CONTACT_CHANGED}, ${change.externalId},
             jsonb_build_object('contact_id', ${change.contactId}::text, 'names', ${names}::text[]), ${tx.clock.now()}
      WHERE EXISTS (SELECT 1 FROM workflow_watch w WHERE w.app_mode_id = ${change.appModeId} AND w.name = ANY(${names}::text[]))
      RETURNING 1
    )
    SELECT pg_notify(${OUTBOX_CHANNEL}, '') FROM written`,
  );
}
