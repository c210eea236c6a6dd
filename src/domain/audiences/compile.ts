import type { Condition, EventCondition, Op, Rule, SurveyCondition, Value, ValueType } from './rules.js';
import { FIELDS } from './rules.js';
import { surveyNeedKey, surveyNeedOf, type SurveyNeed } from './survey-rule.js';

export type { SurveyNeed };

// An audience compiled once into a predicate over a person's facts, with what the facts must
// hold: the event counts it reads (by name and window), and the survey answers it looks for
// (survey-rule.ts: each found or not by SQL on survey_response, survey-answers.ts). A sender compiles the rules of all its
// live messages, reads each person's facts in one go, and tests each message's predicate in memory.

/** What is known of one person when a rule is tested. */
export interface PersonFacts {
  now: Date;
  externalId: string;
  contact: {
    email: string | null;
    displayName: string | null;
    provider: string | null;
    timeZone: string | null;
    signedUpAt: Date | null;
    createdAt: Date | null;
    tags: string[];
  };
  attributes: Record<string, unknown>;
  /** The contact's language, else the app's. */
  language: string | null;
  platform: string | null;
  appVersion: string | null;
  /** The named route on screen, when the check-in says it; missing (left out or null) for every other sender. */
  screen?: string | null;
  /** How many events of a name the person has, within the last N days or ever (null). */
  eventCount(name: string, withinDays: number | null): number;
  /** Whether the person has a response to the survey that meets the need (test copies' never do). */
  surveyMatch(need: SurveyNeed): boolean;
}

/** An event count a rule reads. */
export interface EventNeed {
  name: string;
  withinDays: number | null;
}

export interface CompiledAudience {
  test(person: PersonFacts): boolean;
  events: EventNeed[];
  /** The survey answers it looks for, each once. */
  surveys: SurveyNeed[];
}

export const EVERYONE: CompiledAudience = { test: () => true, events: [], surveys: [] };

interface Needs {
  events: EventNeed[];
  surveys: SurveyNeed[];
}

export function compileAudience(rule: Rule | null): CompiledAudience {
  if (!rule) return EVERYONE;
  const needs: Needs = { events: [], surveys: [] };
  const test = compile(rule, needs);
  return { test, ...needs };
}

type Test = (p: PersonFacts) => boolean;

function compile(rule: Rule, needs: Needs): Test {
  if ('all' in rule) {
    const parts = rule.all.map((r) => compile(r, needs));
    return (p) => parts.every((t) => t(p));
  }
  if ('any' in rule) {
    const parts = rule.any.map((r) => compile(r, needs));
    return (p) => parts.some((t) => t(p));
  }
  return condition(rule, needs);
}

function condition(c: Condition, needs: Needs): Test {
  if ('event' in c) return eventTest(c, needs.events);
  if ('survey' in c) return surveyTest(c, needs.surveys);
  if ('attribute' in c) {
    const compare = comparison(c.type, c.op, c.value);
    return (p) => compare(p.attributes[c.attribute] ?? null, p);
  }
  const compare = comparison(FIELDS[c.field], c.op, c.value);
  const read = FIELD_READERS[c.field];
  return (p) => compare(read(p), p);
}

const FIELD_READERS: Record<keyof typeof FIELDS, (p: PersonFacts) => unknown> = {
  external_id: (p) => p.externalId,
  email: (p) => p.contact.email,
  display_name: (p) => p.contact.displayName,
  provider: (p) => p.contact.provider,
  time_zone: (p) => p.contact.timeZone,
  signed_up_at: (p) => p.contact.signedUpAt,
  first_seen_at: (p) => p.contact.createdAt,
  tags: (p) => p.contact.tags,
  language: (p) => p.language,
  platform: (p) => p.platform,
  app_version: (p) => p.appVersion,
  screen: (p) => p.screen ?? null,
};

function eventTest(c: EventCondition, events: EventNeed[]): Test {
  const withinDays = c.withinDays ?? null;
  if (!events.some((e) => e.name === c.event && e.withinDays === withinDays)) events.push({ name: c.event, withinDays });
  const count = c.count;
  if (!c.did) return (p) => p.eventCount(c.event, withinDays) === 0;
  if (!count) return (p) => p.eventCount(c.event, withinDays) > 0;
  return (p) => compareNumbers(p.eventCount(c.event, withinDays), count.op, count.value);
}

