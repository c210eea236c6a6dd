import { z } from 'zod';
import { textProblem } from '../../src/lib/text.js';

// Field rules shared by several routes.

export const externalIdParam = z
  .string()
  .min(1, 'must be 1 to 200 characters')
  .max(200, 'must be 1 to 200 characters')
  .superRefine((v, ctx) => {
    const problem = textProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const rfc3339 = z.iso.datetime({ offset: true, message: 'must be an RFC 3339 date-time' });

export const bcp47 = z
  .string()
  .refine((v) => {
    try {
      return Intl.getCanonicalLocales(v).length === 1;
    } catch {
      return false;
    }
  }, 'must be a BCP 47 language tag, such as en or pt-BR')
  .meta({ description: 'A BCP 47 language tag, such as en or pt-BR', pattern: '^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$' });

export const ianaZone = z
  .string()
  .refine((v) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: v });
      return v.includes('/') || v === 'UTC' || v === 'Etc/UTC';
    } catch {
      return false;
    }
  }, 'must be an IANA time zone name, such as Europe/Paris')
  .meta({ description: 'An IANA time zone name, such as Europe/Paris or UTC' });

/** A field that an empty value (or null) clears. */
export const clearable = <T extends z.ZodType>(schema: T) => z.union([z.literal('').transform(() => null), z.null(), schema]).optional();

export const stringMap = z.record(z.string(), z.string());
