import { z } from 'zod';
import { pageQuery } from '../shapes/page.js';
import { ATTACHMENT_TYPES } from '../../src/domain/attachments/limits.js';
import { VALUE_KINDS } from '../../src/domain/bot/values.js';
import { MAX_PICTURES } from '../../src/domain/conversations/attachments.js';
import { MAX_TEXT } from '../../src/domain/conversations/content.js';
import { DEFAULT_LIST, MAX_LIST } from '../../src/domain/conversations/conversations.js';
import { IDEMPOTENCY_HEADER, IDEMPOTENCY_HOURS, MAX_IDEMPOTENCY_KEY } from '../../src/domain/conversations/idempotency.js';
import { MAX_PARTS } from '../../src/domain/conversations/parts.js';
import { MAX_RATING, MAX_REMARK } from '../../src/domain/conversations/rating.js';
import { Span } from '../shapes/content.js';

// The messenger's conversations on the wire: what the person sends, and the conversations and
// parts answered (also in a ticket, the messenger home and the help bot's answers).

const instant = z.iso.datetime({ offset: true });

const wholeNumber = (message: string) =>
  z
    .string()
    .regex(/^[0-9]{1,9}$/, message)
    .transform(Number);

// --- Requests ----------------------------------------------------------------------------------

export const ConversationParams = z.object({ conversation_id: z.string().describe('The conversation id a start answered') });

export const ConversationListQuery = pageQuery('Conversations', MAX_LIST, DEFAULT_LIST);

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

export const StartBody = z
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
  .meta({ id: 'StartBody' });

export const MessageBody = z
  .object({
    text: text.describe(`What the user wrote, at most ${MAX_TEXT} characters; may be empty when pictures are sent`),
    attachment_ids: attachmentIds,
  })
  .meta({ id: 'MessageBody' });

export const RatingBody = z
  .object({
    rating: z.number().int().min(1).max(MAX_RATING).describe(`1 (bad) to ${MAX_RATING} (great)`),
    remark: z.string().max(MAX_REMARK).nullable().optional().describe(`At most ${MAX_REMARK} characters`),
  })
  .meta({ id: 'RatingBody' });

export const ReadBody = z
  .object({
    seq: z
      .number()
      .int()
      .min(0)
      .max(2_147_483_647)
      .describe("The seq of the last part read; beyond the conversation's last_seq reads up to it"),
  })
  .meta({ id: 'ReadBody' });

export const ConversationQuery = z.object({
  before: wholeNumber('must be a whole number, the parts_before of the page read')
    .optional()
    .describe(
      `A seq (the \`parts_before\` of the page read): answers the newest ${MAX_PARTS} parts older than it; the newest when left out`,
    ),
});

export const WaitQuery = z.object({
  after: wholeNumber('must be a whole number, the last_seq already held')
    .optional()
    .describe('The last_seq already held; 0 (the default) for every part'),
});

// --- Answers -----------------------------------------------------------------------------------

/** A picture of a part as guests see it, with a short-lived address to read it. */
export const PictureAnswer = z
  .object({
    id: z.string(),
    content_type: z.enum(ATTACHMENT_TYPES),
    bytes: z.int(),
    width: z.int().nullable().describe('Pixels, when the picture header gives them'),
    height: z.int().nullable(),
    url: z.string().describe('Where to GET the picture; short-lived'),
    url_expires_at: z.iso.datetime({ offset: true }),
  })
  .meta({ id: 'Picture' });

export const PartBlock = z
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
    parts: z
      .array(Part)
      .describe(`The newest ${MAX_PARTS} parts the user may see (those before \`before\` when asked), oldest first (team notes never)`),
    parts_before: z
      .number()
      .int()
      .nullable()
      .describe(
        `Older parts start before this seq: GET /guest/v1/conversations/{id}?before=parts_before answers the ${MAX_PARTS} before it; null when \`parts\` begins with the first part the user may see`,
      ),
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

export const ConversationPage = z
  .object({
    items: z.array(ConversationSummary),
    next_before: z.string().nullable().describe('Pass as `before` for the next (older) page; null on the last page'),
  })
  .meta({ id: 'ConversationPage' });

export const ConversationUpdate = z
  .object({
    parts: z
      .array(Part)
      .describe(`Parts newer than \`after\` the user may see, oldest first, at most ${MAX_PARTS}; empty when the wait ran out`),
    last_seq: z.number().int().describe('The version this answer brings the client to: wait again with after = last_seq'),
  })
  .meta({ id: 'ConversationUpdate' });

export const UnreadCount = z
  .object({
    unread: z.number().int().describe('Unread parts of this conversation'),
    total: z.number().int().describe("Unread parts over all the user's conversations"),
  })
  .meta({ id: 'UnreadCount' });
