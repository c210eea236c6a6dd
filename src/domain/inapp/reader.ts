import { textProblem } from '../../lib/text.js';
import type { FieldError } from '../errors.js';

// Reading what staff wrote (content, schedules, rules) member by member, each problem named by its
// path (`content.screens.3.buttons.0.screen`), so one refusal lists every bad field. Members the
// models do not know are dropped; enumerated words are kept as written (Versioning 3: a word the
// service does not know is drawn as the default, see known-words.ts).

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const WORD = /^[a-z][a-z0-9_]{0,39}$/;
const COLOUR = /^(#[0-9a-fA-F]{6}|[a-z][a-z0-9_-]{0,39})$/;
/** Ids of screens, buttons and options: what branches and receipts name. */
const ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export class Reader {
  readonly errors: FieldError[] = [];

  fail(field: string, message: string): undefined {
    if (this.errors.length < 50) this.errors.push({ field, message });
    return undefined;
  }

  get ok(): boolean {
    return this.errors.length === 0;
  }

  object(value: unknown, path: string): Record<string, unknown> | undefined {
    return isObject(value) ? value : this.fail(path, 'must be an object');
  }

  array(value: unknown, path: string, { min = 0, max }: { min?: number; max: number }): unknown[] | undefined {
    if (!Array.isArray(value)) return this.fail(path, 'must be an array');
    if (value.length < min || value.length > max)
      return this.fail(path, min ? `must hold ${min} to ${max} items` : `must hold at most ${max} items`);
    return value;
  }

  text(value: unknown, path: string, max: number, opts: { required?: boolean; blank?: boolean } = {}): string | undefined {
    if (value === undefined || value === null) return opts.required ? this.fail(path, 'is required') : undefined;
    if (typeof value !== 'string') return this.fail(path, 'must be a string');
    const problem =
      textProblem(value) ??
      (value.length > max ? `must be at most ${max} characters` : !opts.blank && !value.trim() ? 'must not be blank' : undefined);
    return problem ? this.fail(path, problem) : value;
  }

  bool(value: unknown, path: string): boolean | undefined {
    if (value === undefined || value === null) return undefined;
    return typeof value === 'boolean' ? value : this.fail(path, 'must be true or false');
  }

  int(value: unknown, path: string, min: number, max: number): number | undefined {
    if (value === undefined || value === null) return undefined;
    return Number.isInteger(value) && (value as number) >= min && (value as number) <= max
      ? (value as number)
      : this.fail(path, `must be a whole number from ${min} to ${max}`);
  }

  number(value: unknown, path: string, min: number, max: number): number | undefined {
    if (value === undefined || value === null) return undefined;
    return typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max
      ? value
      : this.fail(path, `must be a number from ${min} to ${max}`);
  }

  /** An enumerated word, kept as written when well formed (an unknown one is read as `unknown`). */
  word(value: unknown, path: string): string | undefined {
    if (value === undefined || value === null || value === '') return undefined;
    return typeof value === 'string' && WORD.test(value) ? value : this.fail(path, 'must be a word of lower-case letters, digits and _');
  }

  colour(value: unknown, path: string): string | undefined {
    if (value === undefined || value === null || value === '') return undefined;
    return typeof value === 'string' && COLOUR.test(value) ? value : this.fail(path, 'must be #rrggbb or a colour token word');
  }

  id(value: unknown, path: string): string | undefined {
    if (typeof value !== 'string' || !ID.test(value))
      return this.fail(path, 'must be an id of 1 to 64 letters, digits and _ . -, starting with a letter or digit');
    return value;
  }
}

/** An object with only the members that have a value. */
export const defined = <T extends Record<string, unknown>>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
