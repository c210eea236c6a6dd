import { useEffect, useState } from 'preact/hooks';
import { messageOf, request } from '../api/request';
import { EmailPreviewDocument, EmailPreviewPersonDocument, type EmailPreviewQuery } from '../generated/graphql';
import { SKIP_WORDS } from './emails-stats';

// The email as it will be mailed (emailPreview), as saved: read again after each save. The HTML is
// shown in a frame of the service's preview page (its own policy: the email's inline styles and https
// pictures, no script; the frame sandboxed without scripts, its links opening a new tab), or the plain
// text part instead. For a sample address, or for a person by their user id: where it would go, and
// whether a sending now would skip them and why.

type Preview = EmailPreviewQuery['emailPreview'];

export function EmailPreview(props: { messageId: string; modeId: string; savedAt: string }) {
  const [preview, setPreview] = useState<Preview | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [view, setView] = useState<'html' | 'text'>('html');
  const [who, setWho] = useState('');
  /** The person shown (their contact id and user id), or none: a sample address. */
  const [person, setPerson] = useState<{ id: string; externalId: string } | undefined>();
  const [personError, setPersonError] = useState<string | undefined>();

  const read = (contactId: string | undefined) =>
    request(EmailPreviewDocument, { id: props.messageId, contactId: contactId ?? null })
      .then(({ emailPreview }) => (setPreview(emailPreview), setError(undefined)))
      .catch((err) => setError(messageOf(err)));
  useEffect(() => void read(person?.id), [props.messageId, props.savedAt, person?.id]);

  const choose = async (e: Event) => {
    e.preventDefault();
    const externalId = who.trim();
    if (!externalId) return (setPerson(undefined), setPersonError(undefined));
    try {
      const { contact } = await request(EmailPreviewPersonDocument, { appModeId: props.modeId, externalId });
      setPerson({ id: contact.id, externalId });
      setPersonError(undefined);
    } catch (err) {
      setPersonError(messageOf(err));
    }
  };

  return (
    <section class="email-preview" aria-labelledby="email-preview-title">
      <h3 id="email-preview-title">Preview (as saved)</h3>
      <form class="email-preview-person" aria-label="Preview for" onSubmit={choose}>
        <label for="email-preview-who">Preview for a person (their id in your app; empty: a sample address)</label>
        <input
          id="email-preview-who"
          value={who}
          aria-invalid={personError ? 'true' : undefined}
          aria-describedby={personError ? 'email-preview-who-error' : undefined}
          onInput={(e) => setWho(e.currentTarget.value)}
        />
        <button type="submit" class="quiet small">
          Show
        </button>
        {personError && (
          <p id="email-preview-who-error" class="field-error">
            {personError}
          </p>
        )}
      </form>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {preview && (
        <>
          <dl class="email-preview-head">
            <dt>From</dt>
            <dd>{preview.from}</dd>
            <dt>To</dt>
            <dd>{preview.to ?? `${person?.externalId ?? 'This person'} has no address: no sending reaches them`}</dd>
            <dt>Subject</dt>
            <dd>{preview.subject}</dd>
            {preview.preheader && (
              <>
                <dt>Preheader</dt>
                <dd>{preview.preheader}</dd>
              </>
            )}
          </dl>
          {preview.skipped && (
            <p class="email-preview-skip" role="status">
              A sending now would skip {person?.externalId ?? 'this person'}: {SKIP_WORDS[preview.skipped] ?? preview.skipped}.
            </p>
          )}
          <div class="email-preview-views" role="group" aria-label="Show the email">
            <button type="button" class="quiet small" aria-pressed={view === 'html'} onClick={() => setView('html')}>
              As mailed (HTML)
            </button>
            <button type="button" class="quiet small" aria-pressed={view === 'text'} onClick={() => setView('text')}>
              Plain text
            </button>
          </div>
          {view === 'html' ? (
            <iframe
              key={`${props.savedAt} ${preview.address.url}`}
              class="email-preview-frame"
              title="The email as mailed"
              src={preview.address.url}
              sandbox="allow-popups allow-popups-to-escape-sandbox"
              referrerpolicy="no-referrer"
            />
          ) : (
            <pre class="email-preview-text" aria-label="The email as plain text" tabIndex={0}>
              {preview.text}
            </pre>
          )}
        </>
      )}
    </section>
  );
}
