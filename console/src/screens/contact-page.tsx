import { useEffect, useRef, useState } from 'preact/hooks';
import { request, messageOf } from '../api/request';
import { actionCommands } from '../commands';
import {
  ContactPersonDocument,
  EraseContactDocument,
  EraseRequestsDocument,
  ExportContactDocument,
  type EraseProgressFragment,
  type PersonFragment,
} from '../generated/graphql';
import { appModeId, type Place } from '../place';
import { CONTACTS_PATH, navigate } from '../router';
import { fullTime } from '../ui/time';
import { ContactWorkflows } from './contact-workflows';
import { PersonDetails, personName } from './person-panel';
import { ContactTicket } from './tickets-make';

// A person's page: who they are (the panel's details, their past conversations linked), their
// tickets, their workflow runs (each with why its steps went as they did), their
// export downloaded (a signed address the service gives, good for minutes), and erasing them: asked
// after typing their email or user id, then followed until done (the service removes them from both
// modes within minutes), with the rows removed by kind.

/** The erase's request is read again after 1 s, then each pause half as long again, up to 5 s. */
const POLL_MS = 1000;
const POLL_MAX_MS = 5000;
const ERASE_WORDS = { queued: 'Queued: the erase starts shortly.', running: 'Erasing…', done: 'Erased.' } as Record<string, string>;

export function ContactPage({ place, id }: { place: Place; id: string }) {
  const modeId = appModeId(place);
  const [person, setPerson] = useState<PersonFragment | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [erase, setErase] = useState<EraseProgressFragment | undefined>();
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    request(ContactPersonDocument, { appModeId: modeId, id })
      .then((d) => setPerson(d.contact))
      .catch((err) => setError(messageOf(err)));
  }, [modeId, id]);

  // Until the erase is done, its request is read again, the pause growing from 1 to 5 s.
  const polls = useRef(0);
  useEffect(() => {
    if (!erase || erase.state === 'done') return;
    const pause = Math.min(POLL_MAX_MS, POLL_MS * 1.5 ** polls.current++);
    const timer = setTimeout(async () => {
      try {
        const { eraseRequests } = await request(EraseRequestsDocument, { appId: place.app.id });
        const now = eraseRequests.edges.find((e) => e.node.id === erase.id)?.node;
        setErase(now ?? { ...erase });
      } catch {
        setErase({ ...erase });
      }
    }, pause);
    return () => clearTimeout(timer);
  }, [erase, place.app.id]);

  const back = (
    <a class="back-link" href={CONTACTS_PATH} onClick={(e) => (e.preventDefault(), navigate(CONTACTS_PATH))}>
      Back to contacts
    </a>
  );
  if (!person)
    return (
      <main class="contact-page" id="main">
        {back}
        {error ? (
          <p class="error" role="alert">
            {error}
          </p>
        ) : (
          <p class="quiet-text">Loading…</p>
        )}
      </main>
    );
  return (
    <main class="contact-page" id="main">
      {back}
      <h1>{personName(person)}</h1>
      <div class="contact-columns">
        <section aria-label="Details" class="contact-details">
          {erase ? (
            <p class="quiet-text">
              {erase.state === 'done'
                ? 'Erased: nothing is kept of this person any more.'
                : 'Being erased: nothing more is shown of this person.'}
            </p>
          ) : (
            <PersonDetails person={person} modeId={modeId} level={2} />
          )}
        </section>
        {!erase && <ContactTicket contactId={person.id} modeId={modeId} />}
        <div class="contact-side">
          {!erase && <ContactExport contactId={person.id} modeId={modeId} />}
          <section aria-labelledby="erase-title" class="erase">
            <h2 id="erase-title">Erase</h2>
            {erase ? (
              <EraseProgress erase={erase} />
            ) : (
              <>
                <p>
                  Removes everything kept about this person from the app, in live and test mode, within minutes. For 30 days their user id
                  cannot be used again.
                </p>
                <button type="button" class="danger" onClick={() => setConfirming(true)}>
                  Erase this person…
                </button>
              </>
            )}
          </section>
        </div>
        {!erase && <ContactWorkflows contactId={person.id} modeId={modeId} />}
      </div>
      {confirming && (
        <ConfirmErase
          person={person}
          onCancel={() => setConfirming(false)}
          onErase={async () => {
            const { eraseContact } = await request(EraseContactDocument, { appModeId: modeId, id: person.id });
            setConfirming(false);
            setErase(eraseContact);
          }}
        />
      )}
    </main>
  );
}

