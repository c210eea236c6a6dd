import { listNotices, markNoticesRead } from '../../src/domain/notices/inbox.js';
import { defineRoute } from '../http/route.js';
import { presentNoticePage } from '../presenters/notices.js';
import { NoticePage, NoticeListQuery, NoticesReadBody, NoticesUnreadCount } from './notices.schemas.js';

// The user's notice inbox: every push sent to them is a notice, and the team may post one without a
// push. Newest first, with how many are unread; marking read takes all of them or the ids read.

const TAG = 'Notices';

export const getNotices = defineRoute({
  method: 'get',
  path: '/guest/v1/notices',
  surface: 'guest',
  tag: TAG,
  summary: "The user's notices, newest first, with how many are unread",
  query: NoticeListQuery,
  responses: { 200: { description: 'A page of notices', schema: NoticePage } },
  errors: [400, 401, 403, 429],
  async handle(ctx, { query }) {
    const page = await listNotices(ctx.state.context, { before: query.before, limit: query.limit });
    return { status: 200, body: presentNoticePage(page) };
  },
});

export const postNoticesRead = defineRoute({
  method: 'post',
  path: '/guest/v1/notices/read',
  surface: 'guest',
  tag: TAG,
  summary: 'The user has read all their notices (`all`), or these (`ids`); answers how many are still unread',
  body: NoticesReadBody,
  responses: { 200: { description: 'UnreadCount', schema: NoticesUnreadCount } },
  errors: [400, 401, 403, 429],
  async handle(ctx, { body }) {
    return { status: 200, body: { unread: await markNoticesRead(ctx.state.context, body) } };
  },
});

export const noticeRoutes = [getNotices, postNoticesRead];
