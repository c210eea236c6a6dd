import { useState } from 'preact/hooks';
import { messageOf, request } from '../api/request';
import { ConversationPartEmailDocument, type ConversationPartEmailQuery, type PartFragment } from '../generated/graphql';
import { fullTime } from '../ui/time';

// A message that came by email: its words are the reply alone (the quoted earlier email removed);
// "The email as it came" opens the whole email, read only then (it may be long), so staff can always
// see what the person sent, quote and signature included.

type Email = NonNullable<ConversationPartEmailQuery['conversationPartEmail']>;

export const cameByEmail = (p: PartFragment) => (p.data as { via?: unknown } | null)?.via === 'email';

export function PartEmail({ conversationId, partId }: { conversationId: string; partId: string }) {
  const [email, setEmail] = useState<Email | null | undefined>();
  const [problem, setProblem] = useState<string | undefined>();
  const read = async (open: boolean) => {
    if (!open || email !== undefined) return;
    try {
      setEmail((await request(ConversationPartEmailDocument, { conversationId, partId })).conversationPartEmail ?? null);
    } catch (err) {
      setProblem(messageOf(err));
    }
  };
  return (
    <details class="part-email" onToggle={(e) => void read(e.currentTarget.open)}>
      <summary>The email as it came</summary>
      {problem ? (
        <p class="error">{problem}</p>
      ) : email === undefined ? (
        <p class="quiet-text">Loading…</p>
      ) : email === null ? (
        <p class="quiet-text">The email is no longer kept.</p>
      ) : (
        <>
          <dl class="part-email-head">
            <dt>From</dt>
            <dd>{email.from}</dd>
            <dt>To</dt>
            <dd>{email.to.join(', ')}</dd>
            {email.subject && (
              <>
                <dt>Subject</dt>
                <dd>{email.subject}</dd>
              </>
            )}
            <dt>Received</dt>
            <dd>
              <time dateTime={email.receivedAt}>{fullTime(email.receivedAt)}</time>
            </dd>
          </dl>
          <pre class="part-email-text" tabIndex={0}>
            {email.text}
          </pre>
        </>
      )}
    </details>
  );
}
