import { z } from 'zod';
import { CARD_KINDS } from '../../src/domain/messenger-home/cards.js';
import { HOME_ARTICLES, HOME_OPEN, HOME_TICKETS } from '../../src/domain/messenger-home/home.js';
import { REPLY_TIMES } from '../../src/domain/messenger-home/reply-time.js';
import { ArticleAnswer, ArticlesAnswer } from '../shapes/help.js';
import { ConversationSummary } from './conversations.schemas.js';
import { TicketSummary } from './tickets.schemas.js';

// The messenger home: everything the messenger shows when it opens, in one answer.

export const MessengerHomeAnswer = z
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
