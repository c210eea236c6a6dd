import { z } from 'zod';
import { pageQuery } from '../shapes/page.js';
import { DEFAULT_NOTICES, MAX_NOTICES, MAX_READ_IDS } from '../../src/domain/notices/inbox.js';

// The person's notice inbox on the wire.

const instant = z.iso.datetime({ offset: true });

export const NoticeAnswer = z
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

export const NoticePage = z
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

export const NoticeListQuery = pageQuery('Notices', MAX_NOTICES, DEFAULT_NOTICES);
