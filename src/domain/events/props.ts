import { isTime } from '../contacts/attributes.js';

// Event props travel as strings; the definition's type says how each is read.

export type PropType = 'string' | 'number' | 'bool' | 'time' | 'money';
export const PROP_TYPES: PropType[] = ['string', 'number', 'bool', 'time', 'money'];
export interface PropDefinition {
  key: string;
  type: PropType;
}

/** Props one event may carry. */
export const MAX_PROPS = 50;
/** Props one event definition may hold, declared and made on first sight together: an event's shape stays readable. */
export const MAX_DEFINITION_PROPS = 200;
export const MAX_PROP_KEY = 100;
export const MAX_PROP_VALUE = 1000;

/** Why a prop an event carries cannot be kept, whatever its type. */
export function propProblem(key: string, value: string): string | undefined {
  if (!key || key.length > MAX_PROP_KEY) return `prop names are 1 to ${MAX_PROP_KEY} characters`;
  if (value.length > MAX_PROP_VALUE) return `prop ${key} must be at most ${MAX_PROP_VALUE} characters`;
  return undefined;
}

const NUMBER = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;
const WHOLE = /^-?(0|[1-9]\d*)$/;

/** The type guessed from a first value; money is never guessed (it is declared). */
export function guessPropType(value: string): PropType {
  if (value === 'true' || value === 'false') return 'bool';
  if (NUMBER.test(value)) return 'number';
  if (isTime(value)) return 'time';
  return 'string';
}

/** The value read by its type, or a sentence saying why it cannot be. */
export function readProp(type: PropType, value: string): { value: string | number | boolean } | { problem: string } {
  switch (type) {
    case 'string':
      return { value };
    case 'number':
      return NUMBER.test(value) && Number.isFinite(Number(value)) ? { value: Number(value) } : { problem: 'must be a number' };
    case 'bool':
      return value === 'true' || value === 'false' ? { value: value === 'true' } : { problem: 'must be true or false' };
    case 'time':
      return isTime(value) ? { value: new Date(value).toISOString() } : { problem: 'must be an RFC 3339 time' };
    case 'money':
      return WHOLE.test(value) && Number.isSafeInteger(Number(value))
        ? { value: Number(value) }
        : { problem: 'must be a whole number of the smallest currency unit' };
  }
}
