import type { z } from 'zod';
import type { ConversationPart } from '../../src/generated/prisma/client.js';
import { pictureAddress } from '../../src/domain/attachments/addresses.js';
import type { Picture } from '../../src/domain/attachments/use.js';
import type { Offered } from '../../src/domain/bot/turns.js';
import type { Ctx } from '../../src/domain/context.js';
import { picturesOf } from '../../src/domain/conversations/attachments.js';
import type { ListedConversation, SeenConversation } from '../../src/domain/conversations/conversations.js';
import type { ShownPart } from '../../src/domain/conversations/parts.js';
import type { Conversation, ConversationSummary, PartBlock, PictureAnswer } from '../guest/conversations.schemas.js';

// The person's conversations and their parts as the guest routes answer them (a ticket's
// conversation, the messenger home and the help bot's answers included).

const AUTHOR_KINDS = { contact: 'user', staff: 'teammate', bot: 'bot', system: 'system' } as const;

async function presentPicture(ctx: Ctx, appModeId: string, p: Picture): Promise<z.output<typeof PictureAnswer>> {
  const read = await pictureAddress(ctx, appModeId, p);
  return {
    id: p.id,
    content_type: p.contentType as z.output<typeof PictureAnswer>['content_type'],
    bytes: p.size,
    width: p.width,
    height: p.height,
    url: read.url,
    url_expires_at: read.expiresAt.toISOString(),
  };
}

function presentPart(p: ShownPart, pictures: z.output<typeof PictureAnswer>[]) {
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

export async function presentParts(context: Ctx, parts: ShownPart[]) {
  const pictures = await picturesOf(context, parts);
  const shown = (p: ShownPart) =>
    Promise.all((pictures.get(p.id) ?? []).map((picture: Picture) => presentPicture(context, p.appModeId, picture)));
  return Promise.all(parts.map(async (p) => presentPart(p, await shown(p))));
}

const visibleState = (state: string): 'open' | 'closed' => (state === 'closed' ? 'closed' : 'open');

export const presentSummary = (c: ListedConversation): z.input<typeof ConversationSummary> => ({
  id: c.id,
  preview: c.preview,
  unread: c.unread,
  state: visibleState(c.state),
  last_seq: c.visibleSeq,
  updated_at: c.visibleActivityAt.toISOString(),
});

export async function presentConversation(
  context: Ctx,
  { conversation: c, parts, partsBefore, unread }: SeenConversation,
): Promise<z.input<typeof Conversation>> {
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
    parts: await presentParts(context, parts),
    parts_before: partsBefore,
  };
}

/** A long poll's answer: what is new (parts empty when the wait ran out), and the seq to ask after next. */
export async function presentUpdate(context: Ctx, update: { parts: ShownPart[]; lastSeq: number }) {
  return { parts: await presentParts(context, update.parts), last_seq: update.lastSeq };
}
