import { Prisma, type InAppMessage, type InAppShow } from '../../generated/prisma/client.js';
import { readAttributeCondition, readAudience, vocabularyOf } from '../audiences/rules.js';
import type { Ctx } from '../context.js';
import { invalid, type FieldError } from '../errors.js';
import { readContent, type Kind } from './content.js';
import { declaredLinkRule, declaredPaths } from './links.js';
import { isClock, windowOf, windowProblems, type QuietHours, type SendingWindow } from './schedule.js';

// What staff write about a message, read whole: every problem found is refused at once, each
// naming its field (`variants.1.content.screens.3.buttons.0.screen`, `sendingWindow.days`).

export interface VariantInput {
  key: string;
  weight: number;
  content: unknown;
}

export interface GoalInput {
  event?: string | null;
  attribute?: unknown;
  days: number;
}

/** Only the members given change. `content` is the content of a message with one variant (`a`). */
export interface MessageInput {
  name?: string;
  priority?: number;
  content?: unknown;
  variants?: VariantInput[];
  controlWeight?: number;
  audience?: unknown;
  /** Shown only to the people a workflow's send step sends it to. */
  workflowOnly?: boolean;
  screens?: string[];
  topic?: string | null;
  show?: InAppShow;
  startAt?: Date | null;
  stopAt?: Date | null;
  sendingWindow?: SendingWindow | null;
  quietHours?: QuietHours | null;
  goal?: GoalInput | null;
}

export interface Variant {
  key: string;
  weight: number;
  content: Prisma.JsonObject;
}

export const MAX_VARIANTS = 5;
export const MAX_WEIGHT = 1000;
export const MAX_SCREEN_NAMES = 20;
export const MAX_GOAL_DAYS = 365;
export const CONTROL = 'control';
const VARIANT_KEY = /^[a-z0-9][a-z0-9_-]{0,19}$/;

/** The columns an input sets: plain values, taken by create and update alike. */
export type Columns = Partial<
  Pick<
    Prisma.InAppMessageUncheckedCreateInput,
    | 'name'
    | 'priority'
    | 'variants'
    | 'controlWeight'
    | 'audience'
    | 'workflowOnly'
    | 'screens'
    | 'topicKey'
    | 'show'
    | 'startAt'
    | 'stopAt'
    | 'sendingWindow'
    | 'quietHours'
    | 'goal'
    | 'goalEvent'
    | 'goalDays'
  >
>;

const json = (value: unknown) => (value === null ? Prisma.DbNull : (value as Prisma.InputJsonValue));

