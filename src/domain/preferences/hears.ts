import type { Ctx } from '../context.js';
import type { Channel } from './channels.js';
import { rows, sql } from '../../db/sql.js';

// Whether a person hears of a topic by a channel: the one question every sender asks (push, email,
// in-app messages, notices), answered by one rule written once, here, in SQL:
//   the topic is the app-mode's, not archived, and goes by the channel;
//   the person has not turned everything off;
//   their own choice for the topic by that channel, or else the topic's default;
//   and an offers topic by email or push also needs their consent to offers by that channel.
// The rule reads `t` (preference_topic), `x.ch` (the channel), `k` (contact, possibly none), `s`
// (preference_state) and `c` (preference_choice), joined as JOINS does.

export const ALL_ON = sql`NOT coalesce(s.all_off, false)`;
export const SUBSCRIBED = sql`coalesce(c.subscribed, t.subscribed_by_default)`;
export const NEEDS_CONSENT = sql`(t.offers AND ((x.ch = 'email' AND k.offers_by_email IS NOT TRUE) OR (x.ch = 'push' AND k.offers_by_push IS NOT TRUE)))`;
export const HEARS = sql`(t.archived_at IS NULL AND x.ch = ANY(t.channels) AND ${ALL_ON} AND ${SUBSCRIBED} AND NOT ${NEEDS_CONSENT})`;

/**
 * Why a person does not hear of a topic `t` by the channel `x.ch` (null: they do), beside the same
 * joins, in the rule's order: the topic closed to the channel (gone, archived, or not by it),
 * everything turned off, the topic turned off (or off by default), no consent to offers.
 */
export const WHY_NOT = sql`CASE WHEN t.id IS NULL OR t.archived_at IS NOT NULL OR NOT (x.ch = ANY(t.channels)) THEN 'topic_closed'
  WHEN NOT ${ALL_ON} THEN 'all_off'
  WHEN NOT ${SUBSCRIBED} THEN 'unsubscribed'
  WHEN ${NEEDS_CONSENT} THEN 'no_consent' END`;

/** Why a person does not hear: the codes WHY_NOT answers, or `all_off` without a topic. */
export type NotHearing = 'topic_closed' | 'all_off' | 'unsubscribed' | 'no_consent';

/** The person's switch and choice beside a contact `k`, a topic `t` and a channel `x.ch` already in the query. */
export const JOINS = sql`
  LEFT JOIN preference_state s ON s.contact_id = k.id
  LEFT JOIN preference_choice c ON c.contact_id = k.id AND c.topic_id = t.id AND c.channel = x.ch`;

/** A topic to send under, or none: then only the all-off switch holds (no topic can be turned off). */
export type TopicKey = string | null;

/**
 * The contacts among these (ids of contacts of the app-mode) who hear of the topic by the channel:
 * the batch form, one query for a sender's batch. An unknown or archived topic reaches no one.
 */
export async function whoHear(
  ctx: Ctx,
  appModeId: string,
  topicKey: TopicKey,
  channel: Channel,
  contactIds: readonly string[],
): Promise<Set<string>> {
  if (!contactIds.length) return new Set();
  const ids = [...contactIds];
  const found =
    topicKey === null
      ? await rows<{ id: string }>(
          ctx,
          sql`
          SELECT k.id FROM contact k LEFT JOIN preference_state s ON s.contact_id = k.id
          WHERE k.app_mode_id = ${appModeId} AND k.id = ANY(${ids}::text[]) AND ${ALL_ON}`,
        )
      : await rows<{ id: string }>(
          ctx,
          sql`
          SELECT k.id FROM contact k
          JOIN preference_topic t ON t.app_mode_id = ${appModeId} AND t.key = ${topicKey}
          CROSS JOIN (SELECT ${channel}::"PreferenceChannel" AS ch) x
          ${JOINS}
          WHERE k.app_mode_id = ${appModeId} AND k.id = ANY(${ids}::text[]) AND ${HEARS}`,
        );
  return new Set(found.map((r) => r.id));
}

/** Whether one person hears of the topic by the channel. */
export const hears = async (ctx: Ctx, contact: { id: string; appModeId: string }, topicKey: TopicKey, channel: Channel): Promise<boolean> =>
  (await whoHear(ctx, contact.appModeId, topicKey, channel, [contact.id])).has(contact.id);

/** Why one contact of the app-mode does not hear of the topic by the channel (null: they do); without a topic only everything-off holds. */
export async function whyNotHear(
  ctx: Ctx,
  appModeId: string,
  contactId: string,
  topicKey: TopicKey,
  channel: Channel,
): Promise<NotHearing | null> {
  const [found] = await rows<{ why: NotHearing | null }>(
    ctx,
    topicKey === null
      ? sql`SELECT CASE WHEN NOT ${ALL_ON} THEN 'all_off' END AS why FROM contact k LEFT JOIN preference_state s ON s.contact_id = k.id
            WHERE k.app_mode_id = ${appModeId} AND k.id = ${contactId}`
      : sql`SELECT ${WHY_NOT} AS why FROM contact k
            LEFT JOIN preference_topic t ON t.app_mode_id = ${appModeId} AND t.key = ${topicKey}
            CROSS JOIN (SELECT ${channel}::"PreferenceChannel" AS ch) x
            ${JOINS}
            WHERE k.app_mode_id = ${appModeId} AND k.id = ${contactId}`,
    { prepare: true },
  );
  return found?.why ?? null;
}
