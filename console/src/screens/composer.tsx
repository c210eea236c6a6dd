import { forwardRef } from 'preact/compat';
import { useImperativeHandle, useRef, useState } from 'preact/hooks';
import { Refusal, request } from '../api/request';
import { AddConversationNoteDocument, ReplyToConversationDocument, type PartFragment } from '../generated/graphql';

// Reply to the person, or a note only the team sees; Ctrl/⌘-Enter sends, Escape leaves the field.

export type ComposerKind = 'reply' | 'note';
export interface ComposerHandle {
  focus(kind: ComposerKind): void;
}

export const Composer = forwardRef<ComposerHandle, { conversationId: string; modeId: string; onSent(part: PartFragment): void }>(
  function Composer({ conversationId, onSent }, ref) {
    const [kind, setKind] = useState<ComposerKind>('reply');
    const [text, setText] = useState('');
    const [busy, setBusy] = useState(false);
    const [error, setError] = useState<string | undefined>();
    const field = useRef<HTMLTextAreaElement>(null);
    useImperativeHandle(ref, () => ({
      focus(k) {
        setKind(k);
        field.current?.focus();
      },
    }));

    const send = async () => {
      if (!text.trim() || busy) return;
      setBusy(true);
      setError(undefined);
      try {
        const part =
          kind === 'reply'
            ? (await request(ReplyToConversationDocument, { id: conversationId, text })).replyToConversation
            : (await request(AddConversationNoteDocument, { id: conversationId, text })).addConversationNote;
        onSent(part);
        setText('');
      } catch (err) {
        setError(err instanceof Refusal ? err.message : String(err));
      } finally {
        setBusy(false);
      }
    };

    return (
      <form
        class={`composer composer-${kind}`}
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
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
          onInput={(e) => setText(e.currentTarget.value)}
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
        <button type="submit" disabled={busy || !text.trim()}>
          {busy ? 'Sending…' : kind === 'reply' ? 'Send reply' : 'Add note'}
        </button>
      </form>
    );
  },
);
