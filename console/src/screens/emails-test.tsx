import { useEffect, useState } from 'preact/hooks';
import { request } from '../api/request';
import { readSession } from '../api/session';
import { MembersDocument, SendTestEmailDocument, type EmailSendingRowFragment } from '../generated/graphql';
import { FieldError, FormProblem, invalid, problemOf, type Problem } from './settings-common';

// A test copy of the email as it is saved (sendTestEmail), to the member themselves or to another
// member of the workspace: the service mails no one else on a member's word, and counts nothing.

export function EmailTest(props: {
  messageId: string;
  workspaceId: string;
  /** Why it cannot go now (changes not saved), or undefined. */
  held: string | undefined;
  onSent(s: EmailSendingRowFragment): void;
}) {
  const me = readSession()?.email ?? '';
  const [others, setOthers] = useState<string[]>([]);
  const [to, setTo] = useState('');
  const [problem, setProblem] = useState<Problem | undefined>();
  const [said, setSaid] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    request(MembersDocument, { workspaceId: props.workspaceId })
      .then(({ members }) =>
        setOthers(members.edges.map((e) => e.node.staffUser.email).filter((email) => email.toLowerCase() !== me.toLowerCase())),
      )
      .catch(() => setOthers([])); // the member themselves stays a choice
  }, [props.workspaceId]);

  const send = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      const { sendTestEmail } = await request(SendTestEmailDocument, { id: props.messageId, to: to || null });
      setProblem(undefined);
      setSaid(`Test copy on its way to ${to || me}.`);
      props.onSent(sendTestEmail);
    } catch (err) {
      setSaid(undefined);
      setProblem(problemOf(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="email-test" aria-labelledby="email-test-title" onSubmit={send}>
      <h3 id="email-test-title">Send a test</h3>
      <FormProblem problem={problem} fields={['to']} />
      <label for="email-test-to">To</label>
      <select {...invalid(problem, 'to', 'email-test-to')} value={to} onChange={(e) => setTo(e.currentTarget.value)}>
        <option value="">Me ({me})</option>
        {others.map((email) => (
          <option key={email} value={email}>
            {email}
          </option>
        ))}
      </select>
      <button type="submit" disabled={busy || !!props.held}>
        Send a test
      </button>
      <FieldError problem={problem} field="to" id="email-test-to" />
      {props.held && <p class="reason">{props.held}</p>}
      <p role="status">{said}</p>
      <p class="hint">A test copy counts nothing, and its unsubscribe link changes no one’s preferences.</p>
    </form>
  );
}
