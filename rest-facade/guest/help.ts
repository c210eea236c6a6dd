import { readArticle } from '../../src/domain/help/article.js';
import { listCollections, readCollection } from '../../src/domain/help/collections.js';
import { rateArticle } from '../../src/domain/help/ratings.js';
import { guestReader } from '../../src/domain/help/reader.js';
import { listArticles } from '../../src/domain/help/search.js';
import { defineRoute, type RouteContext } from '../http/route.js';
import { presentArticle, presentArticles, presentCollection, presentCollections } from '../presenters/help.js';
import { ArticleAnswer, ArticlesAnswer, ArticlesQuery, CollectionArticlesAnswer, CollectionsAnswer, SlugParams } from '../shapes/help.js';
import { ArticleRatingBody, LangQuery } from './help.schemas.js';

// The help center for a signed-in user: every published article, those for signed-in users too.

const off = 'The help center is switched off for this app, or there is no such article or collection';

const readerOf = (ctx: RouteContext<'guest'>, lang: string | undefined) =>
  guestReader(ctx.state.context, { lang, acceptLanguage: ctx.get('Accept-Language') || undefined });
const base = (ctx: RouteContext<'guest'>) => ctx.state.context.svc.config.baseUrl;

export const getGuestArticles = defineRoute({
  method: 'get',
  path: '/guest/v1/articles',
  surface: 'guest',
  tag: 'Help center',
  summary:
    'Articles: with q the best matches first, else the most read in the reader’s language; a search runs on database connections of its own, in its app’s share of them (others wait up to 2 s) and stopped after 2 s, else 503 unavailable with Retry-After',
  query: ArticlesQuery,
  responses: {
    200: { description: 'Articles', schema: ArticlesAnswer },
    404: { description: 'The help center is switched off for this app' },
  },
  errors: [400, 401, 403, 404, 429],
  async handle(ctx, { query }) {
    const reader = readerOf(ctx, query.lang);
    return { status: 200, body: presentArticles(base(ctx), reader, await listArticles(ctx.state.context, reader, query)) };
  },
});

export const getGuestArticle = defineRoute({
  method: 'get',
  path: '/guest/v1/articles/{slug}',
  surface: 'guest',
  tag: 'Help center',
  summary: 'An article in the reader’s language (else the default), with its blocks, collection path and related articles',
  params: SlugParams,
  query: LangQuery,
  responses: { 200: { description: 'Article', schema: ArticleAnswer }, 404: { description: off } },
  errors: [400, 401, 403, 404, 429],
  async handle(ctx, { params, query }) {
    const reader = readerOf(ctx, query.lang);
    return { status: 200, body: presentArticle(base(ctx), reader, await readArticle(ctx.state.context, reader, params.slug)) };
  },
});

export const postGuestArticleRating = defineRoute({
  method: 'post',
  path: '/guest/v1/articles/{slug}/rating',
  surface: 'guest',
  tag: 'Help center',
  summary: 'The user found the article helpful or not: one vote per user and article, changed by voting again',
  params: SlugParams,
  query: LangQuery,
  body: ArticleRatingBody,
  responses: { 204: { description: 'Kept (with the language the article is served in)' }, 404: { description: off } },
  errors: [400, 401, 403, 404, 429],
  async handle(ctx, { params, query, body }) {
    await rateArticle(ctx.state.context, readerOf(ctx, query.lang), params.slug, body.helpful);
    return { status: 204 };
  },
});

export const getGuestCollections = defineRoute({
  method: 'get',
  path: '/guest/v1/collections',
  surface: 'guest',
  tag: 'Help center',
  summary: 'The collections in order, each with its sections; those with no article to read are left out',
  query: LangQuery,
  responses: {
    200: { description: 'Collections', schema: CollectionsAnswer },
    404: { description: 'The help center is switched off for this app' },
  },
  errors: [400, 401, 403, 404, 429],
  async handle(ctx, { query }) {
    const reader = readerOf(ctx, query.lang);
    return { status: 200, body: presentCollections(reader, await listCollections(ctx.state.context, reader)) };
  },
});

export const getGuestCollection = defineRoute({
  method: 'get',
  path: '/guest/v1/collections/{slug}',
  surface: 'guest',
  tag: 'Help center',
  summary: 'A collection or section with its articles (and a collection’s sections with theirs)',
  params: SlugParams,
  query: LangQuery,
  responses: { 200: { description: 'CollectionArticles', schema: CollectionArticlesAnswer }, 404: { description: off } },
  errors: [400, 401, 403, 404, 429],
  async handle(ctx, { params, query }) {
    const reader = readerOf(ctx, query.lang);
    return { status: 200, body: presentCollection(base(ctx), reader, await readCollection(ctx.state.context, reader, params.slug)) };
  },
});

export const guestHelpRoutes = [getGuestArticles, getGuestArticle, postGuestArticleRating, getGuestCollections, getGuestCollection];
