import { z } from 'zod';
import { HOME_ARTICLES, HOME_OPEN, HOME_TICKETS, messengerHome, type MessengerHome } from '../../src/domain/messenger-home/home.js';
import { CARD_KINDS } from '../../src/domain/messenger-home/cards.js';
import { REPLY_TIMES } from '../../src/domain/messenger-home/reply-time.js';
import { defineRoute, type RouteContext } from '../http/route.js';
import { ArticleAnswer, ArticlesAnswer, presentArticles } from '../public/help-answers.js';
import { ConversationSummary, presentSummary } from './conversations.js';
import { presentTicketSummary, TicketSummary } from './tickets.js';

// GET /messenger: the messenger home, everything the messenger shows when it opens, in one answer.

const MessengerHomeAnswer = z
  .object({
    unread: z.number().int().describe("Unread parts over all the user's conversations"),
    language: z
      .string()
      .describe(
        "The user's language among the app's (Accept-Language, else the contact's language, else the app's default): the opening's and the articles'",
      ),
    layout: z.object({
      greeting: z.string().describe('What the team greets with; empty for none'),
      brand: z
        .object({ name: z.string(), color: z.string().describe('#rrggbb'), logo_url: z.string().nullable() })
        .describe("The app's brand"),
    }),
    open: z.array(ConversationSummary).describe(`The user's open conversations, the latest activity first (at most ${HOME_OPEN})`),
    faces: z
      .array(z.object({ name: z.string(), avatar_url: z.string().nullable().describe('null: draw their initials') }))
      .describe('The team members shown, in order (at most 5)'),
    reply_time: z
      .object({
        word: z
          .enum(REPLY_TIMES as [string, ...string[]])
          .describe("minutes, hour, day: to put in the messenger's own words; stated: the team's own words in text"),
        text: z.string().describe('The reply time in words to show as they are'),
      })
      .nullable()
      .describe('How soon the team says it replies; null when it says nothing'),
    cards: z
      .array(
        z.object({
          id: z.string(),
          kind: z.enum(CARD_KINDS).describe('message: start a conversation; link: open link; article: open the help article article_slug'),
          title: z.string(),
          text: z.string(),
          link: z.string().optional().describe('link cards: an https address, or a path in the product opened when the app allows it'),
          article_slug: z.string().optional().describe('article cards: GET /articles/{slug}'),
        }),
      )
      .describe('The published cards, in order'),
    featured_articles: ArticlesAnswer.shape.items.describe(
      `The help center's most read articles in the user's language (at most ${HOME_ARTICLES}); empty while the help center is off`,
    ),
    tickets: z.array(TicketSummary).describe(`The user's latest tickets, newest first (at most ${HOME_TICKETS})`),
    opening: z
      .object({
        id: z.string(),
        version: z.number().int().describe("Send id and version as the start's opening when a button is tapped"),
        language: z.string().nullable().describe('The language it greets in; null: for every language'),
        blocks: ArticleAnswer.shape.blocks.describe('The greeting: paragraph content blocks'),
        buttons: z
          .array(z.object({ id: z.string(), label: z.string() }))
          .describe('Each starts a conversation (POST /conversations with button and opening), which the bot answers at once'),
      })
      .nullable()
      .describe(
        "The help bot's opening, when the app's start rule lets the user start a conversation now; null otherwise or when none is active",
      ),
  })
  .meta({ id: 'MessengerHome' });

const present = (ctx: RouteContext<'guest'>, home: MessengerHome): z.input<typeof MessengerHomeAnswer> => ({
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
    ? presentArticles(ctx.state.context.svc.config.baseUrl, home.articles.reader, { items: home.articles.items, matchedBy: 'most_read' })
        .items
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

export const getMessengerHome = defineRoute({
  method: 'get',
  path: '/guest/v1/messenger',
  surface: 'guest',
  tag: 'Messenger',
  summary:
    'The messenger home: unread count, greeting and brand, open conversations, the team, cards, featured articles, tickets and the help bot’s opening',
  responses: {
    200: { description: 'The messenger home', schema: MessengerHomeAnswer },
    404: { description: 'The messenger is switched off for this app' },
  },
  errors: [400, 401, 403, 404, 429],
  async handle(ctx) {
    return {
      status: 200,
      body: present(ctx, await messengerHome(ctx.state.context, { acceptLanguage: ctx.get('Accept-Language') || undefined })),
    };
  },
});
