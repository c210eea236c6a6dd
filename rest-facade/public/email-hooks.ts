import { takeEmailEvent } from '../../src/domain/email-in/email-events.js';
import type { HookOwner } from '../../src/domain/email-in/hook-access.js';
import { receiveInboundEmail } from '../../src/domain/email-in/inbound.js';
import { defineRoute, type AnyRoute, type RouteContext } from '../http/route.js';
import { EmailEvent, EmailHookParams, InboundEmail, InboundOutcome } from './email-hooks.schemas.js';

// The inbound email hooks: a mail provider's converter posts bounces, complaints and deliveries,
// and the emails people write, signed with the inbound secret (X-CRM-Signature over the raw body,
// checked before the body is read: hookAccess). An app's own routes use its app-mode's secret; the
// two deployment-wide ones the deployment's, and the mail names its app. Not rate limited: a
// provider's burst of bounces is all taken.

const TAG = 'Inbound email hooks';
const ERRORS = [400, 401, 413, 503];
const ownerOf = (ctx: RouteContext<'public'>) => (ctx.state as unknown as { hookOwner: HookOwner }).hookOwner;

const eventRoute = (path: string, whose: string): AnyRoute =>
  defineRoute({
    method: 'post',
    path,
    surface: 'public',
    hook: true,
    tag: TAG,
    summary: `A bounce, complaint or delivery of an email, signed with ${whose}: taken once by its id; a hard bounce or a complaint suppresses the address; \`email.bounced\` told`,
    ...(path.includes('{key}') ? { params: EmailHookParams } : {}),
    body: EmailEvent,
    responses: { 202: { description: 'Taken (or a repeat of one taken, or about no email of this service: passed over)' } },
    errors: ERRORS,
    async handle(ctx, { body }) {
      await takeEmailEvent(ctx.state.context, ownerOf(ctx), { ...body, occurred_at: new Date(body.occurred_at) });
      // Nothing to say: an empty body (Koa would write the status's words).
      return { status: 202, body: '' };
    },
  });

const inboundRoute = (path: string, whose: string): AnyRoute =>
  defineRoute({
    method: 'post',
    path,
    surface: 'public',
    hook: true,
    tag: TAG,
    summary: `An email a person wrote, signed with ${whose}: threaded into their conversation with the quoted earlier email removed, or dropped with a reason; the same id threaded once`,
    ...(path.includes('{key}') ? { params: EmailHookParams } : {}),
    body: InboundEmail,
    responses: { 202: { description: 'What became of it', schema: InboundOutcome } },
    errors: ERRORS,
    async handle(ctx, { body }) {
      const outcome = await receiveInboundEmail(ctx.state.context, ownerOf(ctx), { ...body, received_at: new Date(body.received_at) });
      return { status: 202, body: outcome };
    },
  });

export const emailHookRoutes: AnyRoute[] = [
  eventRoute('/public/v1/apps/{key}/email-events', "the app-mode's inbound secret"),
  inboundRoute('/public/v1/apps/{key}/inbound-email', "the app-mode's inbound secret"),
  eventRoute('/public/v1/email-events', "the deployment's inbound secret (CRM_INBOUND_SECRET)"),
  inboundRoute('/public/v1/inbound-email', "the deployment's inbound secret; the reply or inbox address names the app"),
];
