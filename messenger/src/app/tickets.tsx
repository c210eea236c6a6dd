import { useEffect, useRef, useState } from 'preact/hooks';
import type { components } from '../../../sdk/src/index.js';
import type { MessengerContext } from '../context.js';
import { focusFirst } from './focus.js';
import { Head } from './head.js';
import { words } from '../words.js';
import { refusal } from './refusal.js';

export type TicketSummary = components['schemas']['SupportTicketSummary'];

/** A ticket's state as the team named it for the person (its key when the label is empty), and whether it is done. */
export function stateOf(state: { key: string; label: string; final: boolean }): { label: string; final: boolean } {
  return { label: state.label || state.key, final: state.final === true };
}

/** When, in the person's language. */
export const when = (at: string, language: string | undefined) => new Date(at).toLocaleString(language);

/** Tickets as buttons opening them, each with its number, title, type and state; `data-ticket` lets the focus come back to one. */
export function TicketRows({ tickets, open }: { tickets: TicketSummary[]; open: (id: string) => void }) {
  return (
    <ul class="list tickets">
      {tickets.map((t) => {
        const state = stateOf(t.state);
        return (
          <li key={t.id}>
            <button type="button" data-ticket={t.id} onClick={() => open(t.id)}>
              <span class="preview">
                <span class="ticket-title">
                  #{t.number} {t.title}
                </span>
                <span class="ticket-type">{t.type.name}</span>
              </span>
              <span class={`ticket-state${state.final ? ' final' : ''}`}>{state.label}</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/** Home's tickets: those not done yet among the latest (newest first, as few as home brings), and a way to all of them. */
export function HomeTickets(props: { tickets: TicketSummary[]; open: (id: string) => void; all: () => void }) {
  if (!props.tickets.length) return null;
  const open = props.tickets.filter((t) => !stateOf(t.state).final).slice(0, 3);
  return (
    <section class="card" aria-labelledby="crm-tickets">
      <h3 id="crm-tickets">{words().yourTickets}</h3>
      {open.length > 0 && <TicketRows tickets={open} open={props.open} />}
      <button type="button" class="link-button all-tickets" onClick={props.all}>
        {words().allTickets}
      </button>
    </section>
  );
}

/** Every ticket of the person, newest first, older ones on asking; the focus back on the ticket left (`returnTo`). */
export function TicketsScreen(props: { context: MessengerContext; back: () => void; open: (id: string) => void; returnTo?: string }) {
  const { context } = props;
  const [tickets, setTickets] = useState<TicketSummary[]>([]);
  const [before, setBefore] = useState<string | null | undefined>(undefined);
  const [failed, setFailed] = useState('');
  const body = useRef<HTMLDivElement>(null);
  const more = async (cursor?: string) => {
    const { data, error } = await context.client.api.GET('/guest/v1/tickets', { params: { query: { before: cursor, limit: '20' } } });
    if (!data) return setFailed(refusal(error, words().ticketsUnreadable));
    setTickets((held) => [...held, ...data.items]);
    setBefore(data.next_before);
  };
  useEffect(() => void more(), []);
  const loaded = before !== undefined;
  useEffect(() => {
    if (!loaded) return;
    const panel = body.current?.parentElement ?? null;
    const left = props.returnTo && panel?.querySelector<HTMLElement>(`[data-ticket="${props.returnTo}"]`);
    if (left) left.focus();
    else focusFirst(panel);
  }, [loaded]);
  return (
    <>
      <Head title={words().tickets} back={props.back} close={context.close} />
      <div class="body" ref={body}>
        {failed && (
          <p class="error" role="alert">
            {failed}
          </p>
        )}
        {loaded && !tickets.length && <p class="reply-time">{words().nothingYet}</p>}
        <TicketRows tickets={tickets} open={props.open} />
        {before && (
          <button type="button" class="primary" onClick={() => void more(before)}>
            {words().olderTickets}
          </button>
        )}
      </div>
    </>
  );
}
