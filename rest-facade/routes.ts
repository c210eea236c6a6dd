import Router from '@koa/router';
import type Koa from 'koa';
import type { Services } from '../src/domain/context.js';
import { getConsent, putConsent } from './guest/consent.js';
import { guestAccess, publicAccess, serverAccess } from './http/access.js';
import { mount, type AnyRoute, type Surface } from './http/route.js';
import { getPublicApp } from './public/apps.js';
import { postGuestEvents } from './guest/events.js';
import { deleteContact, getContactExport, putContact } from './server/contacts.js';
import { putEventDefinitions } from './server/event-definitions.js';
import { postServerEvents } from './server/events.js';

export interface RouteDeps {
  svc: Services;
}

/** Every REST route of the service; the OpenAPI document is built from this list. */
export function allRoutes(deps: RouteDeps): AnyRoute[] {
  return [
    getConsent,
    putConsent,
    postGuestEvents,
    putContact,
    deleteContact,
    getContactExport,
    putEventDefinitions,
    postServerEvents,
    getPublicApp,
  ].map((make) => make(deps));
}

const appKeyOfPublic = (ctx: Koa.Context) =>
  (ctx.params.key as string | undefined) ?? (typeof ctx.query.app === 'string' ? ctx.query.app : undefined) ?? (ctx.get('X-CRM-App-Key') || undefined);

export function restRouter(deps: RouteDeps): Router {
  const router = new Router();
  const access: Record<Surface, Koa.Middleware[]> = {
    guest: [guestAccess(deps.svc)],
    server: [serverAccess(deps.svc)],
    public: [publicAccess(deps.svc, appKeyOfPublic)],
  };
  for (const route of allRoutes(deps)) mount(router, route, access[route.surface]);
  return router;
}
