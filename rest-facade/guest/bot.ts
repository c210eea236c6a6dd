import { answerBot } from '../../src/domain/bot/reply.js';
import { defineRoute } from '../http/route.js';
import { presentParts } from '../presenters/conversations.js';
import { BotReplyBody } from './bot.schemas.js';
import { ConversationParams, Part } from './conversations.schemas.js';

// The help bot, the person's side: answering the bot's current question in a conversation.

export const postGuestBotReply = defineRoute({
  method: 'post',
  path: '/guest/v1/conversations/{conversation_id}/bot',
  surface: 'guest',
  tag: 'Messenger',
  summary: "The user answers the help bot's current question: a button it offers, or the value it asks for; the bot's next parts follow",
  params: ConversationParams,
  body: BotReplyBody,
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
    return { status: 201, body: (await presentParts(ctx.state.context, [part]))[0] };
  },
});
