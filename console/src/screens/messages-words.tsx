import { useState } from 'preact/hooks';
import { messageOf, request } from '../api/request';
import { ChangeInAppMessageDocument, type InAppMessagePageFragment } from '../generated/graphql';

// A banner's or post's name and words, changed in place (changeInAppMessage): the words as
// paragraphs, one an empty line apart. Only what the console can give back whole is offered: a
// message of one variant whose blocks are all paragraphs of plain words (other blocks, marks and
// carousels wait for the block editor); a live message changes for check-ins at once.

type Span = { text?: string; [mark: string]: unknown };
type Block = { type?: string; spans?: Span[] };

/** The paragraphs' words, or undefined when the content holds more than plain paragraphs. */
export function plainParagraphs(content: unknown): string[] | undefined {
  const blocks = (content as { blocks?: Block[] } | null)?.blocks;
  if (!Array.isArray(blocks)) return undefined;
  const plain = blocks.every((b) => b.type === 'paragraph' && (b.spans ?? []).every((s) => Object.keys(s).every((k) => k === 'text')));
  return plain ? blocks.map((b) => (b.spans ?? []).map((s) => s.text ?? '').join('')) : undefined;
}

export const paragraphsOf = (words: string) =>
  words
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((text) => ({ type: 'paragraph', spans: [{ text }] }));

export function MessageWords({ m, onSaved }: { m: InAppMessagePageFragment; onSaved(m: InAppMessagePageFragment): void }) {
  const paragraphs =
    m.variants.length === 1 && m.kind !== 'carousel' && m.kind !== 'survey' ? plainParagraphs(m.variants[0]!.content) : undefined;
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(m.name);
  const [words, setWords] = useState((paragraphs ?? []).join('\n\n'));
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  if (m.state === 'ended') return null;
  if (!paragraphs)
    return m.variants.length > 1 ? (
      <p class="quiet-text">A message of several variants is changed through the API: the console edits one.</p>
    ) : null;
  if (!editing)
    return (
      <p>
        <button type="button" onClick={() => (setName(m.name), setWords(paragraphs.join('\n\n')), setEditing(true))}>
          Change the name and words
        </button>
      </p>
    );
  return (
    <form
      class="message-words"
      aria-label="Change the name and words"
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        try {
          const content = { ...(m.variants[0]!.content as object), blocks: paragraphsOf(words) };
          const { changeInAppMessage } = await request(ChangeInAppMessageDocument, { id: m.id, input: { name, content } });
          onSaved(changeInAppMessage);
          setEditing(false);
          setError(undefined);
        } catch (err) {
          setError(messageOf(err));
        } finally {
          setBusy(false);
        }
      }}
    >
      <label>
        Name
        <input value={name} onInput={(e) => setName(e.currentTarget.value)} required />
      </label>
      <label>
        Words (paragraphs an empty line apart)
        <textarea rows={4} value={words} onInput={(e) => setWords(e.currentTarget.value)} />
      </label>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <div class="actions">
        <button type="submit" disabled={busy}>
          Save
        </button>
        <button type="button" class="quiet" onClick={() => setEditing(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}
