import { useEffect, useState } from 'preact/hooks';
import { messageOf, request } from '../api/request';
import { EmailComplaintRateDocument, type EmailComplaintRateQuery } from '../generated/graphql';

// The app-mode's complaint rate: its emails of the last 30 days people marked as spam, over those
// sent, with its level in words (a sender should stay under 0.1% and must never reach 0.3%).

type Rate = EmailComplaintRateQuery['emailComplaintRate'];

const LEVEL_WORDS: Record<string, string> = {
  ok: 'OK: under 0.1%, where a sender should stay.',
  warning: 'Warning: 0.1% or more. A sender should stay under 0.1%; look at who gets these emails and why they mark them.',
  over: 'Over 0.3%: mailbox providers may refuse or bin this app’s mail. Stop sending to people who did not ask for it.',
};

const SHORT: Record<string, string> = { ok: 'OK', warning: 'a warning (0.1% or more)', over: 'over 0.3%' };

export const percent = (rate: number) => `${(rate * 100).toFixed(rate > 0 && rate < 0.001 ? 3 : 2)}%`;

export function ComplaintRate({ modeId, compact }: { modeId: string; compact?: boolean }) {
  const [rate, setRate] = useState<Rate | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    request(EmailComplaintRateDocument, { appModeId: modeId })
      .then(({ emailComplaintRate }) => setRate(emailComplaintRate))
      .catch((err) => setError(messageOf(err)));
  }, [modeId]);
  if (error) return <p class="error">{error}</p>;
  if (!rate) return <p class="quiet-text">Reading the complaint rate…</p>;
  const level = rate.sent ? rate.level : 'none';
  if (compact)
    return (
      <p class={`complaint-rate compact level-${level}`} data-level={rate.level}>
        Complaint rate, last 30 days: <strong>{percent(rate.rate)}</strong>, {SHORT[rate.level] ?? rate.level}
      </p>
    );
  return (
    <p class={`complaint-rate level-${level}`} data-level={rate.level}>
      <strong>Complaint rate, last 30 days: {percent(rate.rate)}</strong>{' '}
      {rate.sent === 0
        ? 'No email was sent in the last 30 days.'
        : `(${rate.complained} of ${rate.sent} emails marked as spam). ${LEVEL_WORDS[rate.level] ?? rate.level}`}
    </p>
  );
}
