// Custom attribute values: what type a value has, and whether it fits a definition's type.

export type AttributeType = 'string' | 'number' | 'boolean' | 'date' | 'time' | 'list';
export type AttributeValue = string | number | boolean | string[];

/** Attributes the service computes itself; Identify may not set them. */
export const COMPUTED_ATTRIBUTES = new Set([
  'first_seen_at',
  'last_seen_at',
  'last_heard_from_at',
  'last_contacted_at',
  'session_count',
  'event_count',
  'conversation_count',
  'country',
  'city',
  'sdk_version',
  'platform',
]);

/** Names of the contact's own fields, sent outside `attributes`. */
export const STANDARD_FIELDS = new Set([
  'external_id',
  'display_name',
  'email',
  'signed_up_at',
  'language',
  'time_zone',
  'provider',
  'consent',
]);

export const MAX_ATTRIBUTE_NAME = 100;
export const MAX_STRING_VALUE = 1000;
export const MAX_LIST_ITEMS = 100;

const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

export const isDate = (v: string) => DATE.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`));
export const isTime = (v: string) => RFC3339.test(v) && !Number.isNaN(Date.parse(v));

/** The type a first value shows, or a sentence saying why it cannot be an attribute. */
export function typeOfValue(value: unknown): { type: AttributeType } | { problem: string } {
  if (typeof value === 'boolean') return { type: 'boolean' };
  if (typeof value === 'number') return Number.isFinite(value) ? { type: 'number' } : { problem: 'must be a finite number' };
  if (typeof value === 'string') {
    if (isDate(value)) return { type: 'date' };
    if (isTime(value)) return { type: 'time' };
    return { type: 'string' };
  }
  if (Array.isArray(value)) return { type: 'list' };
  return { problem: 'must be a string, a number, a boolean, a date (YYYY-MM-DD), an RFC 3339 time or a list of strings' };
}

/** The value as kept, or a sentence saying why it does not fit the type. */
export function holdToType(type: AttributeType, value: unknown): { value: AttributeValue } | { problem: string } {
  switch (type) {
    case 'string':
      if (typeof value !== 'string') return { problem: 'must be a string' };
      return value.length > MAX_STRING_VALUE ? { problem: `must be at most ${MAX_STRING_VALUE} characters` } : { value };
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? { value } : { problem: 'must be a number' };
    case 'boolean':
      return typeof value === 'boolean' ? { value } : { problem: 'must be true or false' };
    case 'date':
      return typeof value === 'string' && isDate(value) ? { value } : { problem: 'must be a date written YYYY-MM-DD' };
    case 'time':
      return typeof value === 'string' && isTime(value)
        ? { value: new Date(value).toISOString() }
        : { problem: 'must be an RFC 3339 time' };
    case 'list':
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) return { problem: 'must be a list of strings' };
      if (value.length > MAX_LIST_ITEMS) return { problem: `must have at most ${MAX_LIST_ITEMS} items` };
      return value.some((v) => v.length > MAX_STRING_VALUE)
        ? { problem: `items must be at most ${MAX_STRING_VALUE} characters` }
        : { value: value as string[] };
  }
}

/** Attribute names: letters, digits, `_`, `-` and `.`, starting with a letter. */
export const isAttributeName = (name: string) => /^[A-Za-z][A-Za-z0-9_.-]*$/.test(name) && name.length <= MAX_ATTRIBUTE_NAME;
