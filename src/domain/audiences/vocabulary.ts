import type { AttributeType } from '../contacts/attributes.js';

// The words of the audience model (rules.ts reads rules with them): the value types conditions
// compare, the operators each takes, and the person's own fields. Nothing else is imported here:
// the staff console's audience editor offers the same words from this file.

/** The value types conditions compare, and the operators each takes. */
export type ValueType = AttributeType | 'language' | 'platform' | 'version';

export const OPS = {
  string: ['is', 'is_not', 'contains', 'not_contains', 'starts_with', 'ends_with', 'in', 'not_in', 'exists', 'not_exists'],
  number: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'exists', 'not_exists'],
  boolean: ['is', 'exists', 'not_exists'],
  date: ['before', 'after', 'within_last_days', 'more_than_days_ago', 'exists', 'not_exists'],
  time: ['before', 'after', 'within_last_days', 'more_than_days_ago', 'exists', 'not_exists'],
  list: ['contains', 'not_contains', 'exists', 'not_exists'],
  language: ['in', 'not_in', 'exists', 'not_exists'],
  platform: ['in', 'not_in'],
  version: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte'],
} as const satisfies Record<ValueType, readonly string[]>;

/** The contact's own fields and what the request says of the person's app, with their types. */
export const FIELDS = {
  external_id: 'string',
  email: 'string',
  display_name: 'string',
  provider: 'string',
  time_zone: 'string',
  signed_up_at: 'time',
  /** When the service first saw the person. */
  first_seen_at: 'time',
  tags: 'list',
  /** The contact's language, else the app's (Accept-Language); `fr` also holds `fr-CA`. */
  language: 'language',
  platform: 'platform',
  app_version: 'version',
  /** The named route on screen, as the check-in says it; missing when it does not, and outside check-ins. */
  screen: 'string',
} as const satisfies Record<string, ValueType>;
