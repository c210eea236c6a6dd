import { z } from 'zod';

// The query of a guest list read page by page, newest first: the spec's `before` and `limit`.

/** `before` (the previous page's `next_before`) and `limit` (1 to `max`, `fallback` when left out), naming what a page holds. */
export const pageQuery = (items: string, max: number, fallback: number) =>
  z.object({
    before: z.string().max(500).optional().describe("The previous page's `next_before`"),
    limit: z
      .string()
      .regex(/^[0-9]{1,9}$/, `must be a whole number from 1 to ${max}`)
      .transform(Number)
      .refine((n) => n >= 1 && n <= max, `must be a whole number from 1 to ${max}`)
      .optional()
      .describe(`${items} per page, 1 to ${max}; ${fallback} when left out`),
  });
