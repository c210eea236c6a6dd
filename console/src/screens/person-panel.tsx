import { useEffect, useState } from 'preact/hooks';
import { request, messageOf } from '../api/request';
import {
  ContactConversationsDocument,
  ConversationPersonDocument,
  type PastConversationFragment,
  type PersonFragment,
} from '../generated/graphql';
import { contactPath, inboxPath, navigate } from '../router';
import { fullTime, when } from '../ui/time';

// Who a person is: their details, attributes, consent to offers, push devices, latest events and
// past conversations (10 at a time, older ones on asking). One component serves the person's own
// page (Contacts) and the panel beside a conversation, read once as the conversation opens; on
// narrower screens the panel is hidden until "About the person" opens it over the conversation.

const shown = (value: unknown): string =>
  Array.isArray(value) ? value.map(shown).join(', ') : typeof value === 'boolean' ? (value ? 'Yes' : 'No') : String(value ?? '');
const PLATFORMS = { ios: 'iOS', android: 'Android', web: 'Web' } as const;
const STATE_WORDS = { open: 'Open', snoozed: 'Snoozed', closed: 'Closed' } as const;

export const personName = (p: Pick<PersonFragment, 'displayName' | 'email' | 'externalId'>) => p.displayName || p.email || p.externalId;

export function PersonDetails(props: {
  person: PersonFragment;
  modeId: string;
  /** The heading level of its sections: 3 in the panel (under its h2), 2 on the person's page. */
  level: 2 | 3;
  /** The conversation the panel is beside: marked, not linked. */
  currentConversationId?: string;
}) {
  const { person, level } = props;
  const H = level === 2 ? 'h2' : 'h3';
  const facts: [string, string | null | undefined][] = [
    ['Email', person.email],
    ['User id', person.externalId],
    ['Language', person.language],
    ['Time zone', person.timeZone],
    ['Signed up', person.signedUpAt && fullTime(person.signedUpAt)],
    ['First seen', fullTime(person.createdAt)],
  ];
  const devices = person.devices.edges.map((e) => e.node);
  const events = person.events.edges.map((e) => e.node);
  return (
    <>
      <dl class="facts">
        {facts
          .filter(([, v]) => v)
          .map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
      </dl>
      <H>Attributes</H>
      {person.attributes.length ? (
        <dl class="facts attributes">
          {person.attributes.map((a) => (
            <div key={a.name}>
              <dt>{a.name}</dt>
              <dd>{shown(a.value)}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p class="quiet-text">None set.</p>
      )}
      <H>Consent to offers</H>
      <dl class="facts">
        <div>
          <dt>By email</dt>
          <dd>{person.consent.offersByEmail ? 'Yes' : 'No'}</dd>
        </div>
        <div>
          <dt>By push</dt>
          <dd>{person.consent.offersByPush ? 'Yes' : 'No'}</dd>
        </div>
      </dl>
      <H>Devices</H>
      {devices.length ? (
        <ul class="plain">
          {devices.map((d) => (
            <li key={d.id}>
              {PLATFORMS[d.platform]}
              {d.appVersion ? ` ${d.appVersion}` : ''} · seen <time dateTime={d.lastSeenAt}>{when(d.lastSeenAt)}</time>
            </li>
          ))}
        </ul>
      ) : (
        <p class="quiet-text">No push device.</p>
      )}
      <H>Recent events</H>
      {events.length ? (
        <ul class="plain">
          {events.map((e) => (
            <li key={e.id}>
              {e.name} · <time dateTime={e.occurredAt}>{when(e.occurredAt)}</time>
            </li>
          ))}
        </ul>
      ) : (
        <p class="quiet-text">No event yet.</p>
      )}
      <H>Conversations</H>
      <PastConversations person={person} modeId={props.modeId} currentConversationId={props.currentConversationId} />
    </>
  );
}

function PastConversations(props: { person: PersonFragment; modeId: string; currentConversationId?: string | undefined }) {
  const [rows, setRows] = useState<PastConversationFragment[]>(() => props.person.conversations.edges.map((e) => e.node));
  const [next, setNext] = useState(() =>
    props.person.conversations.pageInfo.hasNextPage ? props.person.conversations.pageInfo.endCursor : null,
  );
  const [error, setError] = useState<string | undefined>();
  const older = async () => {
    try {
      const { contact } = await request(ContactConversationsDocument, { appModeId: props.modeId, id: props.person.id, after: next });
      const page = contact.conversations;
      setRows((old) => [...old, ...page.edges.map((e) => e.node).filter((n) => !old.some((o) => o.id === n.id))]);
      setNext(page.pageInfo.hasNextPage ? page.pageInfo.endCursor : null);
    } catch (err) {
      setError(messageOf(err));
    }
  };
  if (!rows.length) return <p class="quiet-text">No conversation yet.</p>;
  return (
    <>
      <ul class="plain past-conversations">
        {rows.map((c) => {
          const here = c.id === props.currentConversationId;
          const label = (
            <>
              <span class={`state state-${c.state}`}>{STATE_WORDS[c.state]}</span> {c.preview || '(no message yet)'} ·{' '}
              <time dateTime={c.lastActivityAt}>{when(c.lastActivityAt)}</time>
            </>
          );
          return (
            <li key={c.id}>
              {here ? (
                <span aria-current="page">{label} (this one)</span>
              ) : (
                <a href={inboxPath(c.state, c.id)} onClick={(e) => (e.preventDefault(), navigate(inboxPath(c.state, c.id)))}>
                  {label}
                </a>
              )}
            </li>
          );
        })}
      </ul>
      {error && <p class="error">{error}</p>}
      {next && (
        <button type="button" class="quiet" onClick={() => void older()}>
          Show older conversations
        </button>
      )}
    </>
  );
}

export function PersonPanel({ conversationId, open, onClose }: { conversationId: string; open: boolean; onClose(): void }) {
  const [found, setFound] = useState<{ person: PersonFragment; modeId: string } | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    request(ConversationPersonDocument, { id: conversationId })
      .then((d) => setFound({ person: d.conversation.contact, modeId: d.conversation.appModeId }))
      .catch((err) => setError(messageOf(err)));
  }, [conversationId]);

  if (!found)
    return (
      <aside id="person-panel" class={`person-panel${open ? ' open' : ''}`} aria-label="The person">
        {error ? <p class="error">{error}</p> : <p class="quiet-text">Loading…</p>}
      </aside>
    );
  return (
    <aside id="person-panel" class={`person-panel${open ? ' open' : ''}`} aria-labelledby="person-title">
      <button type="button" class="quiet panel-close" onClick={onClose}>
        Hide
      </button>
      <h2 id="person-title">About the person</h2>
      <p class="person-name">{personName(found.person)}</p>
      <p class="person-page-link">
        <a href={contactPath(found.person.id)} onClick={(e) => (e.preventDefault(), navigate(contactPath(found.person.id)))}>
          Their page (erase)
        </a>
      </p>
      <PersonDetails person={found.person} modeId={found.modeId} level={3} currentConversationId={conversationId} />
    </aside>
  );
}
