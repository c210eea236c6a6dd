import { describe, expect, it } from 'vitest';
import { compileAudience, EVERYONE, type PersonFacts } from './compile.js';
import type { Condition, Rule } from './rules.js';

// An audience compiled into a predicate over one person's facts, without a server: every operator
// of every value type, what a missing value does, where each field is read from, event counts and
// the counts the facts must hold, and groups. Rules are written here as readAudience leaves them.

const NOW = new Date('2030-06-15T12:00:00Z');
const DAY = 86_400_000;

/** The facts of one person; events by `name/withinDays` (`/ever` for no window). */
function person(over: Partial<PersonFacts> & { events?: Record<string, number> } = {}): PersonFacts {
  const { events = {}, ...rest } = over;
  return {
    now: NOW,
    externalId: 'u-42',
    contact: {
      email: 'ana@example.com',
      displayName: 'Ana Lima',
      provider: 'google',
      timeZone: 'Europe/Paris',
      signedUpAt: new Date(NOW.getTime() - 40 * DAY),
      createdAt: new Date(NOW.getTime() - 100 * DAY),
      tags: ['vip', 'beta'],
    },
    attributes: {},
    language: 'fr-CA',
    platform: 'ios',
    appVersion: '2.10.1',
    eventCount: (name, withinDays) => events[`${name}/${withinDays ?? 'ever'}`] ?? 0,
    surveyMatch: () => false,
    ...rest,
  };
}

const holds = (rule: Rule | null, p = person()) => compileAudience(rule).test(p);
/** Whether an attribute condition holds for a person with this value of `a` (left out: missing). */
function attr(type: Extract<Condition, { attribute: string }>['type'], op: string, value?: unknown) {
  const rule = { attribute: 'a', type, op, ...(value === undefined ? {} : { value }) } as Rule;
  return (held?: unknown) => holds(rule, person({ attributes: held === undefined ? {} : { a: held } }));
}
/** Whether a field condition holds for the default person, or one with these facts. */
const field = (f: string, op: string, value?: unknown, p = person()) =>
  holds({ field: f, op, ...(value === undefined ? {} : { value }) } as Rule, p);

describe('no audience', () => {
  it('is everyone, reading no events', () => {
    expect(compileAudience(null)).toBe(EVERYONE);
    expect(EVERYONE.events).toEqual([]);
    expect(EVERYONE.surveys).toEqual([]);
    expect(EVERYONE.test(person())).toBe(true);
  });
});

describe('strings', () => {
  it('compare exactly, case and all', () => {
    expect(attr('string', 'is', 'pro')('pro')).toBe(true);
    expect(attr('string', 'is', 'pro')('Pro')).toBe(false);
    expect(attr('string', 'is_not', 'pro')('pro')).toBe(false);
    expect(attr('string', 'is_not', 'pro')('team')).toBe(true);
  });

  it('look for a part, a start and an end', () => {
    expect(attr('string', 'contains', 'ro')('pro')).toBe(true);
    expect(attr('string', 'contains', 'x')('pro')).toBe(false);
    expect(attr('string', 'not_contains', 'x')('pro')).toBe(true);
    expect(attr('string', 'not_contains', 'ro')('pro')).toBe(false);
    expect(attr('string', 'starts_with', 'pr')('pro')).toBe(true);
    expect(attr('string', 'starts_with', 'ro')('pro')).toBe(false);
    expect(attr('string', 'ends_with', 'ro')('pro')).toBe(true);
    expect(attr('string', 'ends_with', 'pr')('pro')).toBe(false);
  });

  it('are in a list, or not', () => {
    expect(attr('string', 'in', ['pro', 'team'])('team')).toBe(true);
    expect(attr('string', 'in', ['pro', 'team'])('free')).toBe(false);
    expect(attr('string', 'not_in', ['pro', 'team'])('free')).toBe(true);
    expect(attr('string', 'not_in', ['pro', 'team'])('pro')).toBe(false);
  });

  it('when missing or not a string fail every operator but the negative ones', () => {
    for (const missing of [undefined, null, 12]) {
      expect(attr('string', 'is', 'pro')(missing)).toBe(false);
      expect(attr('string', 'contains', 'p')(missing)).toBe(false);
      expect(attr('string', 'starts_with', 'p')(missing)).toBe(false);
      expect(attr('string', 'ends_with', 'p')(missing)).toBe(false);
      expect(attr('string', 'in', ['pro'])(missing)).toBe(false);
      expect(attr('string', 'is_not', 'pro')(missing)).toBe(true);
      expect(attr('string', 'not_contains', 'p')(missing)).toBe(true);
      expect(attr('string', 'not_in', ['pro'])(missing)).toBe(true);
    }
  });
});

