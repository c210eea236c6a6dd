import { useState } from 'preact/hooks';
import { request } from '../api/request';
import { EmailAudienceCountDocument, SendEmailMessageDocument, type EmailSendingRowFragment } from '../generated/graphql';
import { Confirm } from '../ui/confirm';
import type { AudienceChoices } from './messages-push-audience';
import { audienceInput, FIRST_AUDIENCE, SendAudiencePicker, type AudienceChoice } from './send-audience';
import { FormProblem, problemOf, type Problem } from './settings-common';

// Sending the email as it is saved (sendEmailMessage) to one person, the people whose attributes hold
// every condition, or everyone: the people it reaches with an address are counted first
// (emailAudienceCount), and the sending goes only once a confirmation naming that number is accepted.

const people = (n: number) => `${n.toLocaleString('en')} ${n === 1 ? 'person' : 'people'}`;

export function EmailSend(props: {
  messageId: string;
  modeId: string;
  /** Transactional mail goes to people who turned everything off too. */
  transactional: boolean;
  choices: AudienceChoices | undefined;
  held: string | undefined;
  onSent(s: EmailSendingRowFragment): void;
}) {
  const [audience, setAudience] = useState<AudienceChoice>(FIRST_AUDIENCE);
  const [problem, setProblem] = useState<Problem | undefined>();
  const [said, setSaid] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState<number | undefined>();

  /** Counts the people first; the confirmation names them. */
  const ask = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setSaid(undefined);
    try {
      const { emailAudienceCount } = await request(EmailAudienceCountDocument, {
        appModeId: props.modeId,
        audience: audienceInput(audience, props.choices),
      });
      setProblem(undefined);
      if (emailAudienceCount === 0) setSaid('No one in this audience has an email address: there is no one to send it to.');
      else setAsking(emailAudienceCount);
    } catch (err) {
      setProblem(problemOf(err));
    } finally {
      setBusy(false);
    }
  };

  const send = async () => {
    const { sendEmailMessage } = await request(SendEmailMessageDocument, {
      id: props.messageId,
      audience: audienceInput(audience, props.choices),
    });
    setAsking(undefined);
    setSaid(`Sending to ${people(sendEmailMessage.people)}: it goes out in batches, followed below.`);
    props.onSent(sendEmailMessage);
  };

  return (
    <form class="email-send send-push" aria-labelledby="email-send-title" onSubmit={ask} noValidate>
      <h3 id="email-send-title">Send</h3>
      <FormProblem problem={problem} fields={['audience']} />
      <SendAudiencePicker name="email-to" value={audience} choices={props.choices} problem={problem} onChange={setAudience} />
      <button type="submit" disabled={busy || !!props.held}>
        Send…
      </button>
      {props.held && <p class="reason">{props.held}</p>}
      <p role="status">{said}</p>
      {asking !== undefined && (
        <Confirm
          title={`Send this email to ${people(asking)}?`}
          action={`Send to ${people(asking)}`}
          onCancel={() => setAsking(undefined)}
          onConfirm={send}
        >
          <p>
            It goes as saved to {people(asking)} with an email address, and cannot be called back (a sending can be stopped, but what went
            stays sent).
          </p>
          <p>
            {props.transactional
              ? 'Transactional mail goes to people who turned everything off too; addresses on the suppression list are skipped and counted.'
              : 'People who left its topic by email, turned everything off or lack consent to offers, and addresses on the suppression list, are skipped and counted.'}
          </p>
        </Confirm>
      )}
    </form>
  );
}
