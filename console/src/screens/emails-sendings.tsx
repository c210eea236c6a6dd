import { useEffect, useRef, useState } from 'preact/hooks';
import { live } from '../api/live';
import { request } from '../api/request';
import {
  EmailSendingChangedDocument,
  EmailSendingsDocument,
  StopEmailSendingDocument,
  type EmailSendingRowFragment,
} from '../generated/graphql';
import { Confirm } from '../ui/confirm';
import { withPage } from '../ui/live-list';
import { pageOf, usePagedList } from '../ui/paged-list';
import { useMoreWhenSeen } from '../ui/row-keys';
import { fullTime } from '../ui/time';
import { EmailStatsView } from './emails-stats';
import { ListStatus, MoreRow } from '../ui/list-status';

// An email's sendings and test copies, the latest first (20 to a page, the next read as the list's end
// comes into view), each with its state and statistics. Each sending going out is followed live
// (emailSendingChanged: its row replaced as the service tells of its progress, at most about once a
// second, and the page told, to read the email's totals again) until it ends. Opens and clicks come
// after: "Read again" reads the rows. A sending going out can be stopped (asked first): what went stays sent.

const PAGE = 20;
/** The most rows read again at once. */
const MAX_REREAD = 100;

const STATE_WORDS: Record<string, string> = { sending: 'Sending', done: 'Done', stopped: 'Stopped' };

export function useSendings(messageId: string, onTick: () => void) {
  const list = usePagedList<EmailSendingRowFragment>({
    read: async (after, first = PAGE) => pageOf((await request(EmailSendingsDocument, { messageId, after, first })).emailSendings),
    merge: withPage,
    by: [messageId],
  });
  const held = useRef(list.rows);
  held.current = list.rows;
  const tick = useRef(onTick);
  tick.current = onTick;
  /** The rows held read again, and the page told (opens, clicks and complaints come after a sending ends). */
  const again = async () => {
    await list.reload(Math.min(MAX_REREAD, Math.max(PAGE, held.current.length)));
    tick.current();
  };
  const sending = list.rows.some((r) => r.state === 'sending');
  /** The sendings going out, each followed while it goes. */
  const going = list.rows
    .filter((r) => r.state === 'sending')
    .map((r) => r.id)
    .join(' ');
  useEffect(() => {
    if (!going) return;
    const stops = going.split(' ').map((id) => {
      let after: string | null = null;
      return live(
        EmailSendingChangedDocument,
        () => ({ id, after }),
        ({ emailSendingChanged: e }) => {
          after = e.version;
          list.setRows((old) => old.map((r) => (r.id === e.sending.id ? e.sending : r)));
          tick.current();
        },
      );
    });
    return () => stops.forEach((stop) => stop());
  }, [going]);
  /** A sending just begun, at the top. */
  const add = (s: EmailSendingRowFragment) => list.setRows((old) => [s, ...old.filter((r) => r.id !== s.id)]);
  return { ...list, sending, add, again };
}

export function EmailSendings({ sendings }: { sendings: ReturnType<typeof useSendings> }) {
  const { rows, next, loading, error, more, again, readings } = sendings;
  const end = useRef<HTMLLIElement>(null);
  const [stopping, setStopping] = useState<EmailSendingRowFragment | undefined>();
  useMoreWhenSeen(end, more, next !== null, rows, readings);
  return (
    <section class="email-sendings" aria-labelledby="email-sendings-title">
      <div class="email-sendings-head">
        <h3 id="email-sendings-title">Sendings</h3>
        <button type="button" class="quiet small" onClick={() => void again()}>
          Read again
        </button>
      </div>
      <ListStatus error={error} loading={loading} count={rows.length} empty="Not sent yet.">
        <ol class="sending-rows" aria-label="Sendings">
          {rows.map((s) => (
            <li
              key={s.id}
              class={`sending-row state-${s.state}`}
              data-id={s.id}
              aria-label={`${s.test ? 'Test copy' : 'Sending'} ${s.number}`}
            >
              <p class="sending-line">
                <strong>{s.test ? `Test copy ${s.number}` : `Sending ${s.number}`}</strong> ·{' '}
                <span class={`message-state state-${s.state}`} data-state={s.state}>
                  {STATE_WORDS[s.state] ?? s.state}
                </span>
                {s.stopReason && <> ({s.stopReason})</>} · began {fullTime(s.createdAt)}
                {s.finishedAt && <> · ended {fullTime(s.finishedAt)}</>}
                {!s.test && <> · {s.people.toLocaleString('en')} with an address when it began</>}
                {s.subject && <> · “{s.subject}”</>}
              </p>
              {!s.test && <EmailStatsView stats={s.statistics} label={`Statistics of sending ${s.number}`} />}
              {!s.test && s.state === 'sending' && (
                <button type="button" class="danger small" onClick={() => setStopping(s)}>
                  Stop sending {s.number}…
                </button>
              )}
            </li>
          ))}
          <MoreRow more={next !== null} end={end} />
        </ol>
      </ListStatus>
      {stopping && (
        <Confirm
          title={`Stop sending ${stopping.number}?`}
          action="Stop sending"
          onCancel={() => setStopping(undefined)}
          onConfirm={async () => {
            await request(StopEmailSendingDocument, { id: stopping.id });
            setStopping(undefined);
            await again();
          }}
        >
          <p>
            What was sent stays sent; nobody else gets this sending. Those not reached yet are counted as skipped: the sending was stopped.
          </p>
        </Confirm>
      )}
    </section>
  );
}
