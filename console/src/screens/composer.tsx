import { forwardRef } from 'preact/compat';
import { useEffect, useImperativeHandle, useRef, useState } from 'preact/hooks';
import { Refusal, request, messageOf } from '../api/request';
import { keepDraft, readDraft, type Draft, type DraftKind } from '../draft';
import { AddConversationNoteDocument, ReplyToConversationDocument, type PartFragment } from '../generated/graphql';
import { ComposerPictures, filesOf, usePictures } from './composer-pictures';
import { HeldParts, newerPartsOf, type NewerParts } from './held-parts';

// Reply to the person, or a note only the team sees; Ctrl/⌘-Enter sends, Escape leaves the field.
// The draft is kept per conversation (draft.ts) and names the last part shown when it was begun
// (`seenPartSeq`): when someone else wrote since, it is held and those parts are shown first.

export type ComposerKind = DraftKind;
export interface ComposerHandle {
  focus(kind: ComposerKind): void;
}

/** Typing is "fresh" this long after the last keystroke. */
const FRESH_MS = 4000;

interface Props {
  conversationId: string;
  /** The seq of the newest part shown. */
  lastShownSeq: number;
  known: Map<string, PartFragment>;
  authorName(p: PartFragment): string;
  onSent(part: PartFragment): void;
  onTyping(typing: boolean): void;
}

export const Composer = forwardRef<ComposerHandle, Props>(function Composer(props, ref) {
  const { conversationId, lastShownSeq, onTyping } = props;
  const [draft, setDraftState] = useState<Draft>(() => readDraft(conversationId));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [held, setHeld] = useState<NewerParts | undefined>();
  const pictures = usePictures(conversationId);
  const [notice, setNotice] = useState<string | undefined>();
  const [dropping, setDropping] = useState(false);
  const addPictures = (files: File[]) => setNotice(pictures.store.add(files));

  const field = useRef<HTMLTextAreaElement>(null);
  const fresh = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(fresh.current), []);

  const setDraft = (next: Draft) => {
    keepDraft(conversationId, next);
    setDraftState(next);
  };
  const { kind, text } = draft;
  const ids = pictures.ids ?? [];
  // Words or pictures, and every picture uploaded.
  const sendable = (!!text.trim() || ids.length > 0) && !!pictures.ids;
  const setKind = (k: DraftKind) => setDraft({ ...draft, kind: k });
  useImperativeHandle(ref, () => ({
    focus(k) {
      setKind(k);
      field.current?.focus();
    },
  }));

  const typed = (value: string) => {
    // A draft begun now has seen what is shown now; one going on keeps what it had seen.
    setDraft({ ...draft, text: value, seenSeq: value.trim() ? (draft.seenSeq ?? lastShownSeq) : null });
    clearTimeout(fresh.current);
    onTyping(!!value.trim());
    if (value.trim()) fresh.current = setTimeout(() => onTyping(false), FRESH_MS);
  };

  const send = async (force = false) => {
    if (!sendable || busy) return;
    setBusy(true);
    setError(undefined);
    const vars = { id: conversationId, text, seenPartSeq: draft.seenSeq ?? lastShownSeq, force, attachmentIds: ids };
    try {
      const part =
        kind === 'reply'
          ? (await request(ReplyToConversationDocument, vars)).replyToConversation
          : (await request(AddConversationNoteDocument, vars)).addConversationNote;
      clearTimeout(fresh.current);
      onTyping(false);
      setHeld(undefined);
      setDraft({ kind, text: '', seenSeq: null });
      pictures.store.clear();
      setNotice(undefined);
      props.onSent(part);
    } catch (err) {
      const newer = err instanceof Refusal && err.code === 'newer_parts' ? newerPartsOf(err.extensions) : undefined;
      if (newer) setHeld(newer);
      else setError(messageOf(err));
      // A picture refused (swept unused after an hour, say) is marked, to be removed.
      if (err instanceof Refusal) pictures.store.refused(ids, err.fields);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      class={`composer composer-${kind}${dropping ? ' dropping' : ''}`}
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
      // Pictures dropped anywhere on the composer.
      onDragOver={(e) => {
        if (!e.dataTransfer?.types.includes('Files')) return;
        e.preventDefault();
        setDropping(true);
      }}
      onDragLeave={(e) => e.currentTarget === e.target && setDropping(false)}
      onDrop={(e) => {
        setDropping(false);
        const files = filesOf(e.dataTransfer);
        if (!files.length) return;
        e.preventDefault();
        addPictures(files);
      }}
    >
      {held && (
        <HeldParts
          held={held}
          known={props.known}
          authorName={props.authorName}
          onSendAnyway={() => void send(true)}
          onEdit={() => {
            // Read now: a send from here names them as seen.
            setDraft({ ...draft, seenSeq: held.lastSeq });
            setHeld(undefined);
            field.current?.focus();
          }}
        />
      )}
      <div class="tabs" role="radiogroup" aria-label="Write">
        {(['reply', 'note'] as const).map((k) => (
          <button key={k} type="button" role="radio" aria-checked={kind === k} class={kind === k ? 'on' : ''} onClick={() => setKind(k)}>
            {k === 'reply' ? 'Reply' : 'Note'}
          </button>
        ))}
      </div>
      <label for="composer-text" class="visually-hidden">
        {kind === 'reply' ? 'Reply to the person' : 'Internal note, seen by the team only'}
      </label>
      <textarea
        id="composer-text"
        ref={field}
        rows={3}
        value={text}
        placeholder={kind === 'reply' ? 'Reply (r); Ctrl+Enter sends' : 'Internal note (n): only the team sees it'}
        onInput={(e) => typed(e.currentTarget.value)}
        onPaste={(e) => {
          // A picture pasted (a screenshot, an image copied) joins the pictures; words paste as words.
          const files = filesOf(e.clipboardData);
          if (!files.length) return;
          e.preventDefault();
          addPictures(files);
        }}
        onKeyDown={(e) => {
          if ((e.ctrlKey || e.metaKey) && (e.code === 'Enter' || e.code === 'NumpadEnter')) (e.preventDefault(), void send());
          if (e.code === 'Escape') e.currentTarget.blur();
        }}
      />
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <ComposerPictures conversationId={conversationId} notice={notice} onNotice={setNotice} />
      {pictures.failed && <p class="picture-note">Remove the pictures that failed before sending.</p>}
      <button type="submit" disabled={busy || !sendable || !!held}>
        {busy ? 'Sending…' : kind === 'reply' ? 'Send reply' : 'Add note'}
      </button>
    </form>
  );
});