/** The columns a message's input sets, read against the app-mode (its attributes, events, topics and declared links). */
export async function readMessageInput(
  ctx: Ctx,
  appModeId: string,
  kind: Kind,
  input: MessageInput,
  current?: InAppMessage,
): Promise<Columns> {
  const errors: FieldError[] = [];
  const fail = (field: string, message: string) => void errors.push({ field, message });
  const data: Columns = {};

  if (input.name !== undefined) {
    const name = input.name.trim();
    if (!name || name.length > 200) fail('name', 'must be 1 to 200 characters');
    data.name = name;
  }
  if (input.priority !== undefined) {
    if (!Number.isInteger(input.priority) || Math.abs(input.priority) > 1000) fail('priority', 'must be a whole number from -1000 to 1000');
    data.priority = input.priority;
  }
  if (input.content !== undefined && input.variants !== undefined) fail('content', 'give content (one variant) or variants, not both');
  const variants = input.variants ?? (input.content !== undefined ? [{ key: 'a', weight: 100, content: input.content }] : undefined);
  if (variants) {
    // The product paths the content links to, read first: the declared paths as deep as those are
    // all the check needs (none for content without one).
    const productLinks: string[] = [];
    for (const v of variants) readContent(kind, v.content, { link: (link) => void productLinks.push(link) }, '');
    // A survey's questions may write to attributes: of the type the app-mode defines them with.
    // With strict data on, only a defined attribute may be named (a submit defines none).
    const [attributes, strict] =
      kind === 'survey'
        ? await Promise.all([
            vocabularyOf(ctx, appModeId).then((v) => v.attributes),
            ctx.db.appMode.findUnique({ where: { id: appModeId }, select: { strictData: true } }).then((m) => m?.strictData ?? false),
          ])
        : [undefined, false];
    const rules = {
      link: declaredLinkRule(await declaredPaths(ctx, appModeId, productLinks)),
      attributeType: (name: string) => attributes?.get(name) ?? (strict ? 'undefined_strict' : undefined),
    };
    if (!variants.length || variants.length > MAX_VARIANTS) fail('variants', `must hold 1 to ${MAX_VARIANTS} variants`);
    const keys = new Set<string>();
    data.variants = variants.map((v, i) => {
      const at = input.variants ? `variants.${i}` : '';
      const field = (member: string) => (at ? `${at}.${member}` : member);
      if (!VARIANT_KEY.test(v.key) || v.key === CONTROL)
        fail(field('key'), `must be 1 to 20 lower-case letters, digits, _ and -, and not ${CONTROL}`);
      else if (keys.has(v.key)) fail(field('key'), `repeats the variant ${v.key}`);
      keys.add(v.key);
      if (!Number.isInteger(v.weight) || v.weight < 1 || v.weight > MAX_WEIGHT)
        fail(field('weight'), `must be a whole number from 1 to ${MAX_WEIGHT}`);
      const read = readContent(kind, v.content, rules, field('content'));
      if ('errors' in read) errors.push(...read.errors);
      return { key: v.key, weight: v.weight, content: ('content' in read ? read.content : {}) as Prisma.JsonObject };
    }) as Variant[] as unknown as Prisma.InputJsonValue;
  }
  if (input.controlWeight !== undefined) {
    if (!Number.isInteger(input.controlWeight) || input.controlWeight < 0 || input.controlWeight > MAX_WEIGHT)
      fail('controlWeight', `must be a whole number from 0 to ${MAX_WEIGHT}`);
    data.controlWeight = input.controlWeight;
  }
  const needsVocabulary = input.audience !== undefined || (input.goal !== undefined && input.goal !== null);
  const vocabulary = needsVocabulary ? await vocabularyOf(ctx, appModeId, input.audience) : undefined;
  if (input.audience !== undefined) {
    try {
      data.audience = json(readAudience(input.audience, vocabulary!));
    } catch (err) {
      errors.push(...((err as { errors?: FieldError[] }).errors ?? []));
    }
  }
  if (input.workflowOnly !== undefined) data.workflowOnly = input.workflowOnly;
  if (input.screens !== undefined) {
    const screens = [...new Set(input.screens.map((s) => s.trim()))];
    if (screens.length > MAX_SCREEN_NAMES || screens.some((s) => !s || s.length > 100))
      fail('screens', `must name at most ${MAX_SCREEN_NAMES} screens, each 1 to 100 characters`);
    data.screens = screens;
  }
  if (input.topic !== undefined) {
    if (input.topic !== null) {
      const topic = await ctx.db.preferenceTopic.findUnique({ where: { appModeId_key: { appModeId, key: input.topic } } });
      if (!topic || topic.archivedAt || !topic.channels.includes('in_app'))
        fail('topic', 'must be the key of a topic in use that goes by in_app');
    }
    data.topicKey = input.topic;
  }
  if (input.show !== undefined) data.show = input.show;
  if (input.startAt !== undefined) data.startAt = input.startAt;
  if (input.stopAt !== undefined) data.stopAt = input.stopAt;
  const startAt = input.startAt !== undefined ? input.startAt : (current?.startAt ?? null);
  const stopAt = input.stopAt !== undefined ? input.stopAt : (current?.stopAt ?? null);
  if (startAt && stopAt && stopAt.getTime() <= startAt.getTime()) fail('stopAt', 'must be after startAt');
  if (input.sendingWindow !== undefined) {
    const w = input.sendingWindow;
    if (w) for (const p of windowProblems(w)) fail(`sendingWindow.${p.member}`, p.message);
    data.sendingWindow = json(w ? windowOf(w) : null);
  }
  if (input.quietHours !== undefined) {
    const q = input.quietHours;
    if (q && !isClock(q.from)) fail('quietHours.from', 'must be a time of day, HH:MM');
    if (q && !isClock(q.to)) fail('quietHours.to', 'must be a time of day, HH:MM');
    data.quietHours = json(q ? { from: q.from, to: q.to } : null);
  }
  if (input.goal !== undefined) {
    const g = input.goal;
    data.goal = Prisma.DbNull;
    data.goalEvent = null;
    data.goalDays = null;
    if (g) {
      if (!Number.isInteger(g.days) || g.days < 1 || g.days > MAX_GOAL_DAYS)
        fail('goal.days', `must be a whole number of days from 1 to ${MAX_GOAL_DAYS}`);
      const hasEvent = g.event !== undefined && g.event !== null;
      const hasAttribute = g.attribute !== undefined && g.attribute !== null;
      if (hasEvent === hasAttribute) fail('goal', 'must name an event or an attribute condition');
      else if (hasEvent) {
        if (!vocabulary!.events.has(g.event!)) fail('goal.event', 'names no event of this app');
        data.goal = { event: g.event!, days: g.days };
        data.goalEvent = g.event!;
        data.goalDays = g.days;
      } else {
        try {
          data.goal = json({ attribute: readAttributeCondition(g.attribute, vocabulary!, 'goal.attribute'), days: g.days });
        } catch (err) {
          errors.push(...((err as { errors?: FieldError[] }).errors ?? []));
        }
      }
    }
  }
  if (errors.length) throw invalid(errors.slice(0, 50));
  return data;
}
