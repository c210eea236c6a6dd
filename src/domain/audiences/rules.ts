import { isDate, isTime } from '../contacts/attributes.js';
import type { Ctx } from '../context.js';
import { invalid, type FieldError } from '../errors.js';
import { BUILT_IN_EVENTS, isEventName } from '../events/names.js';
import type { AttributeType } from '../contacts/attributes.js';
import type { Survey } from '../surveys/model.js';
import { questionShapes, readSurveyCondition, surveyIdsIn, type SurveyCondition, type SurveyVocabulary } from './survey-rule.js';
import { FIELDS, OPS, type ValueType } from './vocabulary.js';

export { FIELDS, type SurveyCondition, type ValueType };

// The one audience model of every sender (in-app messages now; push and email next): who a message
// is for, as rules over a person's contact fields, typed attributes, events (did or did not do X,
// how often, within N days), a person's answers to a survey (survey-rule.ts), language, platform,
// app version and the screen the app is on, in AND
// (`all`) / OR (`any`) groups. Staff write it as JSON; it is read here (every problem named by its
// path, such as `audience.all.1.attribute`) against the app-mode's attribute and event definitions,
// and compiled once (compile.ts) into a predicate over a person's facts.

export type Rule = { all: Rule[] } | { any: Rule[] } | Condition;

export type Condition = FieldCondition | AttributeCondition | EventCondition | SurveyCondition;

export interface FieldCondition {
  field: ContactField;
  op: Op;
  value?: Value;
}

export interface AttributeCondition {
  attribute: string;
  op: Op;
  value?: Value;
  /** The attribute's type when the rule was read. */
  type: AttributeType;
}

export interface EventCondition {
  event: string;
  /** false: did not do it (within the window). */
  did: boolean;
  /** Only events of the last N days count; left out: ever. */
  withinDays?: number;
  /** How often (did: true only): the count compared; left out: at least once. */
  count?: { op: CountOp; value: number };
}

export type Value = string | number | boolean | string[];

export type Op = (typeof OPS)[ValueType][number];
export const COUNT_OPS = ['eq', 'gt', 'gte', 'lt', 'lte'] as const;
export type CountOp = (typeof COUNT_OPS)[number];

export type ContactField = keyof typeof FIELDS;

export const MAX_CONDITIONS = 100;
export const MAX_DEPTH = 5;
export const MAX_DAYS = 3650;
const PLATFORMS = ['ios', 'android', 'web'];
const VERSION = /^\d{1,9}(\.\d{1,9}){0,3}$/;

/** What a rule may name in one app-mode: its attributes with their types, its events, and the surveys the rule names. */
export interface Vocabulary {
  attributes: Map<string, AttributeType>;
  events: Set<string>;
  /** Of the app-mode's surveys, those the rule (as written) names, with their questions. */
  surveys: SurveyVocabulary;
}

/** The app-mode's attributes and events, and the surveys `rule` (as written) names, read once for a rule (or several). */
export async function vocabularyOf(ctx: Ctx, appModeId: string, rule?: unknown): Promise<Vocabulary> {
  const surveyIds = surveyIdsIn(rule);
  const [attributes, events, surveys] = await Promise.all([
    ctx.db.attributeDefinition.findMany({ where: { appModeId }, select: { name: true, type: true } }),
    ctx.db.eventDefinition.findMany({ where: { appModeId }, select: { name: true } }),
    surveyIds.length
      ? ctx.db.inAppMessage.findMany({ where: { appModeId, kind: 'survey', id: { in: surveyIds } }, select: { id: true, variants: true } })
      : [],
  ]);
  return {
    attributes: new Map(attributes.map((a) => [a.name, a.type])),
    events: new Set([...BUILT_IN_EVENTS, ...events.map((e) => e.name)]),
    surveys: new Map(
      surveys.map((s) => [s.id, questionShapes((s.variants as unknown as { content: Survey }[]).map((v) => v.content))] as const),
    ),
  };
}