describe('exists and not_exists', () => {
  it('call a value missing when it is absent, null, empty text or an empty list; 0 and false are there', () => {
    for (const type of ['string', 'number', 'boolean', 'date', 'time', 'list'] as const) {
      for (const absent of [undefined, null, '', []]) {
        expect(attr(type, 'exists')(absent), `${type} ${JSON.stringify(absent)}`).toBe(false);
        expect(attr(type, 'not_exists')(absent)).toBe(true);
      }
      for (const there of [0, false, 'x', ['x'], '2030-01-01']) {
        expect(attr(type, 'exists')(there), `${type} ${JSON.stringify(there)}`).toBe(true);
        expect(attr(type, 'not_exists')(there)).toBe(false);
      }
    }
  });
});

describe('numbers', () => {
  it('compare with each operator', () => {
    const cases: [string, number, boolean, boolean, boolean][] = [
      // op, value, for 11, for 12, for 13
      ['eq', 12, false, true, false],
      ['ne', 12, true, false, true],
      ['gt', 12, false, false, true],
      ['gte', 12, false, true, true],
      ['lt', 12, true, false, false],
      ['lte', 12, true, true, false],
    ];
    for (const [op, value, ...expected] of cases)
      expect(
        [11, 12, 13].map((n) => attr('number', op, value)(n)),
        op,
      ).toEqual(expected);
    expect(attr('number', 'gt', 0.5)(0.75)).toBe(true);
    expect(attr('number', 'lt', 0)(-1)).toBe(true);
  });

  it('take nothing but a number: text that reads as one fails even ne', () => {
    for (const op of ['eq', 'ne', 'gt', 'gte', 'lt', 'lte']) {
      expect(attr('number', op, 12)('12'), op).toBe(false);
      expect(attr('number', op, 12)(undefined), op).toBe(false);
    }
  });
});

describe('booleans', () => {
  it('are true or false, and nothing else is', () => {
    expect(attr('boolean', 'is', true)(true)).toBe(true);
    expect(attr('boolean', 'is', true)(false)).toBe(false);
    expect(attr('boolean', 'is', false)(false)).toBe(true);
    expect(attr('boolean', 'is', false)(undefined)).toBe(false);
    expect(attr('boolean', 'is', true)('true')).toBe(false);
    expect(attr('boolean', 'is', true)(1)).toBe(false);
  });
});

describe('dates and times', () => {
  it('are before or after a date (midnight UTC) or a time, strictly', () => {
    expect(attr('date', 'before', '2030-07-01')('2030-06-30')).toBe(true);
    expect(attr('date', 'before', '2030-07-01')('2030-07-01')).toBe(false);
    expect(attr('date', 'after', '2030-07-01')('2030-07-01')).toBe(false);
    expect(attr('date', 'after', '2030-07-01')('2030-07-02')).toBe(true);
    // A date is its midnight UTC; a time compares to it to the millisecond.
    expect(attr('time', 'after', '2030-07-01')('2030-07-01T00:00:00.001Z')).toBe(true);
    expect(attr('time', 'before', '2030-07-01T00:00:00Z')('2030-06-30T23:59:59Z')).toBe(true);
    expect(attr('time', 'before', '2030-07-01T02:00:00+02:00')('2030-06-30T23:59:59Z')).toBe(true);
    expect(attr('time', 'before', '2030-07-01T02:00:00+02:00')('2030-07-01T00:00:00Z')).toBe(false);
  });

  it('count days back from now: within the last N days up to N whole days, more than N days ago past them', () => {
    const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();
    expect(attr('time', 'within_last_days', 30)(ago(30 * DAY))).toBe(true);
    expect(attr('time', 'within_last_days', 30)(ago(30 * DAY + 1))).toBe(false);
    expect(attr('time', 'within_last_days', 30)(ago(0))).toBe(true);
    // Not yet: a time to come is not within the last days, nor long ago.
    expect(attr('time', 'within_last_days', 30)(ago(-1))).toBe(false);
    expect(attr('time', 'more_than_days_ago', 30)(ago(-DAY))).toBe(false);
    expect(attr('time', 'more_than_days_ago', 30)(ago(30 * DAY))).toBe(false);
    expect(attr('time', 'more_than_days_ago', 30)(ago(30 * DAY + 1))).toBe(true);
    // A date is its midnight UTC: today's is 12 hours ago, yesterday's 36.
    expect(attr('date', 'within_last_days', 1)('2030-06-15')).toBe(true);
    expect(attr('date', 'within_last_days', 0)('2030-06-15')).toBe(false);
    expect(attr('date', 'more_than_days_ago', 0)('2030-06-15')).toBe(true);
    expect(attr('date', 'within_last_days', 1)('2030-06-14')).toBe(false);
    expect(attr('date', 'more_than_days_ago', 1)('2030-06-14')).toBe(true);
  });

  it('read Date values (a contact’s own times) as well as text', () => {
    const signedUp = (op: string, value: unknown) => field('signed_up_at', op, value);
    expect(signedUp('within_last_days', 30)).toBe(false);
    expect(signedUp('within_last_days', 40)).toBe(true);
    expect(signedUp('more_than_days_ago', 30)).toBe(true);
    expect(signedUp('before', '2030-05-10')).toBe(true);
    expect(signedUp('after', '2030-05-10')).toBe(false);
  });

  it('fail every comparison when missing or not a date', () => {
    for (const bad of [undefined, 'soon', 'not-a-date', 20300701, true]) {
      expect(attr('date', 'before', '2030-07-01')(bad)).toBe(false);
      expect(attr('date', 'after', '2030-07-01')(bad)).toBe(false);
      expect(attr('time', 'within_last_days', 3650)(bad)).toBe(false);
      expect(attr('time', 'more_than_days_ago', 0)(bad)).toBe(false);
    }
  });
});

