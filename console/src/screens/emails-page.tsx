import { useEffect, useState } from 'preact/hooks';
import { messageOf, request } from '../api/request';
import { DeleteEmailMessageDocument, EmailMessageDocument, type EmailPageFragment } from '../generated/graphql';
import { Confirm } from '../ui/confirm';
import { useActionCommands } from '../ui/own-commands';
import { fullTime } from '../ui/time';
import { EmailCompose } from './emails-compose';
import { EmailPreview } from './emails-preview';
import { EmailSend } from './emails-send';
import { EmailSendings, useSendings } from './emails-sendings';
import { EmailStatsView } from './emails-stats';
import { EmailTest } from './emails-test';
import { useAudienceChoices } from './messages-push-audience';

// An email's page: its name, topic and every sending's statistics together; the compose form; a test
// copy; a sending to an audience; and its sendings, followed while one goes out (emails-sendings.tsx).
// Below the form, the email as it will be mailed, as saved (emails-preview.tsx).
// An email never sent can be deleted (asked first); one sent stays, its emails' links lead through it.
// With no id (`new`), only the compose form, which makes the email.

const HELD = 'Save the changes first: a test and a sending go as the email is saved.';

interface Props {
  modeId: string;
  workspaceId: string;
  /** Why the member may not change or send emails (their role), or undefined. */
  refused: string | undefined;
  onChanged(m: EmailPageFragment): void;
  onDeleted(id: string): void;
}

export function EmailPage(props: Props & { id: string | undefined }) {
  return props.id ? <EmailShown {...props} id={props.id} /> : <NewEmail {...props} />;
}

function NewEmail(props: Props) {
  const choices = useAudienceChoices(props.modeId, 'email');
  return (
    <section class="conversation-pane message-page email-page" aria-labelledby="email-title">
      <h2 id="email-title">Write an email</h2>
      <EmailCompose m={undefined} modeId={props.modeId} topics={choices?.topics} refused={props.refused} onSaved={props.onChanged} />
    </section>
  );
}

function EmailShown(props: Props & { id: string }) {
  const [m, setM] = useState<EmailPageFragment | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [unsaved, setUnsaved] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const choices = useAudienceChoices(props.modeId, 'email');
  const read = () =>
    request(EmailMessageDocument, { id: props.id })
      .then(({ emailMessage }) => (setM(emailMessage), setError(undefined)))
      .catch((err) => setError(messageOf(err)));
  useEffect(() => void read(), [props.id]);
  // The totals are read again with each change a sending going out tells.
  const sendings = useSendings(props.id, () => void read());
  const saved = (next: EmailPageFragment) => (setM(next), props.onChanged(next));

  useActionCommands([
    { id: 'email-test', label: 'Email: Send a test', run: () => document.getElementById('email-test-to')?.focus() },
    {
      id: 'email-send',
      label: 'Email: Send to an audience',
      run: () => document.querySelector<HTMLInputElement>('input[name="email-to"]')?.focus(),
    },
  ]);

  if (!m)
    return (
      <section class="conversation-pane message-page email-page" aria-label="Email">
        {error ? (
          <p class="error" role="alert">
            {error}
          </p>
        ) : (
          <p class="quiet-text">Loading…</p>
        )}
      </section>
    );

  const topicName = m.topic ? (choices?.topics.find((t) => t.key === m.topic)?.name ?? m.topic) : undefined;
  const neverSent = !sendings.loading && sendings.rows.length === 0;
  const held = props.refused ?? (unsaved ? HELD : undefined);
  return (
    <section class="conversation-pane message-page email-page" aria-labelledby="email-title">
      <header class="message-head">
        <h2 id="email-title">{m.name}</h2>
        <p>
          {topicName ? `Topic: ${topicName}` : 'Transactional: no unsubscribe'} · written {fullTime(m.createdAt)} · changed{' '}
          {fullTime(m.updatedAt)}
        </p>
        {neverSent && !props.refused && (
          <div class="actions">
            <button type="button" class="danger" onClick={() => setDeleting(true)}>
              Delete…
            </button>
          </div>
        )}
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
      </header>
      <h3>Statistics (every sending)</h3>
      <EmailStatsView stats={m.statistics} label="Statistics of every sending" />
      <h3 id="email-compose-title">The email</h3>
      <EmailCompose
        key={m.id}
        m={m}
        modeId={props.modeId}
        topics={choices?.topics}
        refused={props.refused}
        onSaved={saved}
        onUnsaved={setUnsaved}
      />
      <EmailPreview messageId={m.id} modeId={props.modeId} savedAt={m.updatedAt} />
      <EmailTest messageId={m.id} workspaceId={props.workspaceId} held={held} onSent={sendings.add} />
      <EmailSend messageId={m.id} modeId={props.modeId} transactional={!m.topic} choices={choices} held={held} onSent={sendings.add} />
      <EmailSendings sendings={sendings} />
      {deleting && (
        <Confirm
          title="Delete this email?"
          action="Delete"
          onCancel={() => setDeleting(false)}
          onConfirm={async () => {
            await request(DeleteEmailMessageDocument, { id: m.id });
            props.onDeleted(m.id);
          }}
        >
          <p>It was never sent; its words are gone for good.</p>
        </Confirm>
      )}
    </section>
  );
}
