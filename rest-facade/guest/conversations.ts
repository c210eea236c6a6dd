import { getConversation, listConversations } from '../../src/domain/conversations/conversations.js';
import { IDEMPOTENCY_HEADER } from '../../src/domain/conversations/idempotency.js';
import { sendMessage } from '../../src/domain/conversations/messages.js';
import { MAX_PARTS } from '../../src/domain/conversations/parts.js';
import { markRead } from '../../src/domain/conversations/read.js';
import { rateConversation } from '../../src/domain/conversations/rating.js';
import { startConversation } from '../../src/domain/conversations/start.js';
import { waitForUpdate, type ConversationUpdate as Update } from '../../src/domain/conversations/updates.js';
import { defineRoute } from '../http/route.js';
import { presentConversation, presentParts, presentSummary, presentUpdate } from '../presenters/conversations.js';
import {
  Conversation,
  ConversationListQuery,
  ConversationPage,
  ConversationParams,
  ConversationQuery,
  ConversationUpdate,
  IdempotencyHeaders,
  MessageBody,
  Part,
  RatingBody,
  ReadBody,
  StartBody,
  UnreadCount,
  WaitQuery,
} from './conversations.schemas.js';

// The person's side of the messenger: their conversations, starting one, writing, rating, reading
// and the long poll. Every route answers 404 while the app's messenger is switched off.

const TAG = 'Messenger';
const MESSENGER_OFF = 'No such conversation, or the messenger is switched off for this app';

export const listGuestConversations = defineRoute({
  method: 'get',
  path: '/guest/v1/conversations',
  surface: 'guest',
  tag: TAG,
  summary: "The user's conversations, the latest activity first",
  query: ConversationListQuery,
  responses: {
    200: { description: 'A page of conversations', schema: ConversationPage },
    404: { description: 'The messenger is switched off for this app' },
  },
  errors: [400, 401, 403, 404, 429],
  async handle(ctx, { query }) {
    const page = await listConversations(ctx.state.context, { before: query.before, limit: query.limit });
    return {
      status: 200,
      body: {
        items: page.items.map(presentSummary),
        next_before: page.nextBefore,
      },
    };
  },
});

export const startGuestConversation = defineRoute({
  method: 'post',
  path: '/guest/v1/conversations',
  surface: 'guest',
  tag: TAG,
  summary: 'Start a conversation with what the user wrote, or the opening button they tapped',
  headers: IdempotencyHeaders,
  body: StartBody,
  responses: {
    201: { description: 'The conversation (also when the same Idempotency-Key is sent again)', schema: Conversation },
    404: { description: 'The messenger is switched off for this app' },
    409: {
      description:
        "The app's start rule forbids it now (code start_refused: people do not start conversations; conversation_open: one of theirs is open), or the user was erased (erased)",
    },
    422: {
      description:
        'A picture cannot be used (attachment_invalid), more than four (too_many_pictures), or the Idempotency-Key was used for another request (idempotency_key_reused)',
    },
  },
  errors: [400, 401, 403, 404, 409, 422, 429],
  async handle(ctx, { headers, body }) {
    const seen = await startConversation(ctx.state.context, {
      text: body.text,
      attachmentIds: body.attachment_ids ?? [],
      button: body.button || null,
      opening: body.opening ?? null,
      idempotencyKey: headers[IDEMPOTENCY_HEADER],
    });
    return { status: 201, body: await presentConversation(ctx.state.context, seen) };
  },
});

export const getGuestConversation = defineRoute({
  method: 'get',
  path: '/guest/v1/conversations/{conversation_id}',
  surface: 'guest',
  tag: TAG,
  summary: `One of the user's conversations, with the newest ${MAX_PARTS} parts they may see; older ones page by page with \`before\``,
  params: ConversationParams,
  query: ConversationQuery,
  responses: {
    200: {
      description: `The conversation with a page of parts: the newest ${MAX_PARTS} the user may see, or the ${MAX_PARTS} before \`before\`. While \`parts_before\` is not null, ask again with before = parts_before for the older ones: every part the user may see is reachable, and no answer carries more than ${MAX_PARTS}.`,
      schema: Conversation,
    },
    404: { description: MESSENGER_OFF },
  },
  errors: [400, 401, 403, 404, 429],
  async handle(ctx, { params, query }) {
    const seen = await getConversation(ctx.state.context, params.conversation_id, { before: query.before });
    return { status: 200, body: await presentConversation(ctx.state.context, seen) };
  },
});

