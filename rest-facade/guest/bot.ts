import { z } from 'zod';
import { answerBot } from '../../src/domain/bot/reply.js';
import { MAX_VALUE } from '../../src/domain/bot/values.js';
import { defineRoute } from '../http/route.js';
import { Part, presentParts } from './conversations.js';

// The help bot, the person's side: answering the bot's current question in a conversation.

export const postGuestBotReply = defineRoute({
  method: 'post',
  path: '/guest/v1/conversations/{conversation_id}/bot',
  surface: 'guest',
  tag: 'Messenger',
  summary: "The user answers the help bot's current question: a button it offers, or the value it asks for; the bot's next parts follow",
  params: z.object({ conversation_id: z.string().describe('The conversation id a start answered') }),
  body: z
    .object({
      part_id: z.string().min(1).max(100).describe("The bot's part answered: the conversation's bot_part_id"),
      button: z.string().max(100).nullable().optional().describe('The id of the button tapped, for a part with buttons'),
      value: z
        .string()
        .max(10_000)
        .nullable()
        .optional()
        .describe(`What the user gave, for a part with a question (email, number, or at most ${MAX_VALUE} characters of text)`),
    })
    .meta({ id: 'BotReplyBody' }),
  responses: {
    201: {
      description: "The user's answer, a part of the conversation; the bot's next parts (or the line handing over to the team) follow it",
      schema: Part,
    },
    404: { description: 'No such conversation, or the messenger is switched off for this app' },
    409: {
      description:
        "Not now: part_id is not the bot's current question (bot_question_stale: answered already, another part, or the team took over), the part offered no such button or asks for a value (bot_button_unknown), the bot handed the conversation to the team (bot_handed_over); or the user was erased (erased)",
    },
    422: { description: 'The value is not what the question asks for (value_invalid, naming value)' },
  },
  errors: [400, 401, 403, 404, 409, 422, 429],
  async handle(ctx, { params, body }) {
    const part = await answerBot(ctx.state.context, params.conversation_id, {
      partId: body.part_id,
      button: body.button || null,
      value: body.value ?? null,
    });
    return { status: 201, body: (await presentParts(ctx, [part]))[0] };
  },
});
