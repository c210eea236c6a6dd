import { z } from 'zod';

// The person's consent to offers, on the wire.

export const ConsentAnswer = z
  .object({
    offers_by_email: z.boolean(),
    offers_by_push: z.boolean(),
    changed_at: z.iso
      .datetime({ offset: true })
      .nullable()
      .describe('The latest choice on either channel; null until the person has chosen'),
  })
  .meta({ id: 'Consent' });

export const ConsentBody = z.object({ offers_by_push: z.boolean() }).meta({ id: 'ConsentBody' });
