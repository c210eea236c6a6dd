import { EMAIL_PREVIEW_PATH, EMAIL_PREVIEW_SECONDS, previewPage } from '../../src/domain/email/preview.js';
import type { RequestLog } from '../../src/http/observability.js';
import { defineRoute } from '../http/route.js';
import { EmailPreviewParams } from './email-previews.schemas.js';

// An email's preview as a page, for a team member's console to frame: the address the staff API's
// `emailPreview` gives (src/domain/email/preview.ts), the signed token in the path its only credential.
// Its own policy lets the email's inline styles and https pictures show, and nothing else: no script,
// no form, sandboxed, framed only by this service's own pages, no Referer (the token stays here).

/** What the page may do: the email's styles and pictures, nothing more. */
export const EMAIL_PREVIEW_POLICY = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  'img-src https: data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
  'sandbox allow-popups allow-popups-to-escape-sandbox',
].join('; ');

export const getEmailPreviewPage = defineRoute({
  method: 'get',
  path: `${EMAIL_PREVIEW_PATH}{token}`,
  surface: 'public',
  tag: 'Email',
  summary: `An email's preview as an HTML page, by the signed address the staff API's emailPreview gave a team member (good for ${EMAIL_PREVIEW_SECONDS / 60} minutes, for that one email); the token is the only credential`,
  params: EmailPreviewParams,
  responses: {
    200: {
      description:
        'The email as saved now, rendered as a sending renders it (links as written, nothing tracked). Its Content-Security-Policy allows inline ' +
        "styles and https pictures only, sandboxed, framed by this service's pages only; Cache-Control: no-store, Referrer-Policy: no-referrer.",
      contentType: 'text/html',
    },
    403: {
      description:
        'address_expired: the address is older than its minutes (ask the staff API for another); address_invalid: altered, forged, or not a preview address',
    },
    404: { description: 'The email is gone' },
  },
  errors: [400, 403, 404, 429],
  async handle(ctx, { params }) {
    const page = await previewPage(ctx.state.context, params.token);
    // The request's log line names the app-mode (never the token: the log names the route's template).
    (ctx.state as { log?: RequestLog }).log?.setBindings({ app_mode: page.appModeId });
    return {
      status: 200,
      headers: {
        'Content-Type': 'text/html; charset=utf-8',
        'Content-Security-Policy': EMAIL_PREVIEW_POLICY,
        'X-Frame-Options': 'SAMEORIGIN',
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
        'Referrer-Policy': 'no-referrer',
      },
      body: page.html,
    };
  },
});
