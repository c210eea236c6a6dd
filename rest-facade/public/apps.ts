import { z } from 'zod';
import { publicAppDetails } from '../../src/domain/apps/public-details.js';
import { defineRoute } from '../http/route.js';

export const PublicApp = z
  .object({
    key: z.string(),
    name: z.string(),
    mode: z.enum(['live', 'test']),
    brand: z.object({ name: z.string(), color: z.string(), logoUrl: z.string().nullable() }),
    features: z.object({ messenger: z.boolean(), helpCenter: z.boolean(), inAppMessages: z.boolean() }),
    languages: z.array(z.string()),
    defaultLanguage: z.string(),
    linkBase: z.string().nullable(),
    appStoreUrl: z.string().nullable(),
    playStoreUrl: z.string().nullable(),
  })
  .describe(
    "The spec gives the link page's members exactly (linkBase, appStoreUrl, playStoreUrl); the whole object follows their spelling.",
  )
  .meta({ id: 'PublicApp' });

export const getPublicApp = defineRoute({
  method: 'get',
  path: '/public/v1/apps/{key}',
  surface: 'public',
  tag: 'Apps',
  summary: "An app's public details: brand, parts switched on, languages and mode",
  params: z.object({ key: z.string().min(1).max(100) }),
  responses: {
    200: { description: 'The public app details; a switched-off app shows every part off', schema: PublicApp },
    400: { description: 'The key is not percent-encoded UTF-8, or longer than 100 characters' },
    404: { description: 'No app has this key, or its app is archived' },
  },
  errors: [400, 404, 429],
  async handle(ctx, { params }) {
    const app = await publicAppDetails(ctx.state.context, params.key);
    const on = !app.switchedOff;
    return {
      status: 200,
      body: {
        key: app.appKey,
        name: app.appName,
        mode: app.mode,
        brand: { name: app.brandName, color: app.brandColor, logoUrl: app.brandLogoUrl },
        features: { messenger: on && app.messengerOn, helpCenter: on && app.helpOn, inAppMessages: on && app.inappOn },
        languages: app.languages,
        defaultLanguage: app.defaultLanguage,
        linkBase: app.linkBase,
        appStoreUrl: app.appStoreUrl,
        playStoreUrl: app.playStoreUrl,
      } satisfies z.input<typeof PublicApp>,
    };
  },
});
