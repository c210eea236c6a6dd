import { textProblem } from '../../lib/text.js';
import { DomainError, type FieldError } from '../errors.js';
import { LANGUAGE_TAG } from './languages.js';

// What staff may name things: slugs (the same in every language), titles, summaries, names.

export const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;
export const MAX_SLUG = 100;
export const MAX_TITLE = 200;
export const MAX_SUMMARY = 500;
export const MAX_NAME = 100;
export const MAX_DESCRIPTION = 500;

export const slugProblem = (slug: string): string | undefined =>
  slug.length > MAX_SLUG || !SLUG.test(slug)
    ? `must be 1 to ${MAX_SLUG} lower-case letters, digits and single hyphens (such as reset-password)`
    : undefined;

/** A problem with a piece of text staff wrote, or undefined. */
export function wordsProblem(text: string, max: number, required: boolean): string | undefined {
  if (required && !text.trim()) return 'must not be blank';
  return textProblem(text) ?? (text.length > max ? `must be at most ${max} characters` : undefined);
}

/** The language must be one of the app-mode's (its settings list them). */
export function languageProblem(language: string, languages: string[]): string | undefined {
  if (!LANGUAGE_TAG.test(language)) return 'must be a BCP 47 language tag';
  return languages.includes(language) ? undefined : `must be one of the app's languages (${languages.join(', ')})`;
}

export const slugTaken = (what: 'article' | 'collection', field = 'slug') =>
  new DomainError(409, 'slug_taken', 'Refused as things stand', `Another ${what} of this app already has this slug.`, [
    { field, message: `is taken by another ${what}` },
  ]);

/** Collects problems, each naming its field. */
export const problems = (checks: [string, string | undefined][]): FieldError[] =>
  checks.flatMap(([field, message]) => (message ? [{ field, message }] : []));
