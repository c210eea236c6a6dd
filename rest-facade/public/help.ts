import { z } from 'zod';
import { readArticle } from '../../src/domain/help/article.js';
import { listCollections, readCollection } from '../../src/domain/help/collections.js';
import { pictureAddress } from '../../src/domain/help/pictures.js';
import { MAX_VISITOR, rateArticleAsVisitor } from '../../src/domain/help/ratings.js';
import { publicReader } from '../../src/domain/help/reader.js';
import { listArticles } from '../../src/domain/help/search.js';
import { textProblem } from '../../src/lib/text.js';
import { defineRoute, type RouteContext } from '../http/route.js';
import {
  ArticleAnswer,
  ArticlesAnswer,
  ArticlesQuery,
  CollectionArticlesAnswer,
  CollectionsAnswer,
  HelpLanguageQuery,
  presentArticle,
  presentArticles,
  presentCollection,
  presentCollections,
} from './help-answers.js';

// The public help center: the app key in X-CRM-App-Key or query `app`, no sign-in; only published
// articles meant for everyone. An unknown key, an archived or switched-off app and a help center
// switched off are all 404.

const App = z.string().max(100).optional().describe('The app key, where the X-CRM-App-Key header cannot be sent');
const Slug = z.object({ slug: z.string().min(1).max(100) });
const AppLang = z.object({ app: App, lang: HelpLanguageQuery.optional() });
const notHere = 'No app has this key, the help center is switched off, or there is no such article or collection (for everyone)';

const readerOf = (ctx: RouteContext<'public'>, query: { app?: string | undefined; lang?: string | undefined }) =>
  publicReader(ctx.state.context, ctx.get('X-CRM-App-Key') || query.app, {
    lang: query.lang,
    acceptLanguage: ctx.get('Accept-Language') || undefined,
  });
const base = (ctx: RouteContext<'public'>) => ctx.state.context.svc.config.baseUrl;

export const getPublicArticles = defineRoute({
  method: 'get',
  path: '/public/v1/help/articles',
  surface: 'public',
  tag: 'Help center',
  summary: 'Articles meant for everyone: with q the best matches first, else the most read in the reader’s language',
  query: ArticlesQuery.extend({ app: App }),
  responses: { 200: { description: 'Articles', schema: ArticlesAnswer }, 404: { description: notHere } },
  errors: [400, 404, 429],
  async handle(ctx, { query }) {
    const reader = await readerOf(ctx, query);
    return { status: 200, body: presentArticles(base(ctx), reader, await listArticles(ctx.state.context, reader, query)) };
  },
});

export const getPublicArticle = defineRoute({
  method: 'get',
  path: '/public/v1/help/articles/{slug}',
  surface: 'public',
  tag: 'Help center',
  summary: 'An article meant for everyone, in the reader’s language (else the default)',
  params: Slug,
  query: AppLang,
  responses: { 200: { description: 'Article', schema: ArticleAnswer }, 404: { description: notHere } },
  errors: [400, 404, 429],
  async handle(ctx, { params, query }) {
    const reader = await readerOf(ctx, query);
    return { status: 200, body: presentArticle(base(ctx), reader, await readArticle(ctx.state.context, reader, params.slug)) };
  },
});

const Visitor = z
  .string()
  .min(1)
  .max(MAX_VISITOR)
  .refine((v) => !textProblem(v), 'must be well-formed text')
  .describe("The reader's own id for the page (a random id the page keeps), never a user's");

export const postPublicArticleRating = defineRoute({
  method: 'post',
  path: '/public/v1/help/articles/{slug}/rating',
  surface: 'public',
  tag: 'Help center',
  summary:
    'A reader found the article helpful or not: one vote per visitor and language, changed by voting again, kept apart from users’ votes',
  params: Slug,
  query: z.object({ app: App }),
  body: z
    .object({
      helpful: z.boolean(),
      visitor: Visitor,
      language: HelpLanguageQuery.optional().describe("The language read in; the app's default when left out"),
    })
    .meta({ id: 'PublicRatingBody' }),
  responses: { 204: { description: 'Kept' }, 404: { description: notHere } },
  errors: [400, 404, 429],
  async handle(ctx, { params, query, body }) {
    const reader = await readerOf(ctx, query);
    await rateArticleAsVisitor(ctx.state.context, reader, params.slug, body);
    return { status: 204 };
  },
});

export const getPublicCollections = defineRoute({
  method: 'get',
  path: '/public/v1/help/collections',
  surface: 'public',
  tag: 'Help center',
  summary: 'The collections holding articles meant for everyone, in order, each with its sections',
  query: AppLang,
  responses: { 200: { description: 'Collections', schema: CollectionsAnswer }, 404: { description: notHere } },
  errors: [400, 404, 429],
  async handle(ctx, { query }) {
    const reader = await readerOf(ctx, query);
    return { status: 200, body: presentCollections(reader, await listCollections(ctx.state.context, reader)) };
  },
});

export const getPublicCollection = defineRoute({
  method: 'get',
  path: '/public/v1/help/collections/{slug}',
  surface: 'public',
  tag: 'Help center',
  summary: 'A collection or section with its articles meant for everyone',
  params: Slug,
  query: AppLang,
  responses: { 200: { description: 'CollectionArticles', schema: CollectionArticlesAnswer }, 404: { description: notHere } },
  errors: [400, 404, 429],
  async handle(ctx, { params, query }) {
    const reader = await readerOf(ctx, query);
    return { status: 200, body: presentCollection(base(ctx), reader, await readCollection(ctx.state.context, reader, params.slug)) };
  },
});

export const getHelpAsset = defineRoute({
  method: 'get',
  path: '/public/v1/help/assets/{asset_id}',
  surface: 'public',
  tag: 'Help center',
  summary: 'A picture of an article: a redirect to a short-lived signed address of its bytes',
  params: z.object({ asset_id: z.string().min(1).max(100) }),
  responses: {
    302: { description: 'Location: the signed address, working for at least ten minutes; the redirect itself may be cached five' },
    404: { description: 'No such picture, or its app’s help center is switched off' },
  },
  errors: [404, 429],
  async handle(ctx, { params }) {
    const address = await pictureAddress(ctx.state.context, params.asset_id);
    return { status: 302, headers: { Location: address.url, 'Cache-Control': 'public, max-age=300' } };
  },
});

export const publicHelpRoutes = [
  getPublicArticles,
  getPublicArticle,
  postPublicArticleRating,
  getPublicCollections,
  getPublicCollection,
  getHelpAsset,
];
