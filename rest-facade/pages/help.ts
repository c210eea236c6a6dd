import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import type Koa from 'koa';
import { contextOf, type Ctx, type Services, type VisitorCaller } from '../../src/domain/context.js';
import { DomainError } from '../../src/domain/errors.js';
import { readArticle } from '../../src/domain/help/article.js';
import { listCollections, readCollection } from '../../src/domain/help/collections.js';
import { acceptedLanguages, LANGUAGE_TAG, matchLanguage } from '../../src/domain/help/languages.js';
import { MAX_VISITOR, rateArticleAsVisitor } from '../../src/domain/help/ratings.js';
import { publicReader, type HelpReader } from '../../src/domain/help/reader.js';
import { listArticles } from '../../src/domain/help/search.js';
import { textProblem } from '../../src/lib/text.js';
import type { RenderedPage } from '../../src/lib/html/index.js';
import { publicAccess } from '../http/access.js';
import { formFields } from '../http/route.js';
import { articlePage, collectionPage, errorPage, homePage, searchPage, type Site } from './help-pages.js';
import { HELP_SITE_PREFIX, helpSitePath } from './help-paths.js';

// The public help site of each app-mode with its help center on (help-paths.ts for the addresses).
// Only articles meant for everyone, as on the public routes; the same rate limits. Refusals are
// pages too (404, 429, and 503 for a search refused while the app's searches are busy), never
// problem documents. The vote is a plain form POST answered 303 back to the article, which then
// thanks the reader and shows their choice.

/** Popular articles on the home page. */
const POPULAR = 6;

const send = (ctx: Koa.Context, page: RenderedPage, status = 200) => {
  ctx.status = status;
  ctx.set(page.headers);
  // Each render carries its own visitor id in the vote form: not for shared caches.
  ctx.set('Cache-Control', 'private, no-cache');
  ctx.body = page.html;
};

const visitorOf = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length >= 1 && value.length <= MAX_VISITOR && !textProblem(value) ? value : undefined;

/** The reader of the page's app and language; a language the app has under another spelling is redirected to its own. */
async function siteOf(ctx: Koa.Context, svc: Services): Promise<{ site: Site; domain: Ctx<VisitorCaller> } | undefined> {
  const domain = contextOf(svc, { kind: 'visitor', address: ctx.ip });
  const asked = String(ctx.params.lang);
  const reader: HelpReader = await publicReader(domain, ctx.params.key, { lang: LANGUAGE_TAG.test(asked) ? asked : undefined });
  if (reader.language !== asked) {
    // The same page in the reader's language: /help/<key>/<lang>/<the rest, as sent>.
    const rest = ctx.path.split('/').slice(4).join('/');
    ctx.redirect(
      `${helpSitePath(reader.app.appKey, reader.language)}${rest ? `/${rest}` : ''}${ctx.querystring ? `?${ctx.querystring}` : ''}`,
    );
    return undefined;
  }
  return { site: { reader, baseUrl: svc.config.baseUrl }, domain };
}

/** Refusals as pages: the app's own when it is known, a plain one otherwise. */
function pagesForRefusals(svc: Services): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      if (!(err instanceof DomainError) || (err.status !== 404 && err.status !== 429 && err.status !== 503)) throw err;
      for (const [name, value] of Object.entries(err.headers)) ctx.set(name, value);
      const language =
        matchLanguage(
          { languages: ['en', 'de', 'fr', 'es'], defaultLanguage: 'en' },
          acceptedLanguages(ctx.get('Accept-Language'))[0] ?? 'en',
        ) ?? 'en';
      let site: Site | undefined;
      if (err.status === 404 && ctx.params.key) {
        const reader = await publicReader(contextOf(svc, { kind: 'visitor', address: ctx.ip }), ctx.params.key, {
          lang: ctx.params.lang,
        }).catch(() => undefined);
        site = reader && { reader, baseUrl: svc.config.baseUrl };
      }
      send(ctx, errorPage(site, err.status, language), err.status);
    }
  };
}

export function helpSiteRouter(svc: Services): Router {
  const router = new Router({ prefix: HELP_SITE_PREFIX });
  const limits = publicAccess(svc, (ctx) => ctx.params.key);
  const refusals = pagesForRefusals(svc);

  router.get('/:key', refusals, limits, async (ctx) => {
    const reader = await publicReader(contextOf(svc, { kind: 'visitor', address: ctx.ip }), ctx.params.key, {
      acceptLanguage: ctx.get('Accept-Language') || undefined,
    });
    ctx.set('Vary', 'Accept-Language');
    ctx.redirect(helpSitePath(reader.app.appKey, reader.language));
  });

  router.get('/:key/:lang', refusals, limits, async (ctx) => {
    const found = await siteOf(ctx, svc);
    if (!found) return;
    const { site, domain } = found;
    const [collections, popular] = await Promise.all([
      listCollections(domain, site.reader),
      listArticles(domain, site.reader, { limit: POPULAR }),
    ]);
    send(ctx, homePage(site, collections, popular));
  });

  router.get('/:key/:lang/search', refusals, limits, async (ctx) => {
    const found = await siteOf(ctx, svc);
    if (!found) return;
    const q = typeof ctx.query.q === 'string' ? ctx.query.q.slice(0, 200) : '';
    send(ctx, searchPage(found.site, q, await listArticles(found.domain, found.site.reader, { q, limit: 20 })));
  });

  router.get('/:key/:lang/collections/:slug', refusals, limits, async (ctx) => {
    const found = await siteOf(ctx, svc);
    if (!found) return;
    send(ctx, collectionPage(found.site, await readCollection(found.domain, found.site.reader, ctx.params.slug!)));
  });

  router.get('/:key/:lang/articles/:slug', refusals, limits, async (ctx) => {
    const found = await siteOf(ctx, svc);
    if (!found) return;
    const voted = ctx.query.voted === 'yes' ? true : ctx.query.voted === 'no' ? false : undefined;
    const visitor = (voted !== undefined && visitorOf(ctx.query.visitor)) || randomUUID();
    send(ctx, articlePage(found.site, await readArticle(found.domain, found.site.reader, ctx.params.slug!), { visitor, voted }));
  });

  // The helpful / not helpful form: a plain POST, answered 303 to the article.
  router.post('/:key/:lang/articles/:slug/rating', refusals, limits, async (ctx) => {
    const found = await siteOf(ctx, svc);
    if (!found) return;
    const form = formFields(ctx);
    const helpful = form.get('helpful');
    const visitor = visitorOf(form.get('visitor')) ?? randomUUID();
    const articlePath = helpSitePath(found.site.reader.app.appKey, found.site.reader.language, 'articles', ctx.params.slug);
    if (helpful === 'yes' || helpful === 'no') {
      const language = form.get('language') ?? undefined;
      await rateArticleAsVisitor(found.domain, found.site.reader, ctx.params.slug!, {
        helpful: helpful === 'yes',
        visitor,
        language: language && LANGUAGE_TAG.test(language) ? language : undefined,
      });
    }
    ctx.status = 303;
    ctx.redirect(
      helpful === 'yes' || helpful === 'no'
        ? `${articlePath}?voted=${helpful}&visitor=${encodeURIComponent(visitor)}#feedback`
        : articlePath,
    );
  });

  return router;
}
