import { publicAppDetails } from '../../src/domain/apps/public-details.js';
import { defineRoute } from '../http/route.js';
import { presentPublicApp } from '../presenters/apps.js';
import { AppKeyParams, PublicApp } from './apps.schemas.js';

export const getPublicApp = defineRoute({
  method: 'get',
  path: '/public/v1/apps/{key}',
  surface: 'public',
  tag: 'Apps',
  summary: "An app's public details: brand, parts switched on, languages and mode",
  params: AppKeyParams,
  responses: {
    200: { description: 'The public app details; a switched-off app shows every part off', schema: PublicApp },
    400: { description: 'The key is not percent-encoded UTF-8, or longer than 100 characters' },
    404: { description: 'No app has this key, or its app is archived' },
  },
  errors: [400, 404, 429],
  async handle(ctx, { params }) {
    return { status: 200, body: presentPublicApp(await publicAppDetails(ctx.state.context, params.key)) };
  },
});
