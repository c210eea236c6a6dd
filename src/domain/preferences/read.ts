import type { PreferenceTopic } from '../../generated/prisma/client.js';
import type { Ctx } from '../context.js';
import type { Channel } from './channels.js';
import { HEARS, JOINS, NEEDS_CONSENT, SUBSCRIBED } from './hears.js';
import { activeTopics } from './topics.js';
import { rows, sql } from '../../db/sql.js';

// A person's preferences as they are shown to them (and to staff): every topic of the app-mode they
// may see, each channel it goes by with their choice (or the default), whether they hear of it now
// (hears.ts), and whether that waits on their consent to offers.

export interface ChannelPreference {
  channel: Channel;
  /** Their own choice, or the topic's default when they never chose. */
  subscribed: boolean;
  /** Whether a message of the topic reaches them by this channel now. */
  hears: boolean;
  /** An offers topic by email or push, and they have not agreed to offers by it. */
  needsConsent: boolean;
}

export interface TopicPreference {
  topic: PreferenceTopic;
  channels: ChannelPreference[];
}

export interface Preferences {
  allOff: boolean;
  topics: TopicPreference[];
}

interface Row {
  contactId: string;
  topicId: string;
  channel: Channel;
  subscribed: boolean;
  needsConsent: boolean;
  hears: boolean;
}

/** The preferences of each of these contacts of the app-mode, by contact id, read at once. */
export async function preferencesOfMany(ctx: Ctx, appModeId: string, contactIds: readonly string[]): Promise<Map<string, Preferences>> {
  const ids = [...contactIds];
  const [topics, states, found] = await Promise.all([
    activeTopics(ctx, appModeId),
    ctx.db.preferenceState.findMany({ where: { appModeId, contactId: { in: ids } } }),
    rows<Row>(
      ctx,
      sql`
      SELECT p.id AS "contactId", t.id AS "topicId", x.ch AS channel, ${SUBSCRIBED} AS subscribed, ${NEEDS_CONSENT} AS "needsConsent", ${HEARS} AS hears
      FROM unnest(${ids}::text[]) AS p(id)
      LEFT JOIN contact k ON k.id = p.id AND k.app_mode_id = ${appModeId}
      JOIN preference_topic t ON t.app_mode_id = ${appModeId} AND t.archived_at IS NULL
      CROSS JOIN LATERAL unnest(t.channels) AS x(ch)
      ${JOINS}
      ORDER BY x.ch`,
    ),
  ]);
  const allOff = new Set(states.filter((s) => s.allOff).map((s) => s.contactId));
  const byKey = new Map<string, ChannelPreference[]>();
  for (const r of found) {
    const key = `${r.contactId}\u0000${r.topicId}`;
    byKey.set(key, [
      ...(byKey.get(key) ?? []),
      { channel: r.channel, subscribed: r.subscribed, hears: r.hears, needsConsent: r.needsConsent },
    ]);
  }
  return new Map(
    ids.map((id) => [
      id,
      { allOff: allOff.has(id), topics: topics.map((topic) => ({ topic, channels: byKey.get(`${id}\u0000${topic.id}`) ?? [] })) },
    ]),
  );
}

/** One person's preferences; `contactId` null for a person not known yet (every default, no consent). */
export async function preferencesOf(ctx: Ctx, appModeId: string, contactId: string | null): Promise<Preferences> {
  // An id no contact has stands for someone not known yet: the defaults, and no consent given.
  const id = contactId ?? '';
  return (await preferencesOfMany(ctx, appModeId, [id])).get(id)!;
}
