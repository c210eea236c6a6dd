import type { Conversation } from '../../generated/prisma/client.js';
import type { StaffCaller, TxCtx } from '../context.js';
import { DomainError, invalidField } from '../errors.js';

// The held reply ("traffic cop"): a reply or note says the last part its writer saw; when parts by
// someone else (the person, another member, the bot, the service) came after it, it is not added
// but refused with those parts, so the writer reads them first and sends again knowingly. Checked
// under the conversation's row lock (holdConversation), which every part's writer takes first:
// of writers who saw the same part, the first adds theirs and the others are held.

/** What a writer saw: the seq of the last part shown to them, and whether to send whatever came since. */
export interface SeenParts {
  seenPartSeq?: number | null;
  force?: boolean | null;
}

/** Newer parts named in the refusal at most (their count says how many there are). */
export const MAX_NEWER_LISTED = 20;

/** Refuses with `newer_parts` when parts by someone else came after the seq the writer saw; nothing when they did not say. */
export async function holdIfUnseen(tx: TxCtx<StaffCaller>, conversation: Conversation, seen: SeenParts): Promise<void> {
  const after = seen.seenPartSeq;
  if (after == null || seen.force) return;
  if (after < 0) throw invalidField('seenPartSeq', 'must be 0 or more');
  if (after > conversation.lastSeq) throw invalidField('seenPartSeq', `is after the conversation's last part (${conversation.lastSeq})`);
  if (after === conversation.lastSeq) return;
  const where = {
    conversationId: conversation.id,
    seq: { gt: after },
    NOT: { authorKind: 'staff' as const, authorId: tx.caller.staffUser.id },
  };
  const [count, newer] = await Promise.all([
    tx.db.conversationPart.count({ where }),
    tx.db.conversationPart.findMany({
      where,
      orderBy: { seq: 'asc' },
      take: MAX_NEWER_LISTED,
      select: { id: true, seq: true, kind: true, authorKind: true },
    }),
  ]);
  if (!count) return;
  throw new DomainError(
    409,
    'newer_parts',
    'Newer parts came first',
    `${count} newer part${count === 1 ? '' : 's'} by someone else came after part ${after}: show ${count === 1 ? 'it' : 'them'}, then send again with seenPartSeq ${conversation.lastSeq}, or with force: true.`,
    [],
    {},
    { newerParts: { count, lastSeq: conversation.lastSeq, parts: newer } },
  );
}
