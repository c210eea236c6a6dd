import Router from '@koa/router';
import type Koa from 'koa';
import { contextOf, type Services } from '../../src/domain/context.js';
import { DomainError } from '../../src/domain/errors.js';
import { confirmSignup, signupLink } from '../../src/domain/signup/confirm.js';
import { SIGNUP_CONFIRM_PAGE } from '../../src/domain/signup/mail.js';
import type { RenderedPage } from '../../src/lib/html/index.js';
import { publicAccess } from '../http/access.js';
import { signupPage, tooManyPage } from './signup-pages.js';

// A sign-up's confirmation link (src/domain/signup/confirm.ts): GET shows the page and changes
// nothing (mail scanners follow links); the page's button POSTs to the same address, which makes
// the workspace and answers 303 to the staff console, or the page of what the link stands for.
// Under the public routes' rate; refusals are pages too.

const send = (ctx: Koa.Context, page: RenderedPage, status: number) => {
  ctx.status = status;
  ctx.set(page.headers);
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.body = page.html;
};

const tooManyAsPage: Koa.Middleware = async (ctx, next) => {
  try {
    await next();
  } catch (err) {
    if (!(err instanceof DomainError) || err.status !== 429) throw err;
    for (const [name, value] of Object.entries(err.headers)) ctx.set(name, value);
    send(ctx, tooManyPage(), 429);
  }
};

export function signupPagesRouter(svc: Services, consolePath: string): Router {
  const router = new Router();
  const limits = publicAccess(svc, () => undefined);
  const visitor = (ctx: Koa.Context) => contextOf(svc, { kind: 'visitor', address: ctx.ip });
  const path = `${SIGNUP_CONFIRM_PAGE}/:token`;

  router.get(path, tooManyAsPage, limits, async (ctx) => {
    const token = ctx.params.token!;
    const { status, page } = signupPage(await signupLink(visitor(ctx), token), { token, consolePath });
    send(ctx, page, status);
  });

  router.post(path, tooManyAsPage, limits, async (ctx) => {
    const token = ctx.params.token!;
    const done = await confirmSignup(visitor(ctx), token);
    if (done.state === 'made') {
      ctx.set('Cache-Control', 'no-store');
      ctx.status = 303;
      ctx.set('Location', consolePath);
      return;
    }
    const { status, page } = signupPage(done, { token, consolePath });
    send(ctx, page, status);
  });
  return router;
}
