import type { EmailStatsFragment } from '../generated/graphql';

// What an email's sendings came to (or one sending's), test copies aside: sent, pending, failed,
// skipped with each reason in words, opened and clicked by people and, apart, only by machines (mail
// scanners and image proxies), unsubscribed, bounced and complained. Each count carries data-stat.

export const SKIP_WORDS: Record<string, string> = {
  suppressed: 'address on the suppression list',
  topic_closed: 'topic archived or no longer by email',
  all_off: 'turned everything off',
  unsubscribed: 'left the topic by email',
  no_consent: 'no consent to offers by email',
  stopped: 'the sending was stopped',
};

const skipWords = (reason: string) => SKIP_WORDS[reason] ?? reason.replace(/_/g, ' ');

const COUNTS: [keyof Omit<EmailStatsFragment, 'skipped'>, string][] = [
  ['sent', 'Sent'],
  ['pending', 'Pending'],
  ['failed', 'Failed'],
  ['opened', 'Opened by people'],
  ['machineOpenedOnly', 'Opened only by machines'],
  ['clicked', 'Clicked by people'],
  ['machineClickedOnly', 'Clicked only by machines'],
  ['unsubscribed', 'Unsubscribed'],
  ['bounced', 'Bounced'],
  ['complained', 'Marked as spam'],
];

export function EmailStatsView({ stats, label }: { stats: EmailStatsFragment; label: string }) {
  const skipped = stats.skipped.reduce((n, s) => n + s.count, 0);
  return (
    <div class="email-stats" role="group" aria-label={label}>
      <dl class="message-stats">
        {COUNTS.map(([key, words]) => (
          <div key={key}>
            <dt>{words}</dt>
            <dd data-stat={key}>{stats[key]}</dd>
          </div>
        ))}
        <div>
          <dt>Skipped</dt>
          <dd data-stat="skipped">{skipped}</dd>
        </div>
      </dl>
      {skipped > 0 && (
        <ul class="email-skips" aria-label="Skipped, by reason">
          {stats.skipped.map((s) => (
            <li key={s.reason} data-reason={s.reason}>
              {s.count} skipped: {skipWords(s.reason)}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
