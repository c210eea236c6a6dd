import type { z } from 'zod';
import type { MessengerHome } from '../../src/domain/messenger-home/home.js';
import type { MessengerHomeAnswer } from '../guest/messenger.schemas.js';
import { presentSummary } from './conversations.js';
import { presentArticles } from './help.js';
import { presentTicketSummary } from './tickets.js';

// The messenger home as GET /messenger answers it.

export const presentMessengerHome = (baseUrl: string, home: MessengerHome): z.input<typeof MessengerHomeAnswer> => ({
  unread: home.unread,
  language: home.language,
  layout: { greeting: home.greeting, brand: { name: home.brand.name, color: home.brand.color, logo_url: home.brand.logoUrl } },
  open: home.open.map(presentSummary),
  faces: home.faces.map((f) => ({ name: f.name, avatar_url: f.avatarUrl })),
  reply_time: home.replyTime,
  cards: home.cards.map((c) => ({
    id: c.id,
    kind: c.kind,
    title: c.title,
    text: c.text,
    ...(c.link ? { link: c.link } : {}),
    ...(c.articleSlug ? { article_slug: c.articleSlug } : {}),
  })),
  featured_articles: home.articles
    ? presentArticles(baseUrl, home.articles.reader, { items: home.articles.items, matchedBy: 'most_read' }).items
    : [],
  tickets: home.tickets.map(presentTicketSummary),
  opening: home.opening && {
    id: home.opening.id,
    version: home.opening.version,
    language: home.opening.language,
    blocks: home.opening.blocks,
    buttons: home.opening.buttons.map((b) => ({ id: b.id, label: b.label })),
  },
});
