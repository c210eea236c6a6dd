import Router from '@koa/router';
import type Koa from 'koa';
import { contextOf, type Services } from '../src/domain/context.js';
import { answeredOf } from '../src/http/answered.js';
import { postAttachment } from './guest/attachments.js';
import { postGuestBotReply } from './guest/bot.js';
import { getMessengerHome } from './guest/messenger.js';
import { getConsent, putConsent } from './guest/consent.js';
import { deviceRoutes } from './guest/devices.js';
import { guestHelpRoutes } from './guest/help.js';
import { inAppRoutes } from './guest/inapp.js';
import { surveyRoutes } from './guest/surveys.js';
import { noticeRoutes } from './guest/notices.js';
import { preferenceRoutes } from './guest/preferences.js';
import { conversationRoutes } from './guest/conversations.js';
import { ticketRoutes } from './guest/tickets.js';
import { guestAccess, hookAccess, publicAccess, serverAccess } from './http/access.js';
import { mount, type AnyRoute, type Surface } from './http/route.js';
import { getPublicApp } from './public/apps.js';
import { getContactExportDownload } from './public/contact-exports.js';
import { getSurveyExportDownload } from './public/survey-exports.js';
import { emailHookRoutes } from './public/email-hooks.js';
import { getEmailPreviewPage } from './public/email-previews.js';
import { emailLinkRoutes } from './public/email-links.js';
import { publicHelpRoutes } from './public/help.js';
import { postSignup } from './public/signup.js';
import { postGuestEvents } from './guest/events.js';
import { deleteContact, getContactExport, putContact } from './server/contacts.js';
import { putEventDefinitions } from './server/event-definitions.js';
import { postServerEvents } from './server/events.js';

export interface RouteDeps {
  svc: Services;
}

/** Every REST route of the service; the OpenAPI document is built from this list. */
export function allRoutes(): AnyRoute[] {
  return [
    getConsent,
    putConsent,
    postGuestEvents,
    getMessengerHome,
    ...conversationRoutes,
    postGuestBotReply,
    ...ticketRoutes,
    postAttachment,
    ...guestHelpRoutes,
    ...preferenceRoutes,
    ...deviceRoutes,
    ...noticeRoutes,
    ...inAppRoutes,
    ...surveyRoutes,
    putContact,
    deleteContact,
    getContactExport,
    putEventDefinitions,
    postServerEvents,
    getPublicApp,
    getContactExportDownload,
    getSurveyExportDownload,
    getEmailPreviewPage,
    ...publicHelpRoutes,
    ...emailLinkRoutes,
    ...emailHookRoutes,
    postSignup,
  ];
}

const appKeyOfPublic = (ctx: Koa.Context) =>
  (ctx.params.key as string | undefined) ??
  (typeof ctx.query.app === 'string' ? ctx.query.app : undefined) ??
  (ctx.get('X-CRM-App-Key') || undefined);

/** The request's context (SurfaceState), for the caller the access chain admitted: on the public surface, a visitor. */
const requestContext =
  (svc: Services): Koa.Middleware =>
  (ctx, next) => {
    ctx.state.context = contextOf(svc, ctx.state.caller ?? { kind: 'visitor', address: ctx.ip }, answeredOf(ctx.res));
    return next();
  };

export function restRouter(deps: RouteDeps): Router {
  const router = new Router();
  const context = requestContext(deps.svc);
  const access: Record<Surface, Koa.Middleware[]> = {
    guest: [guestAccess(deps.svc), context],
    server: [serverAccess(deps.svc), context],
    public: [publicAccess(deps.svc, appKeyOfPublic), context],
  };
  // A guest route that answers 409 answers a person being erased so (guestAccess); one whose own statement checks them is left to it.
  const guest409 = [guestAccess(deps.svc, 409), context];
  const guestChecked = [guestAccess(deps.svc, 'checked by the route'), context];
  const softPublic = [publicAccess(deps.svc, appKeyOfPublic, { soft: true }), context];
  const hook = [hookAccess(deps.svc), context];
  const accessOf = (route: AnyRoute) =>
    route.surface !== 'guest'
      ? route.hook
        ? hook
        : route.softLimit
          ? softPublic
          : access[route.surface]
      : route.erasedChecked
        ? guestChecked
        : route.errors.includes(409)
          ? guest409
          : access.guest;
  for (const route of allRoutes()) mount(router, route, accessOf(route));
  return router;
}
