import { rows, sql } from '../../db/sql.js';
import { transaction, type Ctx, type StaffCaller } from '../context.js';
import { invalidField } from '../errors.js';
import { markReadTo } from '../conversations/read.js';
import { conversationById } from './conversation.js';

// How far each team member has read each conversation: the console's unread marks. A conversation
// is unread for a member while its last part (of any kind) is beyond their mark; the console moves
// the mark as it shows the conversation's newest part. Marks are the member's own (no one reads
// another's) and only move forward, as the person's do (conversation_read, reader_kind staff).

/** How many conversations one ask of the marks may name: a page of the inbox and then some. */
export const MAX_READ_MARKS_ASKED = 200;

/** Moves the member's mark on the conversation up to `seq` (never back, never past its last part); the mark now. */
export async function markReadByStaff(ctx: Ctx<StaffCaller>, conversationId: string, seq: number): Promise<number> {
  if (!Number.isSafeInteger(seq) || seq < 0) throw invalidField('seq', 'must be a part’s seq, 0 or more');
  return transaction(ctx, async (tx) => {
    const conversation = await conversationById(tx, conversationId);
    const reader = { kind: 'staff' as const, id: ctx.caller.staffUser.id };
    await markReadTo(tx, conversation, reader, Math.min(seq, conversation.lastSeq));
    const [mark] = await readMarks(tx, [conversationId]);
    return mark?.readSeq ?? 0;
  });
}

export interface ReadMark {
  conversationId: string;
  readSeq: number;
}

/** The member's own marks on the conversations named (those never read have none). */
export async function readMarks(ctx: Ctx<StaffCaller>, conversationIds: readonly string[]): Promise<ReadMark[]> {
  if (conversationIds.length > MAX_READ_MARKS_ASKED) throw invalidField('ids', `must name at most ${MAX_READ_MARKS_ASKED} conversations`);
  if (conversationIds.length === 0) return [];
  return rows<ReadMark>(
    ctx,
    sql`SELECT conversation_id AS "conversationId", last_read_seq AS "readSeq" FROM conversation_read
        WHERE reader_kind = 'staff' AND reader_id = ${ctx.caller.staffUser.id} AND conversation_id = ANY(${[...conversationIds]}::text[])`,
  );
}