describe('lists', () => {
  it('contain an item, or not; a value that is not a list contains nothing', () => {
    expect(attr('list', 'contains', 'admin')(['admin', 'billing'])).toBe(true);
    expect(attr('list', 'contains', 'admin')(['billing'])).toBe(false);
    expect(attr('list', 'contains', 'admin')('admin')).toBe(false);
    expect(attr('list', 'contains', 'admin')(undefined)).toBe(false);
    expect(attr('list', 'not_contains', 'admin')(['billing'])).toBe(true);
    expect(attr('list', 'not_contains', 'admin')(['admin'])).toBe(false);
    expect(attr('list', 'not_contains', 'admin')('admin')).toBe(true);
    expect(attr('list', 'not_contains', 'admin')(undefined)).toBe(true);
  });
});

describe('languages', () => {
  const language = (op: string, tags: string[], lang: string | null) => field('language', op, tags, person({ language: lang }));

  it('hold a tag and its regional forms, whatever the case', () => {
    expect(language('in', ['fr'], 'fr')).toBe(true);
    expect(language('in', ['fr'], 'fr-CA')).toBe(true);
    expect(language('in', ['FR'], 'fr-ca')).toBe(true);
    expect(language('in', ['fr-CA'], 'FR-CA')).toBe(true);
    expect(language('in', ['de', 'fr'], 'fr-BE')).toBe(true);
  });

  it('do not hold a broader tag, another region, or a tag that only starts alike', () => {
    expect(language('in', ['fr-CA'], 'fr')).toBe(false);
    expect(language('in', ['fr-CA'], 'fr-BE')).toBe(false);
    expect(language('in', ['fr'], 'fra')).toBe(false);
    expect(language('in', ['pt'], 'pt_BR')).toBe(false);
    expect(language('in', ['fr'], null)).toBe(false);
  });

  it('not_in is the opposite, a person without a language included', () => {
    expect(language('not_in', ['fr'], 'fr-CA')).toBe(false);
    expect(language('not_in', ['fr'], 'en')).toBe(true);
    expect(language('not_in', ['fr'], null)).toBe(true);
  });
});

describe('platforms', () => {
  it('are one of the listed, or none of them', () => {
    expect(field('platform', 'in', ['ios', 'android'])).toBe(true);
    expect(field('platform', 'in', ['web'])).toBe(false);
    expect(field('platform', 'not_in', ['web'])).toBe(true);
    expect(field('platform', 'not_in', ['ios'])).toBe(false);
    expect(field('platform', 'in', ['ios'], person({ platform: null }))).toBe(false);
    expect(field('platform', 'not_in', ['ios'], person({ platform: null }))).toBe(true);
  });
});

