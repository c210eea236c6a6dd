import { useEffect, useState } from 'preact/hooks';
import { Refusal, request } from '../api/request';
import { ConversationPersonDocument, type ConversationPersonQuery } from '../generated/graphql';
import { fullTime, when } from '../ui/time';

// Beside a conversation: who the person is (their attributes, consent to offers, push devices and
// latest events), read once as the conversation opens. On narrower screens it is hidden until
// "About the person" opens it over the conversation.

type Person = ConversationPersonQuery['conversation']['contact'];

const shown = (value: unknown): string =>
  Array.isArray(value) ? value.map(shown).join(', ') : typeof value === 'boolean' ? (value ? 'Yes' : 'No') : String(value ?? '');
const PLATFORMS = { ios: 'iOS', android: 'Android', web: 'Web' } as const;

export function PersonPanel({ conversationId, open, onClose }: { conversationId: string; open: boolean; onClose(): void }) {
  const [person, setPerson] = useState<Person | undefined>();
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    request(ConversationPersonDocument, { id: conversationId })
      .then((d) => setPerson(d.conversation.contact))
      .catch((err) => setError(err instanceof Refusal ? err.message : String(err)));
  }, [conversationId]);

  if (!person)
    return (
      <aside id="person-panel" class={`person-panel${open ? ' open' : ''}`} aria-label="The person">
        {error ? <p class="error">{error}</p> : <p class="quiet-text">Loading…</p>}
      </aside>
    );
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
    <aside id="person-panel" class={`person-panel${open ? ' open' : ''}`} aria-labelledby="person-title">
      <button type="button" class="quiet panel-close" onClick={onClose}>
        Hide
      </button>
      <h2 id="person-title">About the person</h2>
      <p class="person-name">{person.displayName || person.email || person.externalId}</p>
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
      <h3>Attributes</h3>
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
      <h3>Consent to offers</h3>
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
      <h3>Devices</h3>
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
      <h3>Recent events</h3>
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
    </aside>
  );
}
