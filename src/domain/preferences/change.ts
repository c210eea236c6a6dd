import { randomUUID } from 'node:crypto';
import type { Contact, Prisma, PreferenceSource } from '../../generated/prisma/client.js';
import { textProblem } from '../../lib/text.js';
import type { TxCtx } from '../context.js';
import { invalid, type FieldError } from '../errors.js';
import { emit } from '../outbox.js';
import type { Channel } from './channels.js';
import { activeTopics } from './topics.js';
import { exec, sql } from '../../db/sql.js';
import { lock } from '../locks.js';

// A person changes their preferences: everything off (or on again), and choices per topic and
// channel. Only what changes is written, and each change is kept with the words the person was
// shown (`wording`) and who made it, as proof. Turning a topic off by a channel it reached them by,
// or turning everything off, is heard of as `contact.unsubscribed`.

export const MAX_CHOICES = 300;
export const MAX_WORDING = 5_000;
export const UNSUBSCRIBED = 'contact.unsubscribed';

export interface Choice {
  topic: string;
  channel: Channel;
  subscribed: boolean;
}

export interface PreferencesChange {
  allOff?: boolean;
  choices?: Choice[];
  /** The text the person was shown when they chose. */
  wording?: string | null;
}

type Person = Pick<Contact, 'id' | 'appModeId' | 'externalId'>;

/** Every problem of the change, each naming its field (`choices.<i>.topic`, `choices.<i>.channel`, `wording`). */
function problems(change: PreferencesChange, topics: Map<string, { channels: Channel[] }>): FieldError[] {
  const errors: FieldError[] = [];
  const wording = change.wording;
  if (wording !== undefined && wording !== null) {
    const problem = textProblem(wording) ?? (wording.length > MAX_WORDING ? `must be at most ${MAX_WORDING} characters` : undefined);
    if (problem) errors.push({ field: 'wording', message: problem });
  }
  const choices = change.choices ?? [];
  if (choices.length > MAX_CHOICES) errors.push({ field: 'choices', message: `must hold at most ${MAX_CHOICES} choices` });
  const seen = new Set<string>();
  choices.forEach((c, i) => {
    const topic = topics.get(c.topic);
    if (!topic) return errors.push({ field: `choices.${i}.topic`, message: 'is not a topic of this app' });
    if (!topic.channels.includes(c.channel))
      return errors.push({
        field: `choices.${i}.channel`,
        message: `is not a channel of the topic "${c.topic}" (it goes by ${topic.channels.join(', ')})`,
      });
    const key = `${c.topic}\u0000${c.channel}`;
    if (seen.has(key)) errors.push({ field: `choices.${i}`, message: `chooses for "${c.topic}" by ${c.channel} a second time` });
    seen.add(key);
  });
  return errors;
}

/** Applies the change in the caller's transaction; refuses it whole, naming each bad field, or writes it whole. */
export async function changePreferences(tx: TxCtx, person: Person, change: PreferencesChange, source: PreferenceSource): Promise<void> {
  const { db } = tx;
  const { appModeId, id: contactId } = person;
  // One change of a person's preferences at a time: each sees the one before, so nothing is lost or told twice.
  await lock(tx, 'preferences', contactId);
  const topics = new Map((await activeTopics(tx, appModeId)).map((t) => [t.key, t]));
  const errors = problems(change, topics);
  if (errors.length) throw invalid(errors);

  const now = tx.clock.now();
  const wording = change.wording ?? null;
  const chosen = (change.choices ?? []).map((c) => ({
    ...c,
    topicId: topics.get(c.topic)!.id,
    byDefault: topics.get(c.topic)!.subscribedByDefault,
  }));
  const [state, current] = await Promise.all([
    db.preferenceState.findUnique({ where: { contactId } }),
    db.preferenceChoice.findMany({ where: { contactId, topicId: { in: [...new Set(chosen.map((c) => c.topicId))] } } }),
  ]);
  const held = new Map(current.map((c) => [`${c.topicId}\u0000${c.channel}`, c.subscribed]));
  const record = { appModeId, contactId, wording, source, changedAt: now };
  const changes: Prisma.PreferenceChangeCreateManyInput[] = [];

  const allOff = change.allOff !== undefined && change.allOff !== (state?.allOff ?? false) ? change.allOff : undefined;
  if (allOff !== undefined) {
    await db.preferenceState.upsert({
      where: { contactId },
      create: { contactId, appModeId, allOff, changedAt: now },
      update: { allOff, changedAt: now },
    });
    changes.push({ id: randomUUID(), ...record, kind: 'all_off', value: allOff });
  }

  // A choice the person already holds changes nothing; one they never made is kept (it now holds whatever the default becomes).
  const changed = chosen.filter((c) => held.get(`${c.topicId}\u0000${c.channel}`) !== c.subscribed);
  if (changed.length) {
    await exec(
      tx,
      sql`
      INSERT INTO preference_choice (contact_id, topic_id, channel, app_mode_id, subscribed, changed_at)
      SELECT ${contactId}, u.topic_id, u.channel::"PreferenceChannel", ${appModeId}, u.subscribed, ${now}
      FROM unnest(${changed.map((c) => c.topicId)}::text[], ${changed.map((c) => c.channel)}::text[], ${changed.map((c) => c.subscribed)}::boolean[]) AS u(topic_id, channel, subscribed)
      ON CONFLICT (contact_id, topic_id, channel) DO UPDATE SET subscribed = EXCLUDED.subscribed, changed_at = EXCLUDED.changed_at`,
    );
    for (const c of changed)
      changes.push({ id: randomUUID(), ...record, kind: 'choice', topicKey: c.topic, channel: c.channel, value: c.subscribed });
  }
  if (changes.length) await db.preferenceChange.createMany({ data: changes });

  // Left: what reached them (by their choice or the default) and no longer does.
  const left = changed
    .filter((c) => !c.subscribed && (held.get(`${c.topicId}\u0000${c.channel}`) ?? c.byDefault))
    .map((c) => ({ topic: c.topic, channel: c.channel }));
  if (allOff === true || left.length) {
    await emit(tx, UNSUBSCRIBED, { appModeId, externalId: person.externalId, data: { all_off: allOff === true, left, source } });
  }
}
