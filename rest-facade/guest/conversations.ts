import { z } from 'zod';
import type { ConversationPart } from '../../src/generated/prisma/client.js';
import type { Picture } from '../../src/domain/attachments/use.js';
import type { Offered } from '../../src/domain/bot/turns.js';
import { VALUE_KINDS } from '../../src/domain/bot/values.js';
import { picturesOf, MAX_PICTURES } from '../../src/domain/conversations/attachments.js';
import { MAX_TEXT } from '../../src/domain/conversations/content.js';
import {
  DEFAULT_LIST,
  getConversation,
  listConversations,
  MAX_LIST,
  type ListedConversation,
  type SeenConversation,
} from '../../src/domain/conversations/conversations.js';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_HOURS, MAX_IDEMPOTENCY_KEY } from '../../src/domain/conversations/idempotency.js';
import { sendMessage } from '../../src/domain/conversations/messages.js';
import { markRead } from '../../src/domain/conversations/read.js';
import { MAX_RATING, MAX_REMARK, rateConversation } from '../../src/domain/conversations/rating.js';
import { startConversation } from '../../src/domain/conversations/start.js';
import { MAX_UPDATE_PARTS, waitForUpdate } from '../../src/domain/conversations/updates.js';
import { defineRoute, type RouteContext } from '../http/route.js';
import { PictureAnswer, presentPicture } from './attachments.js';

// The person's side of the messenger: their conversations, starting one, writing, rating, reading
// and the long poll. Every route answers 404 while the app's messenger is switched off.

const TAG = 'Messenger';
const instant = z.iso.datetime({ offset: true });
const MESSENGER_OFF = 'No such conversation, or the messenger is switched off for this app';

const wholeNumber = (message: string) =>
  z
    .string()
    .regex(/^[0-9]{1,9}$/, message)
    .transform(Number);

const ConversationParams = z.object({ conversation_id: z.string().describe('The conversation id a start answered') });

export const IdempotencyHeaders = z.object({
  [IDEMPOTENCY_HEADER]: z
    .string()
    .max(MAX_IDEMPOTENCY_KEY, `must be at most ${MAX_IDEMPOTENCY_KEY} characters`)
    .regex(/^[\x21-\x7e][\x20-\x7e]*$/, 'must be printable ASCII characters, not starting with a space')
    .optional()
    .describe(
      `Up to ${MAX_IDEMPOTENCY_KEY} characters, new for each request (a UUID). The same key sent again by the same user within ${IDEMPOTENCY_HOURS} hours (after a timeout, or at the same moment) is answered what the first made, and nothing is made twice; with another request it is refused (422 idempotency_key_reused). Without it, each request makes something new.`,
    ),
});

const attachmentIds = z
  .array(z.string().min(1).max(100))
  .optional()
  .describe(
    `Up to ${MAX_PICTURES} pictures already uploaded (POST /attachments) by this user and not yet sent; more is 422 too_many_pictures, one that cannot be used 422 attachment_invalid naming attachment_ids.<index>`,
  );

const text = z.string().max(MAX_TEXT, `must be at most ${MAX_TEXT} characters`);

export const MessageBody = z
  .object({
    text: text.describe(`What the user wrote, at most ${MAX_TEXT} characters; may be empty when pictures are sent`),
    attachment_ids: attachmentIds,
  })
  .meta({ id: 'MessageBody' });

// --- Answers ---------------------------------------------------------------------------------

const Span = z.object({ text: z.string() }).meta({ id: 'PartSpan' });

const PartBlock = z
  .looseObject({
    type: z
      .string()
      .describe(
        '`paragraph` for what people write (one per run of text between blank lines); team and bot parts may carry other content block types',
      ),
    spans: z.array(Span).optional(),
  })
  .describe('A content block (ContentBlock)')
  .meta({ id: 'PartBlock' });

const AUTHOR_KINDS = { contact: 'user', staff: 'teammate', bot: 'bot', system: 'system' } as const;

export const Part = z
  .object({
    id: z.string(),
    seq: z.number().int().describe('Counts up from 1 within the conversation; a gap is a part the user does not see'),
    kind: z
      .enum(['message', 'event', 'rating', 'bot'])
      .describe(
        "message: written by the user or a teammate; event: a line saying what happened (see `event`); rating: the user's rating; bot: the help bot",
      ),
    author: z.object({
      kind: z.enum(['user', 'teammate', 'bot', 'system']).describe("user: the signed-in user; teammate: a member of the app's team"),
      name: z.string().describe('As it was when the part was written'),
      avatar_url: z.string().nullable(),
    }),
    blocks: z.array(PartBlock),
    attachments: z.array(PictureAnswer).describe('Pictures sent with it, each with a short-lived address to read it'),
    button: z.string().optional().describe('The id of the button the user tapped instead of writing'),
    event: z.string().optional().describe('For an event line: what happened, such as `closed` or `reopened`'),
    rating: z.object({ value: z.number().int(), remark: z.string().nullable() }).optional().describe('For a rating'),
    rating_asked: z.boolean().optional().describe('For a `closed` event line: whether the team asks the user to rate the conversation'),
    buttons: z
      .array(z.object({ id: z.string(), label: z.string() }).meta({ id: 'BotButton' }))
      .optional()
      .describe(
        "For a bot part: the buttons it offers; while it is the conversation's bot_part_id, tapping one is POST …/bot with its id as button",
      ),
    question: z
      .object({ kind: z.enum(VALUE_KINDS).describe('What it asks for: an email address, a number, or a few words') })
      .optional()
      .describe("For a bot part: the value it asks for; while it is the conversation's bot_part_id, the answer is POST …/bot with value"),
    created_at: instant,
  })
  .meta({ id: 'Part' });

