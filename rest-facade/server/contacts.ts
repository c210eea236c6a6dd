import { requestErase } from '../../src/domain/contacts/erasure.js';
import { exportContact } from '../../src/domain/contacts/export.js';
import { identify } from '../../src/domain/contacts/identify.js';
import { defineRoute } from '../http/route.js';
import { EXPORT_WRITTEN, exportAnswer, presentEraseRequest } from '../presenters/contacts.js';
import { ContactParams, EraseAccepted, ExportContact, Identify, IdentifyAnswer } from './contacts.schemas.js';

export const putContact = defineRoute({
  method: 'put',
  path: '/server/v1/contacts/{external_id}',
  surface: 'server',
  tag: 'Contacts',
  summary: 'Identify: make or change a contact; only sent fields change',
  params: ContactParams,
  body: Identify,
  responses: { 200: { description: 'The contact, and whether this call made it', schema: IdentifyAnswer } },
  errors: [400, 401, 409, 429],
  async handle(ctx, { params, body }) {
    const { created } = await identify(ctx.state.context, params.external_id, {
      displayName: body.display_name,
      email: body.email,
      signedUpAt: body.signed_up_at === undefined || body.signed_up_at === null ? body.signed_up_at : new Date(body.signed_up_at),
      language: body.language,
      timeZone: body.time_zone,
      provider: body.provider,
      consent: body.consent && {
        offersByEmail: body.consent.offers_by_email,
        offersByPush: body.consent.offers_by_push,
        changedAt: body.consent.changed_at ? new Date(body.consent.changed_at) : undefined,
      },
      attributes: body.attributes,
    });
    return { status: 200, body: { external_id: params.external_id, created } };
  },
});

export const deleteContact = defineRoute({
  method: 'delete',
  path: '/server/v1/contacts/{external_id}',
  surface: 'server',
  tag: 'Contacts',
  summary: 'Erase a person from the app, in both modes; queued, done within minutes',
  params: ContactParams,
  responses: { 202: { description: 'Queued (or already queued or done: asking twice is safe)', schema: EraseAccepted } },
  errors: [400, 401, 429],
  async handle(ctx, { params }) {
    const { request } = await requestErase(ctx.state.context, params.external_id);
    return { status: 202, body: presentEraseRequest(params.external_id, request) };
  },
});

export const getContactExport = defineRoute({
  method: 'get',
  path: '/server/v1/contacts/{external_id}/export',
  surface: 'server',
  tag: 'Contacts',
  summary: 'Everything kept about a person in this mode',
  params: ContactParams,
  responses: {
    200: {
      description: `ExportContact, complete however much is kept: ${EXPORT_WRITTEN}`,
      schema: ExportContact,
    },
  },
  errors: [400, 401, 404, 429],
  async handle(ctx, { params }) {
    return exportAnswer(ctx, await exportContact(ctx.state.context, params.external_id));
  },
});
