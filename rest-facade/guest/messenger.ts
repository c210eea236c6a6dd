import { messengerHome } from '../../src/domain/messenger-home/home.js';
import { defineRoute } from '../http/route.js';
import { presentMessengerHome } from '../presenters/messenger.js';
import { MessengerHomeAnswer } from './messenger.schemas.js';

// GET /messenger: the messenger home, everything the messenger shows when it opens, in one answer.

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
      body: presentMessengerHome(
        ctx.state.context.svc.config.baseUrl,
        await messengerHome(ctx.state.context, { acceptLanguage: ctx.get('Accept-Language') || undefined }),
      ),
    };
  },
});