describe('app versions', () => {
  const version = (op: string, value: string, appVersion: string | null) => field('app_version', op, value, person({ appVersion }));

  it('compare part by part as numbers: 2.10 is above 2.9', () => {
    expect(version('gt', '2.9', '2.10')).toBe(true);
    expect(version('lt', '2.9', '2.10')).toBe(false);
    expect(version('gt', '2.9.9', '2.10.0')).toBe(true);
    expect(version('lt', '10.0', '9.99.99')).toBe(true);
  });

  it('take missing parts as 0: 2.1 equals 2.1.0', () => {
    expect(version('eq', '2.1', '2.1.0')).toBe(true);
    expect(version('eq', '2.1.0.0', '2.1')).toBe(true);
    expect(version('ne', '2.1', '2.1.0')).toBe(false);
    expect(version('gt', '2.1', '2.1.0.1')).toBe(true);
  });

  it('compare with each operator', () => {
    const expected: Record<string, [boolean, boolean, boolean]> = {
      // for 2.9.9, 2.10.0 and 2.10.1 against 2.10
      eq: [false, true, false],
      ne: [true, false, true],
      gt: [false, false, true],
      gte: [false, true, true],
      lt: [true, false, false],
      lte: [true, true, false],
    };
    for (const [op, results] of Object.entries(expected))
      expect(
        ['2.9.9', '2.10.0', '2.10.1'].map((v) => version(op, '2.10', v)),
        op,
      ).toEqual(results);
  });

  it('read the numbers a version starts with, and fail every operator when it starts with none', () => {
    expect(version('eq', '2.10.1', '2.10.1-beta.3')).toBe(true);
    expect(version('eq', '3.0', '3.0 (build 77)')).toBe(true);
    for (const op of ['eq', 'ne', 'gt', 'gte', 'lt', 'lte']) {
      expect(version(op, '2.0', 'v2.0'), op).toBe(false);
      expect(version(op, '2.0', 'beta'), op).toBe(false);
      expect(version(op, '2.0', null), op).toBe(false);
    }
  });
});

describe('contact fields', () => {
  it('are each read from their own fact', () => {
    const p = person({ screen: 'checkout' });
    expect(field('external_id', 'is', 'u-42', p)).toBe(true);
    expect(field('email', 'is', 'ana@example.com', p)).toBe(true);
    expect(field('display_name', 'is', 'Ana Lima', p)).toBe(true);
    expect(field('provider', 'is', 'google', p)).toBe(true);
    expect(field('time_zone', 'is', 'Europe/Paris', p)).toBe(true);
    expect(field('tags', 'contains', 'beta', p)).toBe(true);
    expect(field('language', 'in', ['fr'], p)).toBe(true);
    expect(field('platform', 'in', ['ios'], p)).toBe(true);
    expect(field('app_version', 'eq', '2.10.1', p)).toBe(true);
    expect(field('screen', 'is', 'checkout', p)).toBe(true);
    // Signed up 40 days ago, first seen 100 days ago.
    expect(field('signed_up_at', 'within_last_days', 50, p)).toBe(true);
    expect(field('first_seen_at', 'within_last_days', 50, p)).toBe(false);
    expect(field('first_seen_at', 'more_than_days_ago', 99, p)).toBe(true);
    // Another person's facts do not hold.
    const other = person({
      externalId: 'u-7',
      contact: { email: null, displayName: null, provider: null, timeZone: null, signedUpAt: null, createdAt: null, tags: [] },
    });
    const mine = { external_id: 'u-42', email: 'ana@example.com', display_name: 'Ana Lima', provider: 'google', time_zone: 'Europe/Paris' };
    for (const [f, value] of Object.entries(mine)) expect(field(f, 'is', value, other), f).toBe(false);
    expect(field('signed_up_at', 'exists', undefined, other)).toBe(false);
    expect(field('first_seen_at', 'exists', undefined, other)).toBe(false);
    expect(field('tags', 'exists', undefined, other)).toBe(false);
  });

  it('take the screen as missing when the facts leave it out, as every sender but the check-in does', () => {
    expect(field('screen', 'exists', undefined, person())).toBe(false);
    expect(field('screen', 'not_exists', undefined, person({ screen: null }))).toBe(true);
    expect(field('screen', 'is_not', 'checkout', person())).toBe(true);
    expect(field('screen', 'exists', undefined, person({ screen: 'home' }))).toBe(true);
  });

  it('leave attributes apart: an attribute named like a field reads the attribute', () => {
    const p = person({ attributes: { email: 'other@example.com' } });
    expect(holds({ attribute: 'email', type: 'string', op: 'is', value: 'other@example.com' }, p)).toBe(true);
    expect(field('email', 'is', 'other@example.com', p)).toBe(false);
  });
});

