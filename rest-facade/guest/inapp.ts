import { z } from 'zod';
import { MAX_DECLARED_LINKS, MAX_DIGEST, reportAppLinks } from '../../src/domain/inapp/links.js';
import { requireInApp } from '../../src/domain/inapp/switch.js';
import { defineRoute } from '../http/route.js';

// In-app messages, the app's side: check-in (the messages to show now), the links the app
// declares, a message opened by a link, and receipts. Every route is 404 while the app-mode's
// in-app messages are switched off.

const TAG = 'In-app messages';

const DeclaredLink = z
  .object({
    name: z.string().min(1).max(200).describe('For staff'),
    path: z.string().min(1).max(500).describe('A template such as /offers/{offer_id}: a product path in a message must match one'),
    web_url: z.string().max(2000).optional().describe('The page on the web, https'),
    screen: z.string().max(100).optional().describe('The screen it opens'),
  })
  .meta({ id: 'DeclaredLink' });

export const AppLinksReport = z
  .object({
    app_version: z.string().min(1).max(100),
    digest: z.string().min(1).max(MAX_DIGEST).describe('The digest of `links`, as the app computes it: a check-in names it in `links_digest`'),
    links: z.array(DeclaredLink).max(MAX_DECLARED_LINKS).describe(`At most ${MAX_DECLARED_LINKS}`),
  })
  .meta({ id: 'AppLinksReport' });

export const putAppLinks = defineRoute({
  method: 'put',
  path: '/guest/v1/app-links',
  surface: 'guest',
  tag: TAG,
  summary: 'The destinations an app version declares, with their digest',
  body: AppLinksReport,
  responses: { 204: { description: 'Kept' } },
  errors: [400, 401, 403, 404, 429],
  async handle(ctx, { body }) {
    requireInApp(ctx.state.context);
    await reportAppLinks(ctx.state.context, { appVersion: body.app_version, digest: body.digest, links: body.links });
    return { status: 204 };
  },
});

export const inAppRoutes = [putAppLinks];
