import { readArticle } from '../../src/domain/help/article.js';
import { listCollections, readCollection } from '../../src/domain/help/collections.js';
import { pictureAddress } from '../../src/domain/help/pictures.js';
import { rateArticleAsVisitor } from '../../src/domain/help/ratings.js';
import { publicReader } from '../../src/domain/help/reader.js';
import { listArticles } from '../../src/domain/help/search.js';
import { defineRoute, type RouteContext } from '../http/route.js';
import { presentArticle, presentArticles, presentCollection, presentCollections } from '../presenters/help.js';
import { ArticleAnswer, ArticlesAnswer, CollectionArticlesAnswer, CollectionsAnswer, SlugParams } from '../shapes/help.js';
import { AppLangQuery, AppQuery, AssetParams, PublicArticlesQuery, PublicRatingBody } from './help.schemas.js';

// The public help center: the app key in X-CRM-App-Key or query `app`, no sign-in; only published
// articles meant for everyone. An unknown key, an archived or switched-off app and a help center
// switched off are all 404.

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
  summary:
    'Articles meant for everyone: with q the best matches first, else the most read in the reader’s language; a search runs on database connections of its own, in its app’s share of them (others wait up to 2 s) and stopped after 2 s, else 503 unavailable with Retry-After',
  query: PublicArticlesQuery,
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
  params: SlugParams,
  query: AppLangQuery,
  responses: { 200: { description: 'Article', schema: ArticleAnswer }, 404: { description: notHere } },
  errors: [400, 404, 429],
  async handle(ctx, { params, query }) {
    const reader = await readerOf(ctx, query);
    return { status: 200, body: presentArticle(base(ctx), reader, await readArticle(ctx.state.context, reader, params.slug)) };
  },
});

export const postPublicArticleRating = defineRoute({
  method: 'post',
  path: '/public/v1/help/articles/{slug}/rating',
  surface: 'public',
  tag: 'Help center',
  summary:
    'A reader found the article helpful or not: one vote per visitor and language, changed by voting again, kept apart from users’ votes',
  params: SlugParams,
  query: AppQuery,
  body: PublicRatingBody,
  responses: {
    204: {
      description:
        'Accepted. New votes are counted per client address (an IPv6 address by its /64 network), article and UTC day: the first 3 are kept, later ones are answered alike and not kept; a visitor whose vote was kept may still change it',
    },
    404: { description: notHere },
  },
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
  query: AppLangQuery,
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
  params: SlugParams,
  query: AppLangQuery,
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
  params: AssetParams,
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
