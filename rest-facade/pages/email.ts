import Router from '@koa/router';
import type Koa from 'koa';
import { contextOf, type Services } from '../../src/domain/context.js';
import { PREFERENCES_PAGE, UNSUBSCRIBE_PAGE } from '../../src/domain/email/addresses.js';
import { preferenceCentre, unsubscribePage } from '../../src/domain/email/leave.js';
import { DomainError } from '../../src/domain/errors.js';
import { acceptedLanguages } from '../../src/domain/help/languages.js';
import type { RenderedPage } from '../../src/lib/html/index.js';
import { publicAccess } from '../http/access.js';
import { emailErrorPage, preferencesPageHtml, unsubscribePageHtml } from './email-pages.js';
import { EMAIL_PAGE_LANGUAGES } from './email-words.js';

// The pages an email's links lead to (src/domain/email/addresses.ts): the unsubscribe page and the
// preference centre, by the email's own tokens, in the person's language (their contact's, else the
// browser's), under the public routes' rate. Refusals are pages too, never problem documents; a token
// that opens nothing is the same 404 page whatever was wrong with it.

const send = (ctx: Koa.Context, page: RenderedPage, status = 200) => {
  ctx.status = status;
  ctx.set(page.headers);
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.body = page.html;
};

const browserLanguage = (ctx: Koa.Context) =>
  acceptedLanguages(ctx.get('Accept-Language'))
    .map((l) => l.split('-')[0]!.toLowerCase())
    .find((l) => EMAIL_PAGE_LANGUAGES.includes(l)) ?? 'en';

const languageOf = (ctx: Koa.Context, known: string | null) => {
  const own = known?.split('-')[0]?.toLowerCase();
  return own && EMAIL_PAGE_LANGUAGES.includes(own) ? own : browserLanguage(ctx);
};

const refusalsAsPages: Koa.Middleware = async (ctx, next) => {
  try {
    await next();
  } catch (err) {
    if (!(err instanceof DomainError) || (err.status !== 404 && err.status !== 429)) throw err;
    for (const [name, value] of Object.entries(err.headers)) ctx.set(name, value);
    send(ctx, emailErrorPage(err.status, browserLanguage(ctx)), err.status);
  }
};

export function emailPagesRouter(svc: Services): Router {
  const router = new Router();
  const limits = publicAccess(svc, () => undefined);
  const visitor = (ctx: Koa.Context) => contextOf(svc, { kind: 'visitor', address: ctx.ip });

  router.get(`${UNSUBSCRIBE_PAGE}/:token`, refusalsAsPages, limits, async (ctx) => {
    const token = ctx.params.token!;
    const { lists, page } = await unsubscribePage(visitor(ctx), token);
    send(ctx, unsubscribePageHtml({ token, lists, page, language: languageOf(ctx, page.language), left: ctx.query.left === '1' }));
  });

  router.get(`${PREFERENCES_PAGE}/:token`, refusalsAsPages, limits, async (ctx) => {
    const token = ctx.params.token!;
    const { preferences, page } = await preferenceCentre(visitor(ctx), token);
    send(ctx, preferencesPageHtml({ token, preferences, page, language: languageOf(ctx, page.language), saved: ctx.query.saved === '1' }));
  });
  return router;
}
