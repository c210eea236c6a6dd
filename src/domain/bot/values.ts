import { textProblem } from '../../lib/text.js';
import { DomainError } from '../errors.js';

// What a bot question collects: an email address, a number or a few words. A value the step
// cannot take is 422 naming `value`, so the person can say it again.

export const VALUE_KINDS = ['email', 'number', 'text'] as const;
export type ValueKind = (typeof VALUE_KINDS)[number];

export const MAX_VALUE = 1_000;
const MAX_EMAIL = 254;
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const NUMBER = /^[+-]?\d{1,15}([.,]\d{1,6})?$/;

const RULE: Record<ValueKind, string> = {
  email: 'must be an email address, such as name@example.com',
  number: 'must be a number, such as 42 or 3.5',
  text: `must be 1 to ${MAX_VALUE} characters`,
};

export const valueRefused = (kind: ValueKind) =>
  new DomainError(422, 'value_invalid', 'The bot cannot take this value', `value: ${RULE[kind]}`, [
    { field: 'value', message: RULE[kind] },
  ]);

/** The value as it is collected (trimmed), or the 422 refusal naming `value`. */
export function checkValue(kind: ValueKind, raw: string): string {
  const value = raw.trim();
  const fits =
    !textProblem(value) &&
    (kind === 'email'
      ? value.length <= MAX_EMAIL && EMAIL.test(value)
      : kind === 'number'
        ? NUMBER.test(value)
        : value.length >= 1 && value.length <= MAX_VALUE);
  if (!fits) throw valueRefused(kind);
  return value;
}
