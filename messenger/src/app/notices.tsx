import { useEffect, useState } from 'preact/hooks';
import type { components } from '../../../sdk/src/index.js';
import type { MessengerContext } from '../context.js';
import { safeLink } from './blocks.js';
import { Head } from './head.js';
import { words } from '../words.js';
import { refusal } from './refusal.js';
import { PushControl } from './push.js';

type Notice = components['schemas']['Notice'];

/** The notice inbox: newest first, unread marked, all read as it is shown; older ones on asking. */
export function NoticesScreen({ context, back }: { context: MessengerContext; back: () => void }) {
  const [notices, setNotices] = useState<Notice[]>([]);
  const [before, setBefore] = useState<string | null | undefined>(undefined);
  const [failed, setFailed] = useState('');
  const more = async (cursor?: string) => {
    const { data, error } = await context.client.api.GET('/guest/v1/notices', { params: { query: { before: cursor, limit: '20' } } });
    if (!data) return setFailed(refusal(error, words().noticesUnreadable));
    setNotices((held) => [...held, ...data.notices]);
    setBefore(data.next_before);
    // Shown is read: the unread ones of this page are marked read (they stay marked here until the screen is left).
    const unread = data.notices.filter((n) => !n.read).map((n) => n.id);
    if (unread.length)
      void context.client.api.POST('/guest/v1/notices/read', { body: { ids: unread } }).then(() => context.client.checkin());
  };
  useEffect(() => void more(), []);
  return (
    <>
      <Head title={words().notices} back={back} close={context.close} />
      <div class="body" tabIndex={0} aria-label={words().notices}>
        <PushControl context={context} />
        {failed && (
          <p class="error" role="alert">
            {failed}
          </p>
        )}
        {before !== undefined && !notices.length && <p class="reply-time">{words().nothingYet}</p>}
        <ul class="notices">
          {notices.map((n) => {
            const link = safeLink(n.link ?? undefined);
            return (
              <li key={n.id} class={n.read ? 'read' : 'unread-notice'}>
                {!n.read && <span class="visually-hidden">{words().newNotice}</span>}
                <strong>
                  {link ? (
                    <a href={link} target="_blank" rel="noopener noreferrer">
                      {n.title}
                    </a>
                  ) : (
                    n.title
                  )}
                </strong>
                {n.body && <p>{n.body}</p>}
                <time dateTime={n.created_at}>{new Date(n.created_at).toLocaleString()}</time>
              </li>
            );
          })}
        </ul>
        {before && (
          <button type="button" class="primary" onClick={() => void more(before)}>
            {words().olderNotices}
          </button>
        )}
      </div>
    </>
  );
}
