import { useRef } from 'preact/hooks';
import { request } from '../api/request';
import { EmailMessagesDocument, type EmailPageFragment, type EmailRowFragment } from '../generated/graphql';
import { appModeId, type Place } from '../place';
import { emailsPath, navigate } from '../router';
import { withPage } from '../ui/live-list';
import { pageOf, usePagedList } from '../ui/paged-list';
import { useActionCommands } from '../ui/own-commands';
import { RowLink } from '../ui/row-link';
import { useEscapeCloses, useMoreWhenSeen, useRowKeys } from '../ui/row-keys';
import { when } from '../ui/time';
import { ComplaintRate } from './emails-complaints';
import { EmailPage } from './emails-page';
import { refusedFor, useRole } from './settings-common';
import { settingsPath } from './settings';
import './emails.css';
import { ListStatus, MoreRow } from '../ui/list-status';

// Emails: the app-mode's emails, newest first, 30 to a page (the next page read as the list is
// scrolled), each with its subject and topic (or transactional); the complaint rate of the last 30
// days above them. j/k move, Enter opens the email beside the list, Esc goes back. "Write an email"
// opens an empty one (`/console/emails/new`), made when first saved.

const PAGE = 30;
export const NEW = 'new';

export function Emails({ place, emailId }: { place: Place; emailId?: string | undefined }) {
  const modeId = appModeId(place);
  /** Why the member may not write or send emails (agents), once their role is read. */
  const role = useRole(place);
  const refused = role && refusedFor(role, 'manage_settings');
  const list = useRef<HTMLUListElement>(null);
  const end = useRef<HTMLLIElement>(null);
  const { rows, setRows, next, loading, error, more, readings } = usePagedList<EmailRowFragment>({
    read: async (after, first = PAGE) => pageOf((await request(EmailMessagesDocument, { appModeId: modeId, after, first })).emailMessages),
    merge: withPage,
    by: [modeId],
  });
  const open = (id: string) => navigate(emailsPath(id));
  useMoreWhenSeen(end, more, next !== null, rows, readings);
  useRowKeys(list, open);

  useEscapeCloses(emailId, () => navigate(emailsPath()));

  useActionCommands([{ id: 'emails-write', label: 'Write an email', run: () => open(NEW) }]);

  /** An email made or changed takes its place in the list (a new one at the top, and opened). */
  const changed = (m: EmailPageFragment) => {
    setRows((old) => (old.some((r) => r.id === m.id) ? old.map((r) => (r.id === m.id ? m : r)) : [m, ...old]));
    if (emailId === NEW) navigate(emailsPath(m.id), { replace: true });
  };
  const deleted = (id: string) => (setRows((old) => old.filter((r) => r.id !== id)), navigate(emailsPath()));

  return (
    <main class="inbox messages emails" id="main">
      <section class="list-pane" aria-labelledby="emails-title">
        <div class="messages-head">
          <h1 id="emails-title">Emails</h1>
          <span class="row-buttons">
            <button type="button" class="small" onClick={() => open(NEW)}>
              Write an email
            </button>
            <a class="small-link" href={settingsPath('email')} onClick={(e) => (e.preventDefault(), navigate(settingsPath('email')))}>
              Suppression list and complaints
            </a>
          </span>
        </div>
        <ComplaintRate modeId={modeId} compact />
        <ListStatus error={error} loading={loading} count={rows.length} empty="No emails yet.">
          <ul class="conversations message-rows" ref={list} aria-label="Emails">
            {rows.map((m) => {
              const selected = m.id === emailId;
              return (
                <li key={m.id}>
                  <RowLink id={m.id} href={emailsPath(m.id)} selected={selected} onOpen={open}>
                    <span class="row-top">
                      <strong class="who">{m.name}</strong>
                      <time dateTime={m.createdAt}>{when(m.createdAt)}</time>
                    </span>
                    <span class="preview">
                      {m.subject} · {m.topic ? `topic ${m.topic}` : 'transactional'}
                    </span>
                  </RowLink>
                </li>
              );
            })}
            <MoreRow more={next !== null} end={end} />
          </ul>
        </ListStatus>
      </section>
      {emailId ? (
        <EmailPage
          key={emailId === NEW ? NEW : emailId}
          id={emailId === NEW ? undefined : emailId}
          modeId={modeId}
          workspaceId={place.workspaceId}
          refused={refused}
          onChanged={changed}
          onDeleted={deleted}
        />
      ) : (
        <section class="conversation-pane empty" aria-label="Email">
          <p>Choose an email (j and k move, Enter opens), or write one.</p>
        </section>
      )}
    </main>
  );
}
