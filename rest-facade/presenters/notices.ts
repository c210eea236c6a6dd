import type { z } from 'zod';
import type { Notice } from '../../src/generated/prisma/client.js';
import type { NoticePage as Page } from '../../src/domain/notices/inbox.js';
import type { NoticeAnswer, NoticePage } from '../guest/notices.schemas.js';

const presentNotice = (n: Notice): z.output<typeof NoticeAnswer> => ({
  id: n.id,
  title: n.title,
  body: n.body,
  link: n.link,
  topic: n.topicKey,
  created_at: n.createdAt.toISOString(),
  read: n.readAt !== null,
});

export const presentNoticePage = (page: Page): z.output<typeof NoticePage> => ({
  unread: page.unread,
  notices: page.notices.map(presentNotice),
  next_before: page.nextBefore,
});
