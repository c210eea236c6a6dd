import { useEffect, useRef, useState } from 'preact/hooks';
import { live } from '../api/live';
import { request } from '../api/request';
import { actionCommands } from '../commands';
import { TicketsChangedDocument, TicketsDocument, type TicketRowFragment, type TicketTypeRowFragment } from '../generated/graphql';
import { appModeId, type Place } from '../place';
import { navigate, ticketsPath } from '../router';
import { pageOf, usePagedList } from '../ui/paged-list';
import { RowLink } from '../ui/row-link';
import { useEscapeCloses, useMoreWhenSeen, useRowKeys } from '../ui/row-keys';
import { when } from '../ui/time';
import { personName } from './person-panel';
import { useTicketTypes } from './tickets-make';
import { TicketPage } from './tickets-page';
import { withChange, withPage } from '../ui/live-list';
import { ListStatus, MoreRow } from '../ui/list-status';

// Tickets: the app-mode's tickets, the latest step first, of one type or all and in one state or
// all, 30 to a page, the next page loaded as the list is scrolled; kept live by ticketsChanged
// (resuming from the last version seen). j/k move, Enter opens the ticket beside the list.

const PAGE = 30;
const ALL = 'all';
const typeKey = (modeId: string) => `crm.console.ticketType.${modeId}`;

const newestFirst = (a: TicketRowFragment, b: TicketRowFragment) => b.updatedAt.localeCompare(a.updatedAt) || b.id.localeCompare(a.id);

/** Every state of the types given, once per key, in the types' order (the label of the first type that has it). */
function statesOf(types: TicketTypeRowFragment[]) {
  const byKey = new Map<string, string>();
  for (const t of types) for (const s of t.states) if (!byKey.has(s.key)) byKey.set(s.key, s.label);
  return [...byKey].map(([key, label]) => ({ key, label }));
}

export function Tickets({ place, state, ticketId }: { place: Place; state: string; ticketId?: string | undefined }) {
  const modeId = appModeId(place);
  const { types } = useTicketTypes(modeId, true);
  const [typeId, setTypeId] = useState(() => localStorage.getItem(typeKey(modeId)) ?? ALL);
  const version = useRef<string | null>(null);
  const list = useRef<HTMLUListElement>(null);
  const end = useRef<HTMLLIElement>(null);
  const type = typeId === ALL ? null : typeId;
  const stateKey = state === ALL ? null : state;

  // A type kept from before that is gone is forgotten.
  useEffect(() => {
    if (types && type && !types.some((t) => t.id === type)) chooseType(ALL);
  }, [types]);
  const chooseType = (id: string) => {
    localStorage.setItem(typeKey(modeId), id);
    setTypeId(id);
  };

  const { rows, setRows, next, loading, error, reload, more, readings } = usePagedList<TicketRowFragment>({
    read: async (after) =>
      pageOf((await request(TicketsDocument, { appModeId: modeId, typeId: type, state: stateKey, after, first: PAGE })).tickets),
    merge: (old, page, isMore) => withPage(old, page, isMore, newestFirst),
    by: [modeId, type, stateKey],
    clear: true,
  });

  // Live: a ticket made or moved goes to its place when it is of this type and state, away otherwise.
  useEffect(() => {
    version.current = null;
    return live(
      TicketsChangedDocument,
      () => ({ appModeId: modeId, typeId: type, after: version.current }),
      ({ ticketsChanged: change }) => {
        version.current = change.version;
        if (change.reload) return void reload();
        const t = change.ticket;
        if (!t) return;
        setRows((old) => withChange(old, t, stateKey === null || t.state === stateKey, newestFirst));
      },
    );
  }, [modeId, type, stateKey, reload]);

  const open = (id: string) => navigate(ticketsPath(state, id));
  useMoreWhenSeen(end, more, next !== null, rows, readings);
  useRowKeys(list, open);

  useEscapeCloses(ticketId, () => navigate(ticketsPath(state)));

  const shownTypes = (types ?? []).filter((t) => t.id === type || type === null);
  const states = statesOf(type ? shownTypes : (types ?? []));

  // The command menu: a state's tickets (the open ticket adds its own moves).
  useEffect(() => {
    if (ticketId) return;
    actionCommands.set([
      { id: 'tickets-all', label: 'Show tickets in every state', run: () => navigate(ticketsPath(ALL)) },
      ...states.map((s) => ({ id: `tickets-${s.key}`, label: `Show tickets: ${s.label}`, run: () => navigate(ticketsPath(s.key)) })),
    ]);
    return () => actionCommands.set([]);
  }, [ticketId, types, typeId]);

  const title = stateKey ? `Tickets: ${states.find((s) => s.key === stateKey)?.label ?? stateKey}` : 'Tickets';
  return (
    <main class="inbox tickets" id="main">
      <section class="list-pane" aria-labelledby="tickets-title">
        <h1 id="tickets-title">{title}</h1>
        <div class="ticket-filters">
          <label>
            Type
            <select value={typeId} onChange={(e) => chooseType(e.currentTarget.value)}>
              <option value={ALL}>All types</option>
              {(types ?? []).map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                  {t.archived ? ' (archived)' : ''}
                </option>
              ))}
            </select>
          </label>
          <label>
            State
            <select value={stateKey ?? ALL} onChange={(e) => navigate(ticketsPath(e.currentTarget.value))}>
              <option value={ALL}>All states</option>
              {states.map((s) => (
                <option key={s.key} value={s.key}>
                  {s.label}
                </option>
              ))}
              {stateKey && !states.some((s) => s.key === stateKey) && <option value={stateKey}>{stateKey}</option>}
            </select>
          </label>
        </div>
        <ListStatus error={error} loading={loading} count={rows.length} empty="No tickets here yet.">
          <ul class="conversations ticket-rows" ref={list} aria-label="Tickets">
            {rows.map((t) => {
              const selected = t.id === ticketId;
              return (
                <li key={t.id}>
                  <RowLink id={t.id} href={ticketsPath(state, t.id)} selected={selected} onOpen={open}>
                    <span class="row-top">
                      <strong class="who">
                        #{t.number} {t.title}
                      </strong>
                      <time dateTime={t.updatedAt}>{when(t.updatedAt)}</time>
                    </span>
                    <span class="preview">
                      <span class={`ticket-state${t.currentState.final ? ' final' : ''}`}>{t.currentState.label}</span> · {t.type.name} ·{' '}
                      {personName(t.contact)}
                    </span>
                  </RowLink>
                </li>
              );
            })}
            <MoreRow more={next !== null} end={end} />
          </ul>
        </ListStatus>
      </section>
      {ticketId ? (
        <TicketPage
          key={ticketId}
          id={ticketId}
          seen={rows.find((r) => r.id === ticketId)?.updatedAt}
          onGone={() => navigate(ticketsPath(state))}
        />
      ) : (
        <section class="conversation-pane empty" aria-label="Ticket">
          <p>Choose a ticket: j and k move, Enter opens.</p>
        </section>
      )}
    </main>
  );
}
