import { EMAIL_LINKS, emailAddresses, UNSUBSCRIBE_PAGE } from '../../src/domain/email/addresses.js';
import { changeEmailPreferences, emailLists, emailPreferences, leaveEmailTopic } from '../../src/domain/email/leave.js';
import { clickEmailLink, openEmail, type VisitFacts } from '../../src/domain/email/visits.js';
import { MAX_WORDING } from '../../src/domain/preferences/change.js';
import { defineRoute, FORM, formFields, type RouteContext } from '../http/route.js';
import { PreferencesBody } from '../guest/preferences.schemas.js';
import { presentEmailLists } from '../presenters/email-links.js';
import { presentPreferences } from '../presenters/preferences.js';
import { EmailLists, EmailTokenParams, PublicPreferences, UnsubscribeQuery } from './email-links.schemas.js';

// The email link routes: written by the service into its own emails, never called by customers
// (spec, general rule 3). The token in the path is the only credential (src/domain/email/tokens.ts);
// one that opens nothing is 404 alike, never a hint. Followed by people's mail clients and browsers:
// a click and the open pixel answer even over the rate (they count nothing then), and the pixel
// answers its GIF whatever the token.

const TAG = 'Email links';
const NO_STORE = { 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' };
/** A transparent 1x1 GIF. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

const factsOf = (ctx: RouteContext<'public'>, reported = false): VisitFacts => ({
  method: ctx.method,
  userAgent: ctx.get('User-Agent') || undefined,
  reported,
  overLimit: (ctx.state as { overLimit?: boolean }).overLimit === true,
});

const NOT_FOUND = {
  404: { description: 'The token opens nothing: forged, altered, for another purpose, or its email gone (the person erased)' },
};

export const getEmailClick = defineRoute({
  method: 'get',
  path: `${EMAIL_LINKS}/c/{token}`,
  surface: 'public',
  tag: TAG,
  summary:
    "A tracked link of an email: redirected to the link as that email's own version holds it (the written text, or a browser's reading of it when it holds characters a header cannot carry); each link's first click by a person and first by a machine counted once, `message.clicked` told for a person's",
  params: EmailTokenParams,
  softLimit: true,
  responses: { 302: { description: 'Location: the link' }, ...NOT_FOUND },
  errors: [404],
  async handle(ctx, { params }) {
    const location = await clickEmailLink(ctx.state.context, params.token, factsOf(ctx));
    return { status: 302, headers: { Location: location, ...NO_STORE } };
  },
});

export const postEmailClick = defineRoute({
  method: 'post',
  path: `${EMAIL_LINKS}/c/{token}`,
  surface: 'public',
  tag: TAG,
  summary:
    "A click the app opened itself (a link of the email opened in the app rather than the browser): counted as the person's, once a link",
  params: EmailTokenParams,
  softLimit: true,
  responses: { 204: { description: 'Counted' }, ...NOT_FOUND },
  errors: [404],
  async handle(ctx, { params }) {
    await clickEmailLink(ctx.state.context, params.token, factsOf(ctx, true));
    return { status: 204, headers: NO_STORE };
  },
});

export const getEmailOpen = defineRoute({
  method: 'get',
  path: `${EMAIL_LINKS}/o/{token}`,
  surface: 'public',
  tag: TAG,
  summary:
    "The open pixel: always a 1x1 GIF, never cached, whatever the token; the email's first fetch by a person (and first by a machine) counted, `message.opened` told for a person's",
  params: EmailTokenParams,
  softLimit: true,
  responses: { 200: { description: 'A 1x1 transparent GIF', contentType: 'image/gif' } },
  errors: [],
  async handle(ctx, { params }) {
    // Counting is the pixel's side line: whatever befalls it, the mail client gets its picture.
    await openEmail(ctx.state.context, params.token, factsOf(ctx)).catch(() => {});
    return { status: 200, headers: { 'Content-Type': 'image/gif', ...NO_STORE }, body: PIXEL };
  },
});

export const getEmailUnsubscribe = defineRoute({
  method: 'get',
  path: `${EMAIL_LINKS}/unsubscribe/{token}`,
  surface: 'public',
  tag: TAG,
  summary: `The email's unsubscribe link followed: redirected to the unsubscribe page (${UNSUBSCRIBE_PAGE}/{token}), which asks first; a GET never unsubscribes (mail scanners follow links)`,
  params: EmailTokenParams,
  responses: { 302: { description: 'Location: the unsubscribe page' }, ...NOT_FOUND },
  errors: [404, 429],
  async handle(ctx, { params }) {
    await emailLists(ctx.state.context, params.token);
    return {
      status: 302,
      headers: { Location: emailAddresses(ctx.state.context.svc.config.baseUrl).unsubscribePage(params.token), ...NO_STORE },
    };
  },
});

export const postEmailUnsubscribe = defineRoute({
  method: 'post',
  path: `${EMAIL_LINKS}/unsubscribe/{token}`,
  surface: 'public',
  tag: TAG,
  summary:
    "The person leaves the email's topic by email (never everything): the one-click POST of RFC 8058 that mail clients send to the List-Unsubscribe address, answered 200 with the page's data, or the unsubscribe page's confirm (`source=page`), answered 303 back to the page; `contact.unsubscribed` told once. Any body is taken (the RFC's is `List-Unsubscribe=One-Click`, as a form or multipart).",
  params: EmailTokenParams,
  query: UnsubscribeQuery,
  responses: {
    200: { description: 'Left; the unsubscribe page data as it now is', schema: EmailLists },
    303: { description: 'The page confirmed: Location, the unsubscribe page' },
    ...NOT_FOUND,
  },
  errors: [404, 429],
  async handle(ctx, { params, query }) {
    const page = query.source === 'page';
    const written = FORM.test(ctx.get('Content-Type')) ? formFields(ctx).get('wording') : null;
    const wording =
      page && written
        ? written.slice(0, MAX_WORDING)
        : page
          ? 'Unsubscribe (the unsubscribe page)'
          : 'List-Unsubscribe=One-Click (RFC 8058)';
    const lists = await leaveEmailTopic(ctx.state.context, params.token, wording);
    if (page)
      return {
        status: 303,
        headers: { Location: `${emailAddresses(ctx.state.context.svc.config.baseUrl).unsubscribePage(params.token)}?left=1`, ...NO_STORE },
      };
    return { status: 200, headers: NO_STORE, body: presentEmailLists(lists) };
  },
});

export const getEmailLists = defineRoute({
  method: 'get',
  path: `${EMAIL_LINKS}/lists/{token}`,
  surface: 'public',
  tag: TAG,
  summary: "The unsubscribe page's data, by the email's unsubscribe token: its topic, the address masked, and the person's topics by email",
  params: EmailTokenParams,
  responses: { 200: { description: 'The unsubscribe page data', schema: EmailLists }, ...NOT_FOUND },
  errors: [404, 429],
  async handle(ctx, { params }) {
    return { status: 200, headers: NO_STORE, body: presentEmailLists(await emailLists(ctx.state.context, params.token)) };
  },
});

export const getPublicPreferences = defineRoute({
  method: 'get',
  path: '/public/v1/preferences/{token}',
  surface: 'public',
  tag: TAG,
  summary:
    "The preference centre's data, by an email's preferences token: the same topics and channels as the person's own preferences in the app",
  params: EmailTokenParams,
  responses: { 200: { description: 'PublicPreferences', schema: PublicPreferences }, ...NOT_FOUND },
  errors: [404, 429],
  async handle(ctx, { params }) {
    return { status: 200, headers: NO_STORE, body: presentPreferences(await emailPreferences(ctx.state.context, params.token)) };
  },
});

export const postPublicPreferences = defineRoute({
  method: 'post',
  path: '/public/v1/preferences/{token}',
  surface: 'public',
  tag: TAG,
  summary:
    "The person changes their preferences on the preference centre (each topic by each channel, or everything off; a choice per topic, never a suppression of the address): PreferencesBody as JSON, answered 200 with PublicPreferences, or the page's plain form, answered 303 back to the page",
  params: EmailTokenParams,
  body: PreferencesBody,
  form: {
    description:
      "The preference centre page's form: `shown` (each `topic|channel` the page showed), `on` (each of those ticked), `all_off` (`on` when ticked), `wording`",
    read: (fields) => ({
      all_off: fields.get('all_off') === 'on',
      choices: fields.getAll('shown').map((shown) => {
        const [topic = '', channel = ''] = shown.split('|');
        return { topic, channel, subscribed: fields.getAll('on').includes(shown) };
      }),
      wording: fields.get('wording') ?? undefined,
    }),
  },
  responses: {
    200: { description: 'PublicPreferences, as they now are', schema: PublicPreferences },
    303: { description: "The page's form: Location, the preference centre page" },
    ...NOT_FOUND,
  },
  errors: [400, 404, 429],
  async handle(ctx, { params, body, form }) {
    const change = { allOff: body.all_off, choices: body.choices, wording: body.wording };
    const preferences = await changeEmailPreferences(ctx.state.context, params.token, change);
    if (form)
      return {
        status: 303,
        headers: { Location: `${emailAddresses(ctx.state.context.svc.config.baseUrl).preferencesPage(params.token)}?saved=1`, ...NO_STORE },
      };
    return { status: 200, headers: NO_STORE, body: presentPreferences(preferences) };
  },
});

export const emailLinkRoutes = [
  getEmailClick,
  postEmailClick,
  getEmailOpen,
  getEmailUnsubscribe,
  postEmailUnsubscribe,
  getEmailLists,
  getPublicPreferences,
  postPublicPreferences,
];
