import { useEffect, useRef, useState } from 'preact/hooks';
import { request } from '../api/request';
import { live } from '../api/live';
import { ContactsChangedDocument, ContactsDocument, type ContactRowFragment } from '../generated/graphql';
import { appModeId, type Place } from '../place';
import { contactPath, navigate } from '../router';
import { withChange, withPage } from '../ui/live-list';
import { pageOf, usePagedList } from '../ui/paged-list';
import { useMoreWhenSeen, useRowKeys } from '../ui/row-keys';
import { when } from '../ui/time';
import { personName } from './person-panel';
import { ListStatus, MoreRow } from '../ui/list-status';

// Contacts: the app-mode's people, most recently updated first, narrowed by a search of their
// email, name or user id (the service's `contacts(search)`), 30 to a page, the next page loaded as
// the list is scrolled; j/k move, Enter opens their page. Kept live by `contactsChanged`: a person
// identify makes comes to their place (when the search, if any, finds them), resuming from the last
// version seen; a `reload` reads the list again.

const TYPING_PAUSE_MS = 250;

/** The list's order, the service's: most recently updated first, then by id. */
const newestFirst = (a: ContactRowFragment, b: ContactRowFragment) =>
  a.updatedAt === b.updatedAt ? (a.id < b.id ? 1 : -1) : a.updatedAt < b.updatedAt ? 1 : -1;

/** Whether the service's search would find the person: the text in their user id, email or name, in any case. */
const found = (c: ContactRowFragment, text: string) =>
  !text || [c.externalId, c.email, c.displayName].some((v) => v?.toLowerCase().includes(text.toLowerCase()));

export function Contacts({ place }: { place: Place }) {
  const modeId = appModeId(place);
  const [search, setSearch] = useState('');
  const [asked, setAsked] = useState('');
  const list = useRef<HTMLUListElement>(null);
  const end = useRef<HTMLLIElement>(null);

  // The search is asked once typing pauses; an answer to an older search is dropped.
  useEffect(() => {
    const timer = setTimeout(() => setAsked(search.trim()), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [search]);

  const { rows, setRows, next, loading, error, reload, more, readings } = usePagedList<ContactRowFragment>({
    read: async (after) => pageOf((await request(ContactsDocument, { appModeId: modeId, search: asked || null, after })).contacts),
    merge: withPage,
    by: [modeId, asked],
  });

  // Live, for as long as the screen is open, whatever the search: the newest search and reading are used.
  const current = useRef({ asked });
  current.current = { asked };
  const version = useRef<string | null>(null);
  useEffect(() => {
    version.current = null;
    return live(
      ContactsChangedDocument,
      () => ({ appModeId: modeId, after: version.current }),
      ({ contactsChanged: change }) => {
        version.current = change.version;
        if (change.reload) return void reload();
        const c = change.contact;
        if (c) setRows((old) => withChange(old, c, found(c, current.current.asked), newestFirst));
      },
    );
  }, [modeId]);

  const open = (id: string) => navigate(contactPath(id));
  useMoreWhenSeen(end, more, next !== null, rows, readings);
  useRowKeys(list, open);

  return (
    <main class="contacts" id="main">
      <header class="contacts-head">
        <h1>Contacts</h1>
        <label for="contact-search">Search by email, name or user id</label>
        <input
          id="contact-search"
          type="search"
          autocomplete="off"
          value={search}
          onInput={(e) => setSearch(e.currentTarget.value)}
          onKeyDown={(e) => {
            // Down from the search goes to the first row; Enter there opens the only match.
            if (e.code === 'ArrowDown' || (e.code === 'Enter' && rows.length === 1)) {
              e.preventDefault();
              if (e.code === 'Enter') return open(rows[0]!.id);
              list.current?.querySelector<HTMLElement>('a.row')?.focus();
            }
          }}
        />
      </header>
      <ListStatus error={error} loading={loading} count={rows.length} empty={asked ? `No contact matches “${asked}”.` : 'No contact yet.'}>
        <ul class="contact-rows" ref={list} aria-label="Contacts">
          {rows.map((c) => (
            <li key={c.id}>
              <a
                class="row"
                href={contactPath(c.id)}
                data-id={c.id}
                onClick={(e) => (e.preventDefault(), open(c.id))}
                onKeyDown={(e) => {
                  if (e.code === 'Enter' || e.code === 'NumpadEnter') (e.preventDefault(), open(c.id));
                }}
              >
                <span class="row-top">
                  <strong class="who">{personName(c)}</strong>
                  <span class="updated">
                    updated <time dateTime={c.updatedAt}>{when(c.updatedAt)}</time>
                  </span>
                </span>
                <span class="preview">{[c.email, c.externalId].filter(Boolean).join(' · ')}</span>
              </a>
            </li>
          ))}
          <MoreRow more={next !== null} end={end} />
        </ul>
      </ListStatus>
      <p class="hint">j and k move, Enter opens a person’s page.</p>
    </main>
  );
}