const Rating = z.object({ value: z.number().int().min(1).max(MAX_RATING), remark: z.string().nullable(), rated_at: instant });

export const Conversation = z
  .object({
    id: z.string(),
    state: z.enum(['open', 'closed']).describe('A conversation the team snoozed is open to the user'),
    last_seq: z.number().int().describe('The seq of the latest part the user may see: the `after` of the next wait'),
    unread: z.number().int().describe('Parts by others the user has not read (POST …/read)'),
    preview: z.string(),
    created_at: instant,
    updated_at: instant.describe('When the latest part the user may see was added'),
    rating_asked: z.boolean().describe('The conversation is closed and the team asks the user to rate it (POST …/rating, once)'),
    rating: Rating.nullable().describe('The rating the user gave, once'),
    bot_part_id: z
      .string()
      .nullable()
      .describe("The help bot's part awaiting the user's answer (POST …/bot with it as part_id); null when the bot waits for nothing"),
    parts: z.array(Part).describe('Every part the user may see, oldest first (team notes never)'),
  })
  .meta({ id: 'Conversation' });

export const ConversationSummary = z
  .object({
    id: z.string(),
    preview: z.string().describe('The start of the latest part the user may see'),
    unread: z.number().int(),
    state: z.enum(['open', 'closed']),
    last_seq: z.number().int(),
    updated_at: instant,
  })
  .meta({ id: 'ConversationSummary' });

const ConversationPage = z
  .object({
    items: z.array(ConversationSummary),
    next_before: z.string().nullable().describe('Pass as `before` for the next (older) page; null on the last page'),
  })
  .meta({ id: 'ConversationPage' });

const ConversationUpdate = z
  .object({
    parts: z
      .array(Part)
      .describe(`Parts newer than \`after\` the user may see, oldest first, at most ${MAX_UPDATE_PARTS}; empty when the wait ran out`),
    last_seq: z.number().int().describe('The version this answer brings the client to: wait again with after = last_seq'),
  })
  .meta({ id: 'ConversationUpdate' });

export const UnreadCount = z
  .object({
    unread: z.number().int().describe('Unread parts of this conversation'),
    total: z.number().int().describe("Unread parts over all the user's conversations"),
  })
  .meta({ id: 'UnreadCount' });

// --- Presenting --------------------------------------------------------------------------------

function presentPart(p: ConversationPart, pictures: z.output<typeof PictureAnswer>[]) {
  const data = (p.data ?? {}) as { rating?: number; remark?: string | null; rating_asked?: boolean } & Partial<Offered>;
  return {
    id: p.id,
    seq: p.seq,
    kind: p.kind as 'message' | 'event' | 'rating' | 'bot',
    author: { kind: AUTHOR_KINDS[p.authorKind], name: p.authorName, avatar_url: p.authorAvatarUrl },
    blocks: p.blocks as z.infer<typeof PartBlock>[],
    attachments: pictures,
    ...(p.button ? { button: p.button } : {}),
    ...(p.event ? { event: p.event } : {}),
    ...(p.kind === 'rating' ? { rating: { value: data.rating ?? 0, remark: data.remark ?? null } } : {}),
    ...(p.event === 'closed' ? { rating_asked: data.rating_asked === true } : {}),
    ...(p.kind === 'bot' && data.buttons?.length ? { buttons: data.buttons.map((b) => ({ id: b.id, label: b.label })) } : {}),
    ...(p.kind === 'bot' && data.question ? { question: { kind: data.question.kind } } : {}),
    created_at: p.createdAt.toISOString(),
  };
}

export async function presentParts(ctx: RouteContext<'guest'>, parts: ConversationPart[]) {
  const { context } = ctx.state;
  const pictures = await picturesOf(context, parts);
  const shown = (p: ConversationPart) =>
    Promise.all((pictures.get(p.id) ?? []).map((picture: Picture) => presentPicture(context, p.appModeId, picture)));
  return Promise.all(parts.map(async (p) => presentPart(p, await shown(p))));
}

const visibleState = (state: string) => (state === 'closed' ? 'closed' : 'open');

export const presentSummary = (c: ListedConversation): z.input<typeof ConversationSummary> => ({
  id: c.id,
  preview: c.preview,
  unread: c.unread,
  state: visibleState(c.state),
  last_seq: c.visibleSeq,
  updated_at: c.visibleActivityAt.toISOString(),
});

