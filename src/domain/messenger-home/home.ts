import type { Ctx, GuestCaller } from '../context.js';
import { openingFor, type OpeningShown } from '../bot/openings.js';
import { listConversations, totalUnread, type ListedConversation } from '../conversations/conversations.js';
import { requireMessenger } from '../conversations/settings.js';
import { readerLanguage } from '../help/languages.js';
import { guestReader, type HelpReader } from '../help/reader.js';
import { listArticles } from '../help/search.js';
import type { ArticleItem } from '../help/served.js';
import { listTickets, type TicketWithType } from '../tickets/own.js';
import type { Card } from './cards.js';
import { facesShown, type FaceShown } from './faces.js';
import { replyTimeShown, type ReplyTimeShown } from './reply-time.js';
import { messengerSettingsOf } from './settings.js';

// GET /messenger: what the messenger shows when it opens, in one answer. The person's unread
// count and open conversations, the greeting with the app's brand, the team's faces and reply time,
// the published cards, the help center's most read articles in the person's language, their
// latest tickets, and the help bot's opening when a new conversation would start.

export const HOME_OPEN = 3;
export const HOME_ARTICLES = 3;
export const HOME_TICKETS = 3;

export interface MessengerHome {
  unread: number;
  /** The person's language among the app's: Accept-Language, else their contact's language, else the default. */
  language: string;
  greeting: string;
  brand: { name: string; color: string; logoUrl: string | null };
  open: ListedConversation[];
  faces: FaceShown[];
  replyTime: ReplyTimeShown | null;
  cards: Card[];
  /** Null while the help center is off. */
  articles: { reader: HelpReader; items: ArticleItem[] } | null;
  tickets: TicketWithType[];
  opening: OpeningShown | null;
}

export async function messengerHome(ctx: Ctx<GuestCaller>, asked: { acceptLanguage?: string | undefined }): Promise<MessengerHome> {
  requireMessenger(ctx);
  const { appModeId, appId, externalId, settings: app } = ctx.caller;
  const contact = asked.acceptLanguage
    ? null
    : await ctx.db.contact.findUnique({ where: { appModeId_externalId: { appModeId, externalId } }, select: { language: true } });
  const language = readerLanguage(app, { acceptLanguage: asked.acceptLanguage, lang: contact?.language ?? undefined });
  const settings = await messengerSettingsOf(ctx, appModeId);
  const [unread, open, faces, tickets, articles] = await Promise.all([
    totalUnread(ctx, externalId),
    listConversations(ctx, { limit: HOME_OPEN, open: true }),
    facesShown(ctx, appId, settings.faces),
    listTickets(ctx, { limit: HOME_TICKETS }),
    featuredArticles(ctx, asked.acceptLanguage, language),
  ]);
  const wouldStart = settings.startRule === 'always' || (settings.startRule === 'when_none_open' && !open.items.length);
  return {
    unread,
    language,
    greeting: settings.greeting,
    brand: { name: app.brandName, color: app.brandColor, logoUrl: app.brandLogoUrl },
    open: open.items,
    faces,
    replyTime: replyTimeShown(settings.replyTime, settings.replyTimeText),
    cards: settings.cards.filter((c) => c.published && (c.kind !== 'article' || app.helpOn)),
    articles,
    tickets: tickets.items,
    opening: wouldStart ? await openingFor(ctx, appModeId, language) : null,
  };
}

/** The help center's most read articles in the person's language; null while it is off. */
async function featuredArticles(ctx: Ctx<GuestCaller>, acceptLanguage: string | undefined, language: string) {
  if (!ctx.caller.settings.helpOn) return null;
  const reader = guestReader(ctx, { acceptLanguage, lang: language });
  return { reader, items: (await listArticles(ctx, reader, { limit: HOME_ARTICLES })).items };
}
