import { request } from './api/request';
import { store } from './api/store';
import { ConversationReadMarksDocument, MarkConversationReadDocument } from './generated/graphql';

// The member's own unread marks (conversationReadMarks, markConversationRead): a conversation is
// unread while its last part is beyond how far they have read it. Marks are asked for a page of the
// inbox at a time, and for conversations the live stream brings, a few at once; the console moves
// a mark as it shows a conversation's newest part (only while the tab is seen), at once here and on
// the service a moment later.

/** Read marks by conversation id; a conversation asked about and never read is 0. */
export const readMarks = store<ReadonlyMap<string, number>>(new Map());

const set = (entries: [string, number][]) => {
  const next = new Map(readMarks.get());
  let changed = false;
  for (const [id, seq] of entries) {
    if ((next.get(id) ?? -1) >= seq) continue;
    next.set(id, seq);
    changed = true;
  }
  if (changed) readMarks.set(next);
};

const wanted = new Set<string>();
let asking: ReturnType<typeof setTimeout> | undefined;

/** Asks for the marks of these conversations (those not known yet), together with others asked within 100 ms. */
export function learnReadMarks(ids: string[]) {
  const known = readMarks.get();
  for (const id of ids) if (!known.has(id)) wanted.add(id);
  if (wanted.size === 0 || asking) return;
  asking = setTimeout(() => {
    asking = undefined;
    const batch = [...wanted].slice(0, 200);
    for (const id of batch) wanted.delete(id);
    request(ConversationReadMarksDocument, { ids: batch })
      .then(({ conversationReadMarks: marks }) => {
        const found = new Map(marks.map((m) => [m.conversationId, m.readSeq]));
        set(batch.map((id) => [id, found.get(id) ?? 0]));
      })
      .catch(() => {})
      .finally(() => wanted.size && learnReadMarks([]));
  }, 100);
}

const sending = new Map<string, ReturnType<typeof setTimeout>>();

/** The member has the conversation on screen up to `seq`: unread no more here at once, on the service within a second. */
export function markRead(id: string, seq: number) {
  if ((readMarks.get().get(id) ?? -1) >= seq) return;
  set([[id, seq]]);
  clearTimeout(sending.get(id));
  sending.set(
    id,
    setTimeout(() => {
      sending.delete(id);
      request(MarkConversationReadDocument, { id, seq }).catch(() => {});
    }, 500),
  );
}

export const isUnread = (marks: ReadonlyMap<string, number>, c: { id: string; lastSeq: number }) => {
  const mark = marks.get(c.id);
  return mark !== undefined && c.lastSeq > mark;
};
