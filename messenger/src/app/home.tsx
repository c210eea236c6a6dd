import { useEffect, useRef, useState } from 'preact/hooks';
import type { components } from '../../../sdk/src/index.js';
import type { MessengerContext } from '../context.js';
import { focusFirst } from './focus.js';
import { Head } from './head.js';
import { HomeCards } from './home-cards.js';
import { Blocks } from './blocks.js';
import { HelpSearch } from './help.js';
import { words } from '../words.js';
import { refusal } from './refusal.js';
import { HomeTickets } from './tickets.js';

type Home = components['schemas']['MessengerHome'];

const initials = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('');

/** The messenger's home: the greeting, the team and its reply time, the open conversations, a way to write. */
export function HomeScreen(props: {
  context: MessengerContext;
  open: (id?: string) => void;
  read: (slug: string) => void;
  notices: () => void;
  preferences?: () => void;
  collections?: () => void;
  /** Opens a ticket, and the list of them. */
  ticket: (id: string) => void;
  tickets: () => void;
  /** The control to focus as home is shown again (the one that left it, as a selector), rather than the first. */
  returnTo?: string;
}) {
  const { context, open } = props;
  const [home, setHome] = useState<Home | undefined>();
  const [failed, setFailed] = useState('');
  const [unreadNotices, setUnreadNotices] = useState(0);
  const body = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // The notices' unread count as it is now (a check-in's may be older).
    void context.client.api
      .GET('/guest/v1/notices', { params: { query: { limit: '1' } } })
      .then(({ data }) => data && setUnreadNotices(data.unread));
    void context.client.api.GET('/guest/v1/messenger').then(({ data, error }) => {
      if (data) setHome(data);
      else setFailed(refusal(error, words().unreachable));
    });
  }, []);
  useEffect(() => {
    const back = props.returnTo && body.current?.querySelector<HTMLElement>(props.returnTo);
    if (back) back.focus();
    else focusFirst(body.current?.parentElement ?? null);
  }, [home]);
  return (
    <>
      <Head title={context.brand.name} close={context.close} />
      <div class="body" ref={body}>
        {failed && (
          <p class="error" role="alert">
            {failed}
          </p>
        )}
        {home && (
          <>
            {home.faces.length > 0 && (
              <ul class="faces" aria-label={words().team}>
                {home.faces.map((f) => (
                  <li class="face" title={f.name} key={f.name}>
                    {f.avatar_url ? <img src={f.avatar_url} alt={f.name} /> : <span aria-label={f.name}>{initials(f.name)}</span>}
                  </li>
                ))}
              </ul>
            )}
            {home.layout.greeting && <p class="greeting">{home.layout.greeting}</p>}
            {home.reply_time && <p class="reply-time">{home.reply_time.text}</p>}
            {home.open.length > 0 && (
              <section class="card" aria-labelledby="crm-open">
                <h3 id="crm-open">{words().yourConversations}</h3>
                <ul class="list">
                  {home.open.map((c) => (
                    <li key={c.id}>
                      <button type="button" onClick={() => open(c.id)}>
                        <span class="preview">{c.preview || words().conversation}</span>
                        {c.unread > 0 && (
                          <span class="unread">
                            {c.unread}
                            <span class="visually-hidden"> {words().unread}</span>
                          </span>
                        )}
                      </button>
                    </li>
                  ))}
                </ul>
              </section>
            )}
            {home.opening && (
              <section class="card opening" aria-label={words().helpBot}>
                <Blocks blocks={home.opening.blocks} />
                <div class="bot-buttons" role="group" aria-label={words().chooseWhatAbout}>
                  {home.opening.buttons.map((b) => (
                    <button
                      key={b.id}
                      type="button"
                      onClick={() => {
                        const opening = { id: home.opening!.id, version: home.opening!.version };
                        void context.client.startConversation({ text: '', button: b.id, opening }).then(
                          (started) => open(started.id),
                          (error: Error) => setFailed(error.message),
                        );
                      }}
                    >
                      {b.label}
                    </button>
                  ))}
                </div>
              </section>
            )}
            <HomeCards cards={home.cards} write={() => open()} read={props.read} />
            <div>
              <button type="button" class="primary" onClick={() => open()}>
                {words().sendUsAMessage}
              </button>
            </div>
            <HomeTickets tickets={home.tickets} open={props.ticket} all={props.tickets} />
            <section class="card home-notices" aria-label={words().notices}>
              <button type="button" class="link-button" onClick={props.notices}>
                {words().notices}
              </button>
              {unreadNotices > 0 && (
                <span class="unread">
                  {unreadNotices}
                  <span class="visually-hidden"> {words().unread}</span>
                </span>
              )}
            </section>
            {(home.featured_articles.length > 0 || context.helpCenter) && (
              <HelpSearch
                context={context}
                open={props.read}
                featured={home.featured_articles}
                browse={context.helpCenter ? props.collections : undefined}
              />
            )}
            {props.preferences && (
              <p class="home-links">
                <button type="button" class="link-button" data-place="preferences" onClick={props.preferences}>
                  {words().preferences}
                </button>
              </p>
            )}
          </>
        )}
      </div>
    </>
  );
}