function surveyTest(c: SurveyCondition, surveys: SurveyNeed[]): Test {
  const { need, negated } = surveyNeedOf(c);
  const key = surveyNeedKey(need);
  if (!surveys.some((n) => surveyNeedKey(n) === key)) surveys.push(need);
  return negated ? (p) => !p.surveyMatch(need) : (p) => p.surveyMatch(need);
}

const DAY = 86_400_000;

function compareNumbers(a: number, op: string, b: number): boolean {
  switch (op) {
    case 'eq':
      return a === b;
    case 'ne':
      return a !== b;
    case 'gt':
      return a > b;
    case 'gte':
      return a >= b;
    case 'lt':
      return a < b;
    default:
      return a <= b;
  }
}

/** Versions compared part by part as numbers (2.10 is above 2.9; 2.1 equals 2.1.0). */
function compareVersions(a: string, b: string): number {
  const x = a.split('.').map(Number);
  const y = b.split('.').map(Number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d) return Math.sign(d);
  }
  return 0;
}

const timeOf = (v: unknown): number | undefined => {
  if (v instanceof Date) return v.getTime();
  if (typeof v !== 'string') return undefined;
  const t = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : v);
  return Number.isNaN(t) ? undefined : t;
};

const present = (v: unknown) => v !== null && v !== undefined && v !== '' && !(Array.isArray(v) && !v.length);

/** A comparison of one value (a field's or an attribute's) by its type; a missing value fails every operator but not_exists and the negative ones. */
function comparison(type: ValueType, op: Op, value: Value | undefined): (v: unknown, p: PersonFacts) => boolean {
  if (op === 'exists') return (v) => present(v);
  if (op === 'not_exists') return (v) => !present(v);
  switch (type) {
    case 'number':
      return (v) => typeof v === 'number' && compareNumbers(v, op, value as number);
    case 'boolean':
      return (v) => v === value;
    case 'version':
      return (v) =>
        typeof v === 'string' &&
        /^\d+(\.\d+)*/.test(v) &&
        compareNumbers(compareVersions(v.match(/^\d+(\.\d+)*/)![0], value as string), op, 0);
    case 'date':
    case 'time': {
      if (op === 'before' || op === 'after') {
        const at = timeOf(value)!;
        return (v) => {
          const t = timeOf(v);
          return t !== undefined && (op === 'before' ? t < at : t > at);
        };
      }
      const days = value as number;
      return (v, p) => {
        const t = timeOf(v);
        if (t === undefined) return false;
        const age = p.now.getTime() - t;
        return op === 'within_last_days' ? age >= 0 && age <= days * DAY : age > days * DAY;
      };
    }
    case 'list':
      return op === 'contains' ? (v) => Array.isArray(v) && v.includes(value) : (v) => !Array.isArray(v) || !v.includes(value);
    case 'language': {
      const tags = (value as string[]).map((t) => t.toLowerCase());
      const holds = (v: unknown) => typeof v === 'string' && tags.some((t) => v.toLowerCase() === t || v.toLowerCase().startsWith(`${t}-`));
      return op === 'in' ? holds : (v) => !holds(v);
    }
    default:
      return stringComparison(op, value);
  }
}

function stringComparison(op: Op, value: Value | undefined): (v: unknown) => boolean {
  const s = (v: unknown): v is string => typeof v === 'string';
  switch (op) {
    case 'is':
      return (v) => v === value;
    case 'is_not':
      return (v) => v !== value;
    case 'contains':
      return (v) => s(v) && v.includes(value as string);
    case 'not_contains':
      return (v) => !s(v) || !v.includes(value as string);
    case 'starts_with':
      return (v) => s(v) && v.startsWith(value as string);
    case 'ends_with':
      return (v) => s(v) && v.endsWith(value as string);
    case 'in':
      return (v) => s(v) && (value as string[]).includes(v);
    default:
      return (v) => !s(v) || !(value as string[]).includes(v);
  }
}
