import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { request, messageOf } from '../api/request';
import { actionCommands } from '../commands';
import { MoveTicketDocument, TicketDocument, type TicketPageFragment } from '../generated/graphql';
import { plainKey } from '../keys';
import { contactPath, inboxPath, navigate } from '../router';
import { Chooser } from '../ui/chooser';
import { fullTime } from '../ui/time';
import { personName } from './person-panel';

// A ticket beside the tickets list: its type and details, its state with the moves its type allows
// (any other of its states, on or back: moveTicket), the person (their page), the conversation it
// is worked in (in the inbox) and its steps. Read again when the list hears it changed; m moves.

const CONVERSATION_WORDS = { open: 'open', snoozed: 'snoozed', closed: 'closed' } as const;

export function TicketPage(props: { id: string; seen?: string | undefined; onGone(): void }) {
  const { id, onGone } = props;
  const [ticket, setTicket] = useState<TicketPageFragment | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [choosing, setChoosing] = useState(false);
  const [busy, setBusy] = useState(false);

  const read = useCallback(async () => {
    try {
      setTicket((await request(TicketDocument, { id })).ticket);
    } catch (err) {
      setError(messageOf(err));
    }
  }, [id]);
  // Read as it opens, and again when the list's live row says it changed.
  useEffect(() => void read(), [read, props.seen]);

  const move = async (state: string) => {
    setError(undefined);
    setBusy(true);
    try {
      setTicket((await request(MoveTicketDocument, { ticketId: id, state })).moveTicket);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  const moveRef = useRef(move);
  moveRef.current = move;

  const states = ticket?.type.states ?? [];
  const labelOf = (key: string | null) => states.find((s) => s.key === key)?.label ?? key ?? '';
  const conversation = ticket?.conversation;
  const conversationHref = conversation ? inboxPath(conversation.state, conversation.id) : undefined;

  useEffect(() => {
    if (!ticket) return;
    actionCommands.set([
      { id: 'ticket-move', label: 'Move the ticket…', key: 'M', run: () => setChoosing(true) },
      ...states
        .filter((s) => s.key !== ticket.state)
        .map((s) => ({ id: `ticket-move-${s.key}`, label: `Move the ticket to ${s.label}`, run: () => void moveRef.current(s.key) })),
      {
        id: 'ticket-conversation',
        label: 'Open the ticket’s conversation',
        key: 'C',
        run: () => conversationHref && navigate(conversationHref),
      },
      { id: 'ticket-person', label: 'Open the ticket’s person', run: () => navigate(contactPath(ticket.contact.id)) },
      { id: 'back', label: 'Back to the list', key: 'Esc', run: onGone },
    ]);
    const onKey = (e: KeyboardEvent) => {
      if (document.querySelector('.overlay')) return;
      if (plainKey(e, 'KeyM')) (e.preventDefault(), setChoosing(true));
      else if (plainKey(e, 'KeyC') && conversationHref) (e.preventDefault(), navigate(conversationHref));
    };
    addEventListener('keydown', onKey);
    return () => {
      removeEventListener('keydown', onKey);
      actionCommands.set([]);
    };
  }, [ticket?.state, ticket?.type.id, conversationHref]);

  if (!ticket)
    return (
      <section class="conversation-pane" aria-label="Ticket">
        {error ? (
          <p class="error" role="alert">
            {error}
          </p>
        ) : (
          <p class="quiet-text">Loading…</p>
        )}
      </section>
    );

  const steps = ticket.history.edges.map((e) => e.node);
  return (
    <section class="conversation-pane ticket-page" aria-labelledby="ticket-title">
      <header class="conversation-head">
        <div>
          <button type="button" class="back quiet" onClick={onGone}>
            Back to the list
          </button>
          <h2 id="ticket-title">
            #{ticket.number} {ticket.title}
          </h2>
          <p class="meta">
            <span class={`ticket-state${ticket.currentState.final ? ' final' : ''}`}>{ticket.currentState.label}</span> · {ticket.type.name}
            {ticket.type.archived ? ' (archived type)' : ''}
          </p>
        </div>
        <div class="actions" role="group" aria-label="Ticket actions">
          <button type="button" onClick={() => setChoosing(true)} aria-keyshortcuts="M" disabled={busy}>
            Move…
          </button>
        </div>
      </header>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <div class="ticket-body">
        <section aria-labelledby="ticket-states-title">
          <h3 id="ticket-states-title">State</h3>
          <ol class="ticket-states">
            {states.map((s) => {
              const here = s.key === ticket.state;
              return (
                <li key={s.key}>
                  <button
                    type="button"
                    class={here ? 'on' : 'quiet'}
                    aria-current={here ? 'step' : undefined}
                    disabled={busy}
                    onClick={() => !here && void move(s.key)}
                  >
                    {s.label}
                    {s.final ? ' (done)' : ''}
                  </button>
                </li>
              );
            })}
          </ol>
        </section>
        <section aria-labelledby="ticket-details-title">
          <h3 id="ticket-details-title">Details</h3>
          <dl class="facts ticket-facts">
            <div>
              <dt>Number</dt>
              <dd>#{ticket.number}</dd>
            </div>
            <div>
              <dt>Type</dt>
              <dd>{ticket.type.name}</dd>
            </div>
            <div>
              <dt>Person</dt>
              <dd>
                <a href={contactPath(ticket.contact.id)} onClick={(e) => (e.preventDefault(), navigate(contactPath(ticket.contact.id)))}>
                  {personName(ticket.contact)}
                </a>
              </dd>
            </div>
            <div>
              <dt>Conversation</dt>
              <dd>
                {conversation && conversationHref && (
                  <a href={conversationHref} onClick={(e) => (e.preventDefault(), navigate(conversationHref))}>
                    {conversation.preview || 'Open it'} ({CONVERSATION_WORDS[conversation.state]})
                  </a>
                )}
              </dd>
            </div>
            <div>
              <dt>Made</dt>
              <dd>
                <time dateTime={ticket.createdAt}>{fullTime(ticket.createdAt)}</time>
              </dd>
            </div>
            <div>
              <dt>Last step</dt>
              <dd>
                <time dateTime={ticket.updatedAt}>{fullTime(ticket.updatedAt)}</time>
              </dd>
            </div>
          </dl>
          <h3>Description</h3>
          <p class="ticket-description">{ticket.description || 'No description.'}</p>
        </section>
        <section aria-labelledby="ticket-history-title">
          <h3 id="ticket-history-title">Steps</h3>
          <ol class="ticket-history">
            {steps.map((s) => (
              <li key={s.id}>
                {s.from === null ? (
                  <>
                    Made in <strong>{labelOf(s.to)}</strong>
                  </>
                ) : (
                  <>
                    Moved from {labelOf(s.from)} to <strong>{labelOf(s.to)}</strong>
                  </>
                )}{' '}
                by {s.byName} · <time dateTime={s.at}>{fullTime(s.at)}</time>
              </li>
            ))}
          </ol>
        </section>
      </div>
      {choosing && (
        <Chooser
          title="Move the ticket to"
          choices={states
            .filter((s) => s.key !== ticket.state)
            .map((s) => ({ id: s.key, label: s.label, ...(s.final ? { hint: 'Done' } : {}) }))}
          onChoose={(c) => void move(c.id)}
          onClose={() => setChoosing(false)}
        />
      )}
    </section>
  );
}
