import { z } from 'zod';

// Content shapes the spec gives once and more than one area answers with.

/** The spec's Span: the words of a content block, with their formatting. */
export const Span = z
  .object({
    text: z.string(),
    bold: z.boolean().optional(),
    italic: z.boolean().optional(),
    underline: z.boolean().optional(),
    strike: z.boolean().optional(),
    highlight: z.boolean().optional(),
    link: z.string().optional().describe('An https address, or a path in the product'),
    color: z.string().optional(),
  })
  .meta({ id: 'Span' });
