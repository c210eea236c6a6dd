import { z } from 'zod';

export const EmailPreviewParams = z.object({
  token: z.string().min(1).max(1000).describe('The signed token of the address `emailPreview` gave'),
});
