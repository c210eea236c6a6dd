import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors.js';
import { compileAudience, type PersonFacts } from './compile.js';
import { readAudience, type Vocabulary } from './rules.js';

// Audiences as staff write them, read against the app-mode's attributes and events (every bad
// member refused by its path) and compiled into a predicate over a person's facts, without a
// server. compile.test.ts holds every operator; the audiences test shows the staff API keeps them.

const vocabulary: Vocabulary = {
  attributes: new Map([
    ['plan', 'string'],
    ['seats', 'number'],
    ['beta', 'boolean'],
    ['renews_on', 'date'],
    ['roles', 'list'],
  ]),
  events: new Set(['order_placed', 'app_opened']),
  surveys: new Map(),
};

const NOW = new Date('2030-06-15T12:00:00Z');
const DAY = 86_400_000;

function person(over: Partial<PersonFacts> & { events?: Record<string, number> } = {}): PersonFacts {
  const events = over.events ?? {};
  return {
    now: NOW,
    externalId: 'u1',
    contact: {
      email: 'ana@example.com',
      displayName: 'Ana',
      provider: 'google',
      timeZone: 'Europe/Paris',
      signedUpAt: new Date(NOW.getTime() - 40 * DAY),
      createdAt: new Date(NOW.getTime() - 100 * DAY),
      tags: ['vip'],
    },
    attributes: { plan: 'pro', seats: 12, beta: true, renews_on: '2030-07-01', roles: ['admin'] },
    language: 'fr-CA',
    platform: 'ios',
    appVersion: '2.10.1',
    eventCount: (name, withinDays) => events[`${name}/${withinDays ?? 'ever'}`] ?? 0,
    surveyMatch: () => false,
    ...over,
  };
}

const holds = (rule: unknown, p = person()) => compileAudience(readAudience(rule, vocabulary)).test(p);

function refusedFields(rule: unknown): string[] {
  try {
    readAudience(rule, vocabulary);
  } catch (err) {
    if (err instanceof DomainError) return err.errors.map((e) => e.field);
    throw err;
  }
  return [];
}

describe('rules', () => {
  it('compare contact fields, typed attributes, language, platform and app version', () => {
    expect(holds({ field: 'email', op: 'ends_with', value: '@example.com' })).toBe(true);
    expect(holds({ field: 'email', op: 'is', value: 'ANA@example.com' })).toBe(false);
    expect(holds({ attribute: 'plan', op: 'in', value: ['pro', 'team'] })).toBe(true);
    expect(holds({ attribute: 'seats', op: 'gte', value: 12 })).toBe(true);
    expect(holds({ attribute: 'seats', op: 'gt', value: 12 })).toBe(false);
    expect(holds({ attribute: 'beta', op: 'is', value: true })).toBe(true);
    expect(holds({ attribute: 'renews_on', op: 'before', value: '2030-08-01' })).toBe(true);
    expect(holds({ attribute: 'roles', op: 'contains', value: 'admin' })).toBe(true);
    expect(holds({ field: 'signed_up_at', op: 'within_last_days', value: 30 })).toBe(false);
    expect(holds({ field: 'signed_up_at', op: 'more_than_days_ago', value: 30 })).toBe(true);
    expect(holds({ field: 'tags', op: 'contains', value: 'vip' })).toBe(true);
    expect(holds({ field: 'language', op: 'in', value: ['fr'] })).toBe(true);
    expect(holds({ field: 'language', op: 'not_in', value: ['fr'] })).toBe(false);
    expect(holds({ field: 'platform', op: 'in', value: ['android', 'web'] })).toBe(false);
    // 2.10.1 is above 2.9, part by part.
    expect(holds({ field: 'app_version', op: 'gt', value: '2.9' })).toBe(true);
    expect(holds({ field: 'app_version', op: 'lt', value: '2.10.1' })).toBe(false);
    // A value the person does not have.
    expect(holds({ attribute: 'seats', op: 'exists' }, person({ attributes: {} }))).toBe(false);
    expect(holds({ attribute: 'plan', op: 'not_exists' }, person({ attributes: {} }))).toBe(true);
    expect(holds({ attribute: 'plan', op: 'is_not', value: 'pro' }, person({ attributes: {} }))).toBe(true);
  });

  it('read events: did or did not, how often, within N days', () => {
    const p = person({ events: { 'order_placed/ever': 5, 'order_placed/7': 2 } });
    expect(holds({ event: 'order_placed' }, p)).toBe(true);
    expect(holds({ event: 'order_placed', did: false, withinDays: 30 }, p)).toBe(true);
    expect(holds({ event: 'order_placed', withinDays: 7, count: { op: 'gte', value: 2 } }, p)).toBe(true);
    expect(holds({ event: 'order_placed', withinDays: 7, count: { op: 'gte', value: 3 } }, p)).toBe(false);
    expect(holds({ event: 'app_opened' }, p)).toBe(false);
    const compiled = compileAudience(
      readAudience(
        {
          any: [
            { event: 'order_placed', withinDays: 7 },
            {
              all: [
                { event: 'app_opened', did: false },
                { event: 'order_placed', withinDays: 7 },
              ],
            },
          ],
        },
        vocabulary,
      ),
    );
    // The counts the facts must hold, each once.
    expect(compiled.events).toEqual([
      { name: 'order_placed', withinDays: 7 },
      { name: 'app_opened', withinDays: null },
    ]);
  });

  it('group with all and any, nested', () => {
    const rule = {
      all: [
        { field: 'platform', op: 'in', value: ['ios'] },
        {
          any: [
            { attribute: 'plan', op: 'is', value: 'free' },
            { attribute: 'seats', op: 'lt', value: 20 },
          ],
        },
      ],
    };
    expect(holds(rule)).toBe(true);
    expect(holds(rule, person({ platform: 'web' }))).toBe(false);
    expect(holds(null)).toBe(true);
  });

  it('refuse what the app does not have or the type does not take, naming each path', () => {
    expect(
      refusedFields({
        all: [
          { attribute: 'nope', op: 'is', value: 'x' },
          { attribute: 'seats', op: 'contains', value: 'x' },
          { attribute: 'seats', op: 'gt', value: 'ten' },
        ],
      }),
    ).toEqual(['audience.all.0.attribute', 'audience.all.1.op', 'audience.all.2.value']);
    expect(
      refusedFields({
        any: [
          { event: 'never_declared' },
          { event: 'app_opened', did: false, count: { op: 'gte', value: 1 } },
          { field: 'platform', op: 'in', value: ['tv'] },
        ],
      }),
    ).toEqual(['audience.any.0.event', 'audience.any.1.count', 'audience.any.2.value']);
    expect(refusedFields({ all: [] })).toEqual(['audience.all']);
    expect(refusedFields({ field: 'shoe_size', op: 'is', value: '9' })).toEqual(['audience.field']);
    expect(refusedFields({ all: [{ all: [{ all: [{ all: [{ all: [{ all: [{ field: 'email', op: 'exists' }] }] }] }] }] }] })).toEqual([
      'audience.all.0.all.0.all.0.all.0.all.0',
    ]);
    expect(refusedFields({ any: Array.from({ length: 101 }, () => ({ field: 'email', op: 'exists' })) })).toEqual(['audience.any.100']);
  });
});
