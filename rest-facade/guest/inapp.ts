import { checkin } from '../../src/domain/inapp/checkin.js';
import { MAX_DECLARED_LINKS, MAX_LINK_SETS, reportAppLinks } from '../../src/domain/inapp/links.js';
import { openMessage } from '../../src/domain/inapp/open.js';
import { takeReceipt } from '../../src/domain/inapp/receipts.js';
import { requireInApp } from '../../src/domain/inapp/switch.js';
import { defineRoute } from '../http/route.js';
import { presentCheckin, presentMessage } from '../presenters/inapp.js';
import { AppLinksReport, Checkin, CheckinBody, InAppMessage, MessageParams, OpenMessageBody, ReceiptBody } from './inapp.schemas.js';

// In-app messages, the app's side: check-in (the messages to show now), the links the app
// declares, a message opened by a link, and receipts. Every route is 404 while the app-mode's
// in-app messages are switched off.

const TAG = 'In-app messages';

export const putAppLinks = defineRoute({
  method: 'put',
  path: '/guest/v1/app-links',
  surface: 'guest',
  tag: TAG,
  summary: `The destinations an app version declares, with their digest: at most ${MAX_DECLARED_LINKS} links; an app-mode keeps the ${MAX_LINK_SETS} digests reported last`,
  body: AppLinksReport,
  responses: {
    204: {
      description: `Kept; a new digest beyond the app-mode's ${MAX_LINK_SETS} drops the one reported longest ago (a check-in naming it answers sendLinks)`,
    },
  },
  errors: [400, 401, 403, 404, 429],
  async handle(ctx, { body }) {
    requireInApp(ctx.state.context);
    await reportAppLinks(ctx.state.context, { appVersion: body.app_version, digest: body.digest, links: body.links });
    return { status: 204 };
  },
});

export const postCheckin = defineRoute({
  method: 'post',
  path: '/guest/v1/checkin',
  surface: 'guest',
  tag: TAG,
  summary: 'The messages this user should see now, in order',
  body: CheckinBody,
  responses: { 200: { description: 'Checkin', schema: Checkin } },
  errors: [400, 401, 403, 404, 429],
  erasedChecked: true,
  async handle(ctx, { body }) {
    const answer = await checkin(ctx.state.context, {
      appVersion: body.app_version,
      platform: body.platform,
      sessionId: body.session_id,
      screen: body.screen,
      timeZone: body.time_zone,
      holdsForScreens: body.holds_for_screens,
      linksDigest: body.links_digest,
      language: ctx.get('Accept-Language').split(',')[0]?.split(';')[0]?.trim() || undefined,
    });
    return { status: 200, body: presentCheckin(answer) };
  },
});

export const postOpenMessage = defineRoute({
  method: 'post',
  path: '/guest/v1/messages/{message_id}/open',
  surface: 'guest',
  tag: TAG,
  summary: 'The message a link names, whatever its audience says',
  params: MessageParams,
  body: OpenMessageBody,
  responses: { 200: { description: 'InAppMessage', schema: InAppMessage } },
  errors: [400, 401, 403, 404, 429],
  async handle(ctx, { params, body }) {
    return { status: 200, body: presentMessage(await openMessage(ctx.state.context, params.message_id, body.session_id)) };
  },
});

export const postReceipt = defineRoute({
  method: 'post',
  path: '/guest/v1/receipts',
  surface: 'guest',
  tag: TAG,
  summary: 'What the user did with a message; each receipt counts once however often it is sent',
  body: ReceiptBody,
  responses: {
    204: {
      description:
        'Taken, or (from a person the message was never answered to: no check-in answered it, no open, no test copy delivered) answered alike and not kept',
    },
  },
  errors: [400, 401, 403, 404, 429],
  async handle(ctx, { body }) {
    await takeReceipt(ctx.state.context, {
      messageId: body.message_id,
      variant: body.variant,
      action: body.action,
      sessionId: body.session_id,
      screen: body.screen,
      button: body.button,
      link: body.link,
      answers: body.answers,
      path: body.path,
      test: body.test,
    });
    return { status: 204 };
  },
});

export const inAppRoutes = [postCheckin, putAppLinks, postOpenMessage, postReceipt];
