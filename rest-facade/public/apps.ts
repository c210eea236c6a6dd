import { z } from 'zod';
import { publicAppDetails } from '../../src/domain/apps/public-details.js';
import { defineRoute } from '../http/route.js';
import type { RouteDeps } from '../routes.js';

export const PublicApp = z
  .object({
    key: z.string(),
    name: z.string(),
    mode: z.enum(['live', 'test']),
    brand: z.object({ name: z.string(), color: z.string(), logo_url: z.string().nullable() }),
    features: z.object({ messenger: z.boolean(), help_center: z.boolean(), in_app_messages: z.boolean() }),
    languages: z.array(z.string()),
    default_language: z.string(),
    link_base: z.string().nullable(),
    app_store_url: z.string().nullable(),
    play_store_url: z.string().nullable(),
  })
  .meta({ id: 'PublicApp' });

export const getPublicApp = ({ svc }: RouteDeps) =>
  defineRoute({
    method: 'get',
    path: '/public/v1/apps/{key}',
    surface: 'public',
    tag: 'Apps',
    summary: "An app's public details: brand, parts switched on, languages and mode",
    params: z.object({ key: z.string().min(1).max(100) }),
    responses: { 200: { description: 'The public app details', schema: PublicApp } },
    errors: [400, 404, 429],
    async handle(_ctx, { params }) {
      const app = await publicAppDetails(svc, params.key);
      const on = !app.switchedOff;
      return {
        status: 200,
        body: {
          key: app.appKey,
          name: app.appName,
          mode: app.mode,
          brand: { name: app.brandName, color: app.brandColor, logo_url: app.brandLogoUrl },
          features: { messenger: on && app.messengerOn, help_center: on && app.helpOn, in_app_messages: on && app.inappOn },
          languages: app.languages,
          default_language: app.defaultLanguage,
          link_base: app.linkBase,
          app_store_url: app.appStoreUrl,
          play_store_url: app.playStoreUrl,
        } satisfies z.input<typeof PublicApp>,
      };
    },
  });
