// A composer's draft, per conversation, in sessionStorage: it outlives a re-render, the
// conversation changing under it (new parts, another teammate's close or assign), leaving it and
// coming back, and a reload of the tab; it goes when sent. `seenSeq` is the last part shown when
// the draft was begun: sent as `seenPartSeq`, so what came after it is held for the writer to read.

export type DraftKind = 'reply' | 'note';
export interface Draft {
  kind: DraftKind;
  text: string;
  seenSeq: number | null;
}

const key = (conversationId: string) => `crm.console.draft.${conversationId}`;

export function readDraft(conversationId: string): Draft {
  try {
    const d = JSON.parse(sessionStorage.getItem(key(conversationId)) ?? 'null') as Draft | null;
    if (d && (d.kind === 'reply' || d.kind === 'note') && typeof d.text === 'string') return d;
  } catch {}
  return { kind: 'reply', text: '', seenSeq: null };
}

export function keepDraft(conversationId: string, draft: Draft) {
  try {
    if (!draft.text && draft.kind === 'reply') sessionStorage.removeItem(key(conversationId));
    else sessionStorage.setItem(key(conversationId), JSON.stringify(draft));
  } catch {}
}
