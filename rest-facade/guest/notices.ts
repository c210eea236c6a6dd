import { z } from 'zod';
import type { Notice } from '../../src/generated/prisma/client.js';
import { DEFAULT_NOTICES, listNotices, markNoticesRead, MAX_NOTICES, MAX_READ_IDS } from '../../src/domain/notices/inbox.js';
import { defineRoute } from '../http/route.js';

// The user's notice inbox: every push sent to them is a notice, and the team may post one without a
// push. Newest first, with how many are unread; marking read takes all of them or the ids read.

const TAG = 'Notices';
const instant = z.iso.datetime({ offset: true });

const NoticeAnswer = z
  .object({
    id: z.string(),
    title: z.string(),
    body: z.string().nullable(),
    link: z
      .string()
      .nullable()
      .describe("A path in the app (open it only when the app's allow-list names it) or an https URL (open it in the browser)"),
    topic: z.string().nullable().describe('The key of the topic it was sent under (GET /preferences), when one'),
    created_at: instant,
    read: z.boolean(),
  })
  .meta({ id: 'Notice' });

const NoticePage = z
  .object({
    unread: z.number().int().describe("The user's notices not read yet, over all pages"),
    notices: z.array(NoticeAnswer).describe('Newest first'),
    next_before: z.string().nullable().describe('Pass as `before` for the next (older) page; null on the last page'),
  })
  .meta({ id: 'NoticePage' });

export const NoticesUnreadCount = z
  .object({ unread: z.number().int().describe("The user's notices not read yet") })
  .describe("The answer the spec calls UnreadCount, for notices (the messenger's UnreadCount also counts one conversation)")
  .meta({ id: 'NoticesUnreadCount' });

export const NoticesReadBody = z
  .object({
    all: z.boolean().optional().describe('true: every notice of the user is read'),
    ids: z
      .array(z.string().min(1).max(100))
      .max(MAX_READ_IDS)
      .optional()
      .describe(`The notices read, at most ${MAX_READ_IDS}; ids that are not the user's own notices are passed over, without a refusal`),
  })
  .meta({ id: 'NoticesReadBody' });

const presentNotice = (n: Notice): z.output<typeof NoticeAnswer> => ({
  id: n.id,
  title: n.title,
  body: n.body,
  link: n.link,
  topic: n.topicKey,
  created_at: n.createdAt.toISOString(),
  read: n.readAt !== null,
});

export const getNotices = defineRoute({
  method: 'get',
  path: '/guest/v1/notices',
  surface: 'guest',
  tag: TAG,
  summary: "The user's notices, newest first, with how many are unread",
  query: z.object({
    before: z.string().max(500).optional().describe("The previous page's `next_before`"),
    limit: z
      .string()
      .regex(/^[0-9]{1,9}$/, `must be a whole number from 1 to ${MAX_NOTICES}`)
      .transform(Number)
      .refine((n) => n >= 1 && n <= MAX_NOTICES, `must be a whole number from 1 to ${MAX_NOTICES}`)
      .optional()
      .describe(`Notices per page, 1 to ${MAX_NOTICES}; ${DEFAULT_NOTICES} when left out`),
  }),
  responses: { 200: { description: 'A page of notices', schema: NoticePage } },
  errors: [400, 401, 403, 429],
  async handle(ctx, { query }) {
    const page = await listNotices(ctx.state.context, { before: query.before, limit: query.limit });
    return { status: 200, body: { unread: page.unread, notices: page.notices.map(presentNotice), next_before: page.nextBefore } };
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
