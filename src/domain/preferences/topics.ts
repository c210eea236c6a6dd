import { randomUUID } from 'node:crypto';
import type { PreferenceTopic } from '../../generated/prisma/client.js';
import { textProblem } from '../../lib/text.js';
import { transaction, type Ctx, type StaffCaller } from '../context.js';
import { conflict, invalid, notFound, type FieldError } from '../errors.js';
import { inChannelOrder, type Channel } from './channels.js';
import { lock } from '../locks.js';

// Staff define an app-mode's topics. A topic's key is what senders and clients name it by: it is
// fixed when the topic is made and never reused, even once the topic is archived, so a choice and
// its proof always mean the topic they were made for. An archived topic is shown to no one and
// reaches no one; people's choices on it are kept.

export const MAX_TOPICS = 100;
export const MAX_TOPIC_NAME = 100;
export const MAX_TOPIC_DESCRIPTION = 500;
export const TOPIC_KEY = /^[a-z0-9][a-z0-9_.-]{0,63}$/;
export const TOPIC_KEY_RULE = '1 to 64 lower-case letters, digits and _ . -, starting with a letter or digit';

export interface TopicInput {
  name?: string;
  description?: string;
  channels?: Channel[];
  subscribedByDefault?: boolean;
  offers?: boolean;
}

function topicProblems(input: TopicInput): FieldError[] {
  const errors: FieldError[] = [];
  const text = (field: string, value: string | undefined, max: number, min = 0) => {
    if (value === undefined) return;
    const problem =
      textProblem(value) ?? (value.trim().length < min || value.length > max ? `must be ${min} to ${max} characters` : undefined);
    if (problem) errors.push({ field, message: problem });
  };
  text('name', input.name, MAX_TOPIC_NAME, 1);
  text('description', input.description, MAX_TOPIC_DESCRIPTION);
  if (input.channels !== undefined && !input.channels.length)
    errors.push({ field: 'channels', message: 'must name at least one of email, push, in_app' });
  return errors;
}

/** A topic by id, archived or not (404 otherwise), for staff whose right to its app-mode was checked. */
async function topicById(ctx: Ctx<StaffCaller>, id: string): Promise<PreferenceTopic> {
  const topic = await ctx.db.preferenceTopic.findUnique({ where: { id } });
  if (!topic) throw notFound('No such topic.');
  return topic;
}

/** The app-mode's topics people see and hear of, oldest first. */
export const activeTopics = (ctx: Ctx, appModeId: string): Promise<PreferenceTopic[]> =>
  ctx.db.preferenceTopic.findMany({ where: { appModeId, archivedAt: null }, orderBy: [{ createdAt: 'asc' }, { key: 'asc' }] });

export async function addTopic(
  ctx: Ctx<StaffCaller>,
  appModeId: string,
  input: TopicInput & { key: string; name: string; channels: Channel[] },
): Promise<PreferenceTopic> {
  const errors = topicProblems(input);
  if (!TOPIC_KEY.test(input.key)) errors.unshift({ field: 'key', message: `must be ${TOPIC_KEY_RULE}` });
  if (errors.length) throw invalid(errors);
  return transaction(ctx, async (tx) => {
    // One addition at a time per app-mode, so the limit holds when several are made at once.
    await lock(tx, 'preference-topics', appModeId);
    if (await tx.db.preferenceTopic.findFirst({ where: { appModeId, key: input.key }, select: { id: true } })) {
      throw conflict('topic_key_taken', `A topic with the key "${input.key}" exists (or existed: keys are never reused).`);
    }
    if ((await tx.db.preferenceTopic.count({ where: { appModeId, archivedAt: null } })) >= MAX_TOPICS) {
      throw conflict('topic_limit', `An app has at most ${MAX_TOPICS} topics in each mode; archive one first.`);
    }
    const now = tx.clock.now();
    return tx.db.preferenceTopic.create({
      data: {
        id: randomUUID(),
        appModeId,
        key: input.key,
        name: input.name.trim(),
        description: input.description?.trim() ?? '',
        channels: inChannelOrder(input.channels),
        subscribedByDefault: input.subscribedByDefault ?? true,
        offers: input.offers ?? false,
        createdAt: now,
        updatedAt: now,
      },
    });
  });
}

/** Changes the fields given; the key never changes. */
export async function changeTopic(ctx: Ctx<StaffCaller>, id: string, input: TopicInput): Promise<PreferenceTopic> {
  const errors = topicProblems(input);
  if (errors.length) throw invalid(errors);
  await topicById(ctx, id);
  return ctx.db.preferenceTopic.update({
    where: { id },
    data: {
      name: input.name?.trim(),
      description: input.description?.trim(),
      channels: input.channels && inChannelOrder(input.channels),
      subscribedByDefault: input.subscribedByDefault,
      offers: input.offers,
      updatedAt: ctx.clock.now(),
    },
  });
}

/** Archives a topic (archiving twice keeps the first time). */
export async function archiveTopic(ctx: Ctx<StaffCaller>, id: string): Promise<PreferenceTopic> {
  const topic = await topicById(ctx, id);
  if (topic.archivedAt) return topic;
  const now = ctx.clock.now();
  return ctx.db.preferenceTopic.update({ where: { id }, data: { archivedAt: now, updatedAt: now } });
}