/**
 * The person's export as a file: the service gives a signed address good for a few minutes, and the
 * browser downloads from it (the file's name is the service's). The address is asked for at each
 * click, never kept: it is the credential. Its path is taken on this origin, where the console is.
 */
function ContactExport({ contactId, modeId }: { contactId: string; modeId: string }) {
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<{ text: string; error?: true } | undefined>();
  const download = async () => {
    setBusy(true);
    setSaid(undefined);
    try {
      const { exportContact } = await request(ExportContactDocument, { appModeId: modeId, id: contactId });
      const address = new URL(exportContact.url);
      const link = document.createElement('a');
      link.href = address.pathname;
      link.download = '';
      link.hidden = true;
      document.body.append(link);
      link.click();
      link.remove();
      setSaid({ text: 'The download has started: a JSON file of everything kept about this person in this mode.' });
    } catch (err) {
      setSaid({ text: messageOf(err), error: true });
    } finally {
      setBusy(false);
    }
  };
  const run = useRef(download);
  run.current = download;
  // In the command menu too, while the page offers it.
  useEffect(() => {
    actionCommands.set([{ id: 'contact-export', label: 'Download the person’s export', run: () => void run.current() }]);
    return () => actionCommands.set([]);
  }, []);
  return (
    <section aria-labelledby="export-title" class="contact-export">
      <h2 id="export-title">Export</h2>
      <p>Everything kept about this person in this mode, as the server API’s export gives it, in one file.</p>
      <button type="button" onClick={download} disabled={busy}>
        {busy ? 'Preparing…' : 'Download export'}
      </button>
      {said && (
        <p class={said.error ? 'error' : 'hint-text export-said'} role={said.error ? 'alert' : 'status'}>
          {said.text}
        </p>
      )}
    </section>
  );
}

/** A kind of row as the registry names it (conversationParts), in words (conversation parts). */
const kindWords = (kind: string) => kind.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();

function EraseProgress({ erase }: { erase: EraseProgressFragment }) {
  const removed = Object.entries((erase.removed ?? {}) as Record<string, number>).filter(([, n]) => n > 0);
  return (
    <div class={`erase-progress erase-${erase.state}`} role="status">
      <p>
        <strong>{ERASE_WORDS[erase.state] ?? erase.state}</strong> Asked{' '}
        <time dateTime={erase.requestedAt}>{fullTime(erase.requestedAt)}</time>
        {erase.state === 'done' && erase.finishedAt && (
          <>
            , done <time dateTime={erase.finishedAt}>{fullTime(erase.finishedAt)}</time>
          </>
        )}
        .
      </p>
      {removed.length > 0 && (
        <dl class="facts removed" aria-label="Rows removed">
          {removed.map(([kind, n]) => (
            <div key={kind}>
              <dt>{kindWords(kind)}</dt>
              <dd>{n}</dd>
            </div>
          ))}
        </dl>
      )}
    </div>
  );
}

function ConfirmErase(props: { person: PersonFragment; onCancel(): void; onErase(): Promise<void> }) {
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  useEffect(() => input.current?.focus(), []);
  const accepted = [props.person.email, props.person.externalId].filter((v): v is string => !!v);
  const matches = accepted.includes(typed.trim());
  return (
    <div class="overlay" onClick={(e) => e.target === e.currentTarget && props.onCancel()}>
      <div
        class="confirm"
        role="dialog"
        aria-modal="true"
        aria-labelledby="confirm-title"
        onKeyDown={(e) => e.code === 'Escape' && (e.preventDefault(), props.onCancel())}
      >
        <form
          onSubmit={async (e) => {
            e.preventDefault();
            if (!matches || busy) return;
            setBusy(true);
            try {
              await props.onErase();
            } catch (err) {
              setError(messageOf(err));
              setBusy(false);
            }
          }}
        >
          <h2 id="confirm-title">Erase {personName(props.person)}?</h2>
          <p>This cannot be undone: their details, events, conversations and messages go, in live and test mode.</p>
          <label for="confirm-erase">Type their {props.person.email ? 'email or user id' : 'user id'} to confirm</label>
          <input id="confirm-erase" ref={input} autocomplete="off" value={typed} onInput={(e) => setTyped(e.currentTarget.value)} />
          {error && (
            <p class="error" role="alert">
              {error}
            </p>
          )}
          <div class="confirm-actions">
            <button type="button" class="quiet" onClick={props.onCancel}>
              Cancel
            </button>
            <button type="submit" class="danger" disabled={!matches || busy}>
              Erase
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}