export async function presentConversation(ctx: RouteContext<'guest'>, { conversation: c, parts, unread }: SeenConversation) {
  return {
    id: c.id,
    state: visibleState(c.state),
    last_seq: c.visibleSeq,
    unread,
    preview: c.preview,
    created_at: c.createdAt.toISOString(),
    updated_at: c.visibleActivityAt.toISOString(),
    rating_asked: c.state === 'closed' && c.ratingAsked && c.rating === null,
    rating: c.rating === null ? null : { value: c.rating, remark: c.ratingRemark, rated_at: (c.ratedAt ?? c.updatedAt).toISOString() },
    bot_part_id: c.botPartId,
    parts: await presentParts(ctx, parts),
  };
}

// --- Routes ------------------------------------------------------------------------------------

export const listGuestConversations = defineRoute({
  method: 'get',
  path: '/guest/v1/conversations',
  surface: 'guest',
  tag: TAG,
  summary: "The user's conversations, the latest activity first",
  query: z.object({
    before: z.string().max(500).optional().describe("The previous page's `next_before`"),
    limit: wholeNumber(`must be a whole number from 1 to ${MAX_LIST}`)
      .refine((n) => n >= 1 && n <= MAX_LIST, `must be a whole number from 1 to ${MAX_LIST}`)
      .optional()
      .describe(`Conversations per page, 1 to ${MAX_LIST}; ${DEFAULT_LIST} when left out`),
  }),
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
  body: z
    .object({
      text: text.describe(`What the user wrote, at most ${MAX_TEXT} characters; empty when they tapped a button (or sent only pictures)`),
      attachment_ids: attachmentIds,
      button: z
        .string()
        .max(100)
        .nullable()
        .optional()
        .describe("The id of the opening's button tapped, with no words or pictures; empty when they wrote"),
      opening: z
        .object({ id: z.string().min(1).max(100), version: z.number().int().min(0).optional() })
        .meta({ id: 'OpeningRef' })
        .nullable()
        .optional()
        .describe('The opening the user was shown; null for none'),
    })
    .meta({ id: 'StartBody' }),
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
    return { status: 201, body: await presentConversation(ctx, seen) };
  },
});

export const getGuestConversation = defineRoute({
  method: 'get',
  path: '/guest/v1/conversations/{conversation_id}',
  surface: 'guest',
  tag: TAG,
  summary: "One of the user's conversations, with every part they may see",
  params: ConversationParams,
  responses: { 200: { description: 'The conversation', schema: Conversation }, 404: { description: MESSENGER_OFF } },
  errors: [400, 401, 403, 404, 429],
  async handle(ctx, { params }) {
    return { status: 200, body: await presentConversation(ctx, await getConversation(ctx.state.context, params.conversation_id)) };
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
    return { status: 201, body: (await presentParts(ctx, [part]))[0] };
  },
});

export const rateGuestConversation = defineRoute({
  method: 'post',
  path: '/guest/v1/conversations/{conversation_id}/rating',
  surface: 'guest',
  tag: TAG,
  summary: 'The user rates a closed conversation that asked for it, once',
  params: ConversationParams,
  body: z
    .object({
      rating: z.number().int().min(1).max(MAX_RATING).describe(`1 (bad) to ${MAX_RATING} (great)`),
      remark: z.string().max(MAX_REMARK).nullable().optional().describe(`At most ${MAX_REMARK} characters`),
    })
    .meta({ id: 'RatingBody' }),
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
    return { status: 200, body: (await presentParts(ctx, [part]))[0] };
  },
});

export const readGuestConversation = defineRoute({
  method: 'post',
  path: '/guest/v1/conversations/{conversation_id}/read',
  surface: 'guest',
  tag: TAG,
  summary: 'The user has read the conversation up to a part (the mark never moves back)',
  params: ConversationParams,
  body: z
    .object({
      seq: z
        .number()
        .int()
        .min(0)
        .max(2_147_483_647)
        .describe("The seq of the last part read; beyond the conversation's last_seq reads up to it"),
    })
    .meta({ id: 'ReadBody' }),
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
  query: z.object({
    after: wholeNumber('must be a whole number, the last_seq already held')
      .optional()
      .describe('The last_seq already held; 0 (the default) for every part'),
  }),
  responses: {
    200: {
      description: 'What is new (parts empty when the wait ran out); ask again at once with after = last_seq',
      schema: ConversationUpdate,
    },
    404: { description: MESSENGER_OFF },
  },
  errors: [400, 401, 403, 404, 429],
  async handle(ctx, { params, query }) {
    // The client going away ends the wait (and its watch) at once.
    const gone = new AbortController();
    const onClose = () => {
      if (!ctx.res.writableFinished) gone.abort();
    };
    ctx.res.once('close', onClose);
    try {
      const update = await waitForUpdate(ctx.state.context, params.conversation_id, query.after ?? 0, {
        timeoutMs: ctx.state.context.svc.config.conversationWaitMs,
        signal: gone.signal,
      });
      return { status: 200, body: { parts: await presentParts(ctx, update.parts), last_seq: update.lastSeq } };
    } finally {
      ctx.res.off('close', onClose);
    }
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