describe('events', () => {
  const event = (rule: Partial<Extract<Condition, { event: string }>>, events: Record<string, number>) =>
    holds({ event: 'order_placed', did: true, ...rule } as Rule, person({ events }));

  it('did: at least once, in the window or ever', () => {
    expect(event({}, { 'order_placed/ever': 1 })).toBe(true);
    expect(event({}, {})).toBe(false);
    expect(event({ withinDays: 7 }, { 'order_placed/ever': 5 })).toBe(false);
    expect(event({ withinDays: 7 }, { 'order_placed/7': 1 })).toBe(true);
  });

  it('did not: never, or not in the window', () => {
    expect(event({ did: false }, {})).toBe(true);
    expect(event({ did: false }, { 'order_placed/ever': 1 })).toBe(false);
    expect(event({ did: false, withinDays: 30 }, { 'order_placed/ever': 3 })).toBe(true);
    expect(event({ did: false, withinDays: 30 }, { 'order_placed/30': 1 })).toBe(false);
  });

  it('how often: the count compared with each operator', () => {
    const counts = [1, 2, 3];
    const expected: Record<string, boolean[]> = {
      eq: [false, true, false],
      gt: [false, false, true],
      gte: [false, true, true],
      lt: [true, false, false],
      lte: [true, true, false],
    };
    for (const [op, results] of Object.entries(expected))
      expect(
        counts.map((n) => event({ withinDays: 7, count: { op: op as 'eq', value: 2 } }, { 'order_placed/7': n })),
        op,
      ).toEqual(results);
    // Zero times is a count like another.
    expect(event({ count: { op: 'eq', value: 0 } }, {})).toBe(true);
    expect(event({ count: { op: 'lt', value: 1 } }, { 'order_placed/ever': 1 })).toBe(false);
  });

  it('name each count the facts must hold once, by name and window, in the order first met', () => {
    const compiled = compileAudience({
      all: [
        { event: 'order_placed', did: true, withinDays: 7 },
        {
          any: [
            { event: 'app_opened', did: false },
            { event: 'order_placed', did: true, withinDays: 7, count: { op: 'gte', value: 2 } },
          ],
        },
        { event: 'order_placed', did: true },
        { event: 'order_placed', did: false, withinDays: 30 },
        { field: 'email', op: 'exists' },
        { event: 'app_opened', did: true },
      ],
    });
    expect(compiled.events).toEqual([
      { name: 'order_placed', withinDays: 7 },
      { name: 'app_opened', withinDays: null },
      { name: 'order_placed', withinDays: null },
      { name: 'order_placed', withinDays: 30 },
    ]);
    expect(compileAudience({ field: 'email', op: 'exists' }).events).toEqual([]);
  });

  it('ask the facts for the count of the named event in the named window only', () => {
    const asked: [string, number | null][] = [];
    const p = person({ eventCount: (name, withinDays) => (asked.push([name, withinDays]), 1) });
    expect(holds({ event: 'app_opened', did: true, withinDays: 14 }, p)).toBe(true);
    expect(holds({ event: 'signed_in', did: false }, p)).toBe(false);
    expect(asked).toEqual([
      ['app_opened', 14],
      ['signed_in', null],
    ]);
  });
});

describe('groups', () => {
  const yes: Rule = { field: 'platform', op: 'in', value: ['ios'] };
  const no: Rule = { field: 'platform', op: 'in', value: ['web'] };

  it('all: every rule holds', () => {
    expect(holds({ all: [yes] })).toBe(true);
    expect(holds({ all: [yes, yes, yes] })).toBe(true);
    expect(holds({ all: [yes, no] })).toBe(false);
    expect(holds({ all: [no, yes] })).toBe(false);
  });

  it('any: one rule holds', () => {
    expect(holds({ any: [no] })).toBe(false);
    expect(holds({ any: [no, no, yes] })).toBe(true);
    expect(holds({ any: [yes, no] })).toBe(true);
  });

  it('nest, each group deciding its own part', () => {
    const rule: Rule = {
      all: [
        { any: [no, { all: [yes, { attribute: 'plan', type: 'string', op: 'is', value: 'pro' }] }] },
        { any: [{ field: 'language', op: 'in', value: ['fr'] }, no] },
      ],
    };
    expect(holds(rule, person({ attributes: { plan: 'pro' } }))).toBe(true);
    expect(holds(rule, person({ attributes: { plan: 'free' } }))).toBe(false);
    expect(holds(rule, person({ attributes: { plan: 'pro' }, language: 'en' }))).toBe(false);
  });

  it('compile once and test many people, each on their own facts', () => {
    const audience = compileAudience({ all: [{ attribute: 'seats', type: 'number', op: 'gte', value: 10 }, yes] });
    const people = [5, 10, 50].map((seats) => person({ attributes: { seats } }));
    expect(people.map((p) => audience.test(p))).toEqual([false, true, true]);
    expect(audience.test(person({ attributes: { seats: 50 }, platform: 'android' }))).toBe(false);
  });
});
