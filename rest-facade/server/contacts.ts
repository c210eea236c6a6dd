import { z } from 'zod';
import { requestErase } from '../../src/domain/contacts/erasure.js';
import { exportContact } from '../../src/domain/contacts/export.js';
import { identify } from '../../src/domain/contacts/identify.js';
import { bcp47, clearable, externalIdParam, ianaZone, rfc3339 } from '../http/fields.js';
import { defineRoute } from '../http/route.js';
import type { RouteDeps } from '../routes.js';

const ConsentObject = z
  .object({ offers_by_email: z.boolean().optional(), offers_by_push: z.boolean().optional(), changed_at: rfc3339.optional() })
  .meta({ id: 'ConsentObject' });

export const Identify = z
  .object({
    display_name: clearable(z.string().max(100, 'must be at most 100 characters')),
    email: clearable(z.string().max(254).regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/, 'must be an email address')),
    signed_up_at: clearable(rfc3339),
    language: clearable(bcp47),
    time_zone: clearable(ianaZone),
    provider: clearable(z.string().regex(/^[A-Za-z0-9_.-]{1,40}$/, 'must be apple, google, password or another word of at most 40 characters')),
    consent: ConsentObject.optional(),
    attributes: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'Identify' });

const IdentifyAnswer = z.object({ external_id: z.string(), created: z.boolean() }).meta({ id: 'IdentifyAnswer' });
const params = z.object({ external_id: externalIdParam });
const EraseAccepted = z
  .object({ external_id: z.string(), state: z.enum(['queued', 'running', 'done']), requested_at: z.string(), blocked_until: z.string() })
  .meta({ id: 'EraseAccepted' });

export const putContact = ({ svc }: RouteDeps) =>
  defineRoute({
    method: 'put',
    path: '/server/v1/contacts/{external_id}',
    surface: 'server',
    tag: 'Contacts',
    summary: 'Identify: make or change a contact; only sent fields change',
    params,
    body: Identify,
    responses: { 200: { description: 'The contact, and whether this call made it', schema: IdentifyAnswer } },
    errors: [400, 401, 409, 429],
    async handle(ctx, { params, body }) {
      const { created } = await identify(svc, ctx.state.caller, params.external_id, {
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

export const deleteContact = ({ svc }: RouteDeps) =>
  defineRoute({
    method: 'delete',
    path: '/server/v1/contacts/{external_id}',
    surface: 'server',
    tag: 'Contacts',
    summary: 'Erase a person from the app, in both modes; queued, done within minutes',
    params,
    responses: { 202: { description: 'Queued (or already queued or done: asking twice is safe)', schema: EraseAccepted } },
    errors: [400, 401, 429],
    async handle(ctx, { params }) {
      const { request } = await requestErase(svc, ctx.state.caller, params.external_id);
      return {
        status: 202,
        body: { external_id: params.external_id, state: request.state, requested_at: request.requestedAt.toISOString(), blocked_until: request.blockedUntil.toISOString() },
      };
    },
  });

export const getContactExport = ({ svc }: RouteDeps) =>
  defineRoute({
    method: 'get',
    path: '/server/v1/contacts/{external_id}/export',
    surface: 'server',
    tag: 'Contacts',
    summary: 'Everything kept about a person in this mode',
    params,
    responses: { 200: { description: 'ExportContact', schema: z.record(z.string(), z.unknown()).meta({ id: 'ExportContact' }) } },
    errors: [400, 401, 404, 429],
    async handle(ctx, { params }) {
      return { status: 200, body: await exportContact(svc, ctx.state.caller, params.external_id) };
    },
  });
