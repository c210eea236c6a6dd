import { getGuestConsent, putGuestConsent } from '../../src/domain/contacts/consent.js';
import { defineRoute } from '../http/route.js';
import { presentConsent } from '../presenters/consent.js';
import { ConsentAnswer, ConsentBody } from './consent.schemas.js';

export const getConsent = defineRoute({
  method: 'get',
  path: '/guest/v1/consent',
  surface: 'guest',
  tag: 'Consent',
  summary: "The user's consent to offers by email and by push",
  responses: { 200: { description: 'Consent', schema: ConsentAnswer } },
  errors: [400, 401, 403, 429],
  // crm_guest_consent holds and checks the person against an erase (asked or done) and answers them that nothing is agreed.
  erasedChecked: true,
  async handle(ctx) {
    return { status: 200, body: presentConsent(await getGuestConsent(ctx.state.context)) };
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
  // crm_guest_consent holds and checks the person against an erase (asked or done) and answers them that nothing is agreed.
  erasedChecked: true,
  async handle(ctx, { body }) {
    return { status: 200, body: presentConsent(await putGuestConsent(ctx.state.context, body.offers_by_push)) };
  },
});