/** An audience as written (null or undefined: everyone), read against the vocabulary; refused naming every bad member. */
export function readAudience(input: unknown, vocabulary: Vocabulary, path = 'audience'): Rule | null {
  if (input === null || input === undefined) return null;
  const errors: FieldError[] = [];
  let conditions = 0;
  const fail = (field: string, message: string) => void (errors.length < 50 && errors.push({ field, message }));
  const obj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

  const rule = (raw: unknown, at: string, depth: number): Rule | undefined => {
    if (!obj(raw)) return (fail(at, 'must be a group ({ all: [...] } or { any: [...] }) or a condition'), undefined);
    const group = 'all' in raw ? 'all' : 'any' in raw ? 'any' : undefined;
    if (group) {
      if (depth >= MAX_DEPTH) return (fail(at, `groups may nest at most ${MAX_DEPTH} deep`), undefined);
      const list = raw[group];
      if (!Array.isArray(list) || !list.length) return (fail(`${at}.${group}`, 'must be a non-empty array of rules'), undefined);
      const rules = list.map((r, i) => rule(r, `${at}.${group}.${i}`, depth + 1));
      return (group === 'all' ? { all: rules } : { any: rules }) as Rule;
    }
    if (++conditions > MAX_CONDITIONS) return (fail(at, `an audience holds at most ${MAX_CONDITIONS} conditions`), undefined);
    if ('event' in raw) return eventCondition(raw, at);
    if ('survey' in raw) return readSurveyCondition(raw, at, vocabulary.surveys, fail);
    if ('attribute' in raw) {
      const name = raw.attribute;
      const type = typeof name === 'string' ? vocabulary.attributes.get(name) : undefined;
      if (!type) return (fail(`${at}.attribute`, 'names no attribute of this app'), undefined);
      const compared = comparison(raw, at, type);
      return compared && { attribute: name as string, type, ...compared };
    }
    if ('field' in raw) {
      const field = raw.field as ContactField;
      if (typeof field !== 'string' || !(field in FIELDS))
        return (fail(`${at}.field`, `must be one of ${Object.keys(FIELDS).join(', ')}`), undefined);
      const compared = comparison(raw, at, FIELDS[field]);
      return compared && { field, ...compared };
    }
    return (fail(at, 'must have one of all, any, field, attribute, event or survey'), undefined);
  };

  const comparison = (raw: Record<string, unknown>, at: string, type: ValueType): { op: Op; value?: Value } | undefined => {
    const ops: readonly string[] = OPS[type];
    if (typeof raw.op !== 'string' || !ops.includes(raw.op))
      return (fail(`${at}.op`, `must be one of ${ops.join(', ')} for this ${type === 'version' ? 'version' : type}`), undefined);
    const op = raw.op as Op;
    if (op === 'exists' || op === 'not_exists') return { op };
    const value = raw.value;
    const bad = (message: string) => (fail(`${at}.value`, message), undefined);
    if (op === 'in' || op === 'not_in') {
      if (!Array.isArray(value) || !value.length || value.length > 100 || value.some((v) => typeof v !== 'string'))
        return bad('must be a list of 1 to 100 strings');
      if (type === 'platform' && value.some((v) => !PLATFORMS.includes(v))) return bad(`must list platforms among ${PLATFORMS.join(', ')}`);
      return { op, value: value as string[] };
    }
    if (op === 'within_last_days' || op === 'more_than_days_ago') {
      return Number.isInteger(value) && (value as number) >= 0 && (value as number) <= MAX_DAYS
        ? { op, value: value as number }
        : bad(`must be a whole number of days from 0 to ${MAX_DAYS}`);
    }
    if (op === 'before' || op === 'after')
      return typeof value === 'string' && (isDate(value) || isTime(value))
        ? { op, value }
        : bad('must be a date (YYYY-MM-DD) or an RFC 3339 time');
    switch (type) {
      case 'number':
        return typeof value === 'number' && Number.isFinite(value) ? { op, value } : bad('must be a number');
      case 'boolean':
        return typeof value === 'boolean' ? { op, value } : bad('must be true or false');
      case 'version':
        return typeof value === 'string' && VERSION.test(value) ? { op, value } : bad('must be a version such as 2.14 or 2.14.1');
      default:
        return typeof value === 'string' && value.length <= 1000 ? { op, value } : bad('must be a string of at most 1000 characters');
    }
  };

  const eventCondition = (raw: Record<string, unknown>, at: string): EventCondition | undefined => {
    const name = raw.event;
    if (typeof name !== 'string' || !isEventName(name) || !vocabulary.events.has(name))
      return (fail(`${at}.event`, 'names no event of this app'), undefined);
    const did = raw.did === undefined ? true : raw.did;
    if (typeof did !== 'boolean') return (fail(`${at}.did`, 'must be true or false'), undefined);
    const condition: EventCondition = { event: name, did };
    if (raw.withinDays !== undefined) {
      if (!Number.isInteger(raw.withinDays) || (raw.withinDays as number) < 1 || (raw.withinDays as number) > MAX_DAYS)
        return (fail(`${at}.withinDays`, `must be a whole number of days from 1 to ${MAX_DAYS}`), undefined);
      condition.withinDays = raw.withinDays as number;
    }
    if (raw.count !== undefined) {
      const c = raw.count;
      if (!did) return (fail(`${at}.count`, 'goes only with did: true'), undefined);
      if (!obj(c) || !(COUNT_OPS as readonly unknown[]).includes(c.op) || !Number.isInteger(c.value) || (c.value as number) < 0) {
        return (fail(`${at}.count`, `must be { op, value } with op one of ${COUNT_OPS.join(', ')} and a whole number value`), undefined);
      }
      condition.count = { op: c.op as CountOp, value: c.value as number };
    }
    return condition;
  };

  const read = rule(input, path, 0);
  if (errors.length || !read) throw invalid(errors.length ? errors : [{ field: path, message: 'cannot be read' }]);
  return read;
}

/** A single attribute condition (a message's goal), read like an audience's. */
export function readAttributeCondition(input: unknown, vocabulary: Vocabulary, path: string): AttributeCondition {
  const rule = readAudience(input, vocabulary, path);
  if (!rule || !('attribute' in rule))
    throw invalid([{ field: path, message: 'must be an attribute condition ({ attribute, op, value })' }]);
  return rule;
}