export const postGuestMessage = defineRoute({
  method: 'post',
  path: '/guest/v1/conversations/{conversation_id}/messages',
  surface: 'guest',
  tag: TAG,
  summary: 'The user writes in a conversation (a closed or snoozed one is open again)',
  params: ConversationParams,
  headers: IdempotencyHeaders,
  body: MessageBody,
  responses: {
    201: { description: 'The part (also when the same Idempotency-Key is sent again)', schema: Part },
    404: { description: MESSENGER_OFF },
    409: { description: 'The user was erased (erased)' },
    422: {
      description:
        'A picture cannot be used (attachment_invalid), more than four (too_many_pictures), or the Idempotency-Key was used for another request (idempotency_key_reused)',
    },
  },
  errors: [400, 401, 403, 404, 409, 422, 429],
  async handle(ctx, { params, headers, body }) {
    const part = await sendMessage(ctx.state.context, params.conversation_id, {
      text: body.text,
      attachmentIds: body.attachment_ids ?? [],
      idempotencyKey: headers[IDEMPOTENCY_HEADER],
    });
    return { status: 201, body: (await presentParts(ctx.state.context, [part]))[0] };
  },
});

export const rateGuestConversation = defineRoute({
  method: 'post',
  path: '/guest/v1/conversations/{conversation_id}/rating',
  surface: 'guest',
  tag: TAG,
  summary: 'The user rates a closed conversation that asked for it, once',
  params: ConversationParams,
  body: RatingBody,
  responses: {
    200: { description: 'The rating, a part of the conversation', schema: Part },
    404: { description: MESSENGER_OFF },
    409: {
      description:
        'Not now: the conversation is not closed (conversation_not_closed), the team did not ask (rating_not_asked), it was rated already (already_rated); or the user was erased (erased)',
    },
  },
  errors: [400, 401, 403, 404, 409, 429],
  async handle(ctx, { params, body }) {
    const part = await rateConversation(ctx.state.context, params.conversation_id, {
      rating: body.rating,
      remark: body.remark?.trim() ? body.remark : null,
    });
    return { status: 200, body: (await presentParts(ctx.state.context, [part]))[0] };
  },
});

export const readGuestConversation = defineRoute({
  method: 'post',
  path: '/guest/v1/conversations/{conversation_id}/read',
  surface: 'guest',
  tag: TAG,
  summary: 'The user has read the conversation up to a part (the mark never moves back)',
  params: ConversationParams,
  body: ReadBody,
  responses: {
    200: { description: 'What is left unread', schema: UnreadCount },
    404: { description: MESSENGER_OFF },
    409: { description: 'The user was erased (erased)' },
  },
  errors: [400, 401, 403, 404, 409, 429],
  async handle(ctx, { params, body }) {
    return { status: 200, body: await markRead(ctx.state.context, params.conversation_id, body.seq) };
  },
});

export const waitGuestConversation = defineRoute({
  method: 'get',
  path: '/guest/v1/conversations/{conversation_id}/wait',
  surface: 'guest',
  tag: TAG,
  summary: 'Long poll: answers as soon as the conversation has a part newer than `after`, or after about 25 seconds with none',
  params: ConversationParams,
  query: WaitQuery,
  responses: {
    200: {
      description: 'What is new (parts empty when the wait ran out); ask again at once with after = last_seq',
      schema: ConversationUpdate,
    },
    404: { description: MESSENGER_OFF },
  },
  errors: [400, 401, 403, 404, 429],
  async handle(ctx, { params, query }) {
    const context = ctx.state.context;
    let answer!: (update: Update | undefined, failed?: unknown) => void;
    const update = new Promise<Update>((resolve, reject) => {
      answer = (u, failed) => (u ? resolve(u) : reject(failed));
    });
    const answerOf = async (u: Update) => ({ status: 200, body: await presentUpdate(context, u) });
    const outcome = await waitForUpdate(context, params.conversation_id, query.after ?? 0, {
      timeoutMs: context.svc.config.conversationWaitMs,
      answer,
    });
    if ('now' in outcome) return answerOf(outcome.now);
    // Held: the client going away ends the wait (and its watch) at once, also when it went during the first read
    // ('close' comes once; after the answer, cancel does nothing).
    if (ctx.req.socket.destroyed) outcome.held.cancel();
    else ctx.res.on('close', outcome.held.cancel);
    return { status: 200, later: update.then(answerOf) };
  },
});

export const conversationRoutes = [
  listGuestConversations,
  startGuestConversation,
  getGuestConversation,
  postGuestMessage,
  rateGuestConversation,
  readGuestConversation,
  waitGuestConversation,
];
