import { z } from 'zod';
import type { Consent } from '../../src/domain/contacts/consent.js';
import { getGuestConsent, putGuestConsent } from '../../src/domain/contacts/consent.js';
import { defineRoute } from '../http/route.js';

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

const present = (c: Consent) => ({
  offers_by_email: c.offersByEmail,
  offers_by_push: c.offersByPush,
  changed_at: c.changedAt?.toISOString() ?? null,
});

export const getConsent = defineRoute({
  method: 'get',
  path: '/guest/v1/consent',
  surface: 'guest',
  tag: 'Consent',
  summary: "The user's consent to offers by email and by push",
  responses: { 200: { description: 'Consent', schema: ConsentAnswer } },
  errors: [400, 401, 403, 429],
  async handle(ctx) {
    return { status: 200, body: present(await getGuestConsent(ctx.state.context)) };
  },
});

export const putConsent = defineRoute({
  method: 'put',
  path: '/guest/v1/consent',
  surface: 'guest',
  tag: 'Consent',
  summary: 'The user agrees, or no longer agrees, to offers by push',
  body: ConsentBody,
  responses: { 200: { description: 'Consent', schema: ConsentAnswer } },
  errors: [400, 401, 403, 429],
  async handle(ctx, { body }) {
    return { status: 200, body: present(await putGuestConsent(ctx.state.context, body.offers_by_push)) };
  },
});
