import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { Refusal, request, messageOf } from '../api/request';
import { store, useStore } from '../api/store';
import {
  ConversationTicketDocument,
  CreateTicketDocument,
  CreateTicketFromConversationDocument,
  TicketsDocument,
  TicketTypesDocument,
  type TicketRowFragment,
  type TicketTypeRowFragment,
} from '../generated/graphql';
import { onInboxChange } from '../inbox-events';
import { navigate, TICKET_TYPES_PATH, ticketsPath } from '../router';

// Making a ticket: from the open conversation (createTicketFromConversation: the ticket is worked
// there, and the conversation links it from then on) or for a person from their page (createTicket:
// a conversation of its own). A dialog asks the type (of those not archived), a title and a
// description; the service's refusal is shown on its field.

const MAX_TITLE = 200;
const MAX_DESCRIPTION = 10_000;
const CONTACT_TICKETS = 10;

/** The app-mode's ticket types (archived ones too when asked), read once. */
export function useTicketTypes(modeId: string, includeArchived: boolean) {
  const [types, setTypes] = useState<TicketTypeRowFragment[] | undefined>();
  const [error, setError] = useState<string | undefined>();
  const read = useCallback(
    () =>
      request(TicketTypesDocument, { appModeId: modeId, includeArchived })
        .then((d) => (setTypes(d.ticketTypes.edges.map((e) => e.node)), setError(undefined)))
        .catch((err) => setError(messageOf(err))),
    [modeId, includeArchived],
  );
  useEffect(() => void read(), [read]);
  return { types, error, read };
}

interface NewTicket {
  typeId: string;
  title: string;
  description: string;
}

const TicketLink = ({ ticket }: { ticket: TicketRowFragment }) => (
  <a
    class="ticket-link"
    href={ticketsPath('all', ticket.id)}
    onClick={(e) => (e.preventDefault(), navigate(ticketsPath('all', ticket.id)))}
  >
    Ticket #{ticket.number}: {ticket.currentState.label}
  </a>
);

/** The conversation screen's t key (and command) opens the dialog through this. */
export const makingTicket = store(false);

/** Beside the open conversation: its ticket linked, or "Make a ticket…" (t). */
export function ConversationTicket({ conversationId, modeId }: { conversationId: string; modeId: string }) {
  const [ticket, setTicket] = useState<TicketRowFragment | null | undefined>();
  const making = useStore(makingTicket);
  const read = useCallback(
    () =>
      request(ConversationTicketDocument, { id: conversationId })
        .then((d) => setTicket(d.conversation.ticket))
        .catch(() => setTicket(null)),
    [conversationId],
  );
  useEffect(() => {
    makingTicket.set(false);
    void read();
  }, [read]);
  // A ticket made or moved here (by anyone) says so in a line of the conversation: read it again then.
  useEffect(
    () =>
      onInboxChange((change) => {
        const p = change.part;
        if (p?.conversationId === conversationId && (p.event === 'ticket_created' || p.event === 'ticket_moved')) void read();
      }),
    [conversationId, read],
  );
  // With a ticket already, t opens it (as t is pressed: not as a ticket made here arrives).
  useEffect(() => {
    if (making && ticket) (makingTicket.set(false), navigate(ticketsPath('all', ticket.id)));
  }, [making]);

  if (ticket === undefined) return null;
  return (
    <>
      {ticket ? (
        <TicketLink ticket={ticket} />
      ) : (
        <button type="button" onClick={() => makingTicket.set(true)} aria-keyshortcuts="T">
          Make a ticket…
        </button>
      )}
      {making && !ticket && (
        <MakeTicketDialog
          modeId={modeId}
          onClose={() => makingTicket.set(false)}
          onMake={async (input) => {
            const made = (await request(CreateTicketFromConversationDocument, { conversationId, ...input })).createTicketFromConversation;
            setTicket(made);
          }}
        />
      )}
    </>
  );
}

/** On a person's page: their tickets (the latest step first, 10 of them), and making one for them (with a conversation of its own). */
export function ContactTicket({ contactId, modeId }: { contactId: string; modeId: string }) {
  const [open, setOpen] = useState(false);
  const [tickets, setTickets] = useState<TicketRowFragment[] | undefined>();
  const [more, setMore] = useState(false);
  useEffect(() => {
    request(TicketsDocument, { appModeId: modeId, contactId, first: CONTACT_TICKETS })
      .then(({ tickets: page }) => (setTickets(page.edges.map((e) => e.node)), setMore(page.pageInfo.hasNextPage)))
      .catch(() => setTickets([]));
  }, [modeId, contactId]);
  return (
    <section aria-labelledby="contact-tickets-title" class="contact-tickets">
      <h2 id="contact-tickets-title">Tickets</h2>
      {tickets === undefined ? (
        <p class="quiet-text">Loading…</p>
      ) : tickets.length === 0 ? (
        <p>None yet. A ticket tracks a request through its type’s states; the person follows it in the messenger.</p>
      ) : (
        <ul class="plain contact-ticket-rows">
          {tickets.map((t) => (
            <li key={t.id}>
              <TicketLink ticket={t} /> {t.title}
            </li>
          ))}
          {more && <li class="hint-text">Only the {CONTACT_TICKETS} latest are shown.</li>}
        </ul>
      )}
      <button type="button" onClick={() => setOpen(true)}>
        Make a ticket…
      </button>
      {open && (
        <MakeTicketDialog
          modeId={modeId}
          onClose={() => setOpen(false)}
          onMake={async (input) => {
            const ticket = (await request(CreateTicketDocument, { contactId, ...input })).createTicket;
            setTickets((old) => [ticket, ...(old ?? [])]);
          }}
        />
      )}
    </section>
  );
}

function MakeTicketDialog(props: { modeId: string; onMake(input: NewTicket): Promise<void>; onClose(): void }) {
  const { types, error: typesError } = useTicketTypes(props.modeId, false);
  const [typeId, setTypeId] = useState('');
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [error, setError] = useState<Refusal | undefined>();
  const [busy, setBusy] = useState(false);
  const titleInput = useRef<HTMLInputElement>(null);
  // The title takes the keys at once (typed before the types come, nothing is lost); the type,
  // the first until another is chosen, is a Shift+Tab away. Closed, the focus goes back.
  useLayoutEffect(() => {
    const before = document.activeElement;
    titleInput.current?.focus();
    return () => before instanceof HTMLElement && before.focus();
  }, []);
  useEffect(() => {
    if (types?.length) setTypeId((t) => t || types[0]!.id);
  }, [types]);
  // Enter pressed before the types came (a quick typist): the ticket is made once they come.
  const form = useRef<HTMLFormElement>(null);
  const waiting = useRef(false);
  useEffect(() => {
    if (typeId && waiting.current) ((waiting.current = false), form.current?.requestSubmit());
  }, [typeId]);

  const fieldError = (field: string) => error?.fields.find((f) => f.field === field);
  const described = (field: string) => (fieldError(field) ? `make-ticket-${field}-error` : undefined);
  const FieldError = ({ field }: { field: string }) => {
    const f = fieldError(field);
    return f ? (
      <p class="field-error" id={`make-ticket-${field}-error`}>
        {f.detail ?? error?.message}
      </p>
    ) : null;
  };
  const type = types?.find((t) => t.id === typeId);
  return (
    <div class="overlay" onClick={(e) => e.target === e.currentTarget && props.onClose()}>
      <div
        class="confirm make-ticket"
        role="dialog"
        aria-modal="true"
        aria-labelledby="make-ticket-title"
        onKeyDown={(e) => e.code === 'Escape' && (e.preventDefault(), e.stopPropagation(), props.onClose())}
      >
        <form
          ref={form}
          onSubmit={async (e) => {
            e.preventDefault();
            if (!typeId) return void (waiting.current = !types);
            if (busy) return;
            setBusy(true);
            setError(undefined);
            try {
              await props.onMake({ typeId, title, description });
              props.onClose();
            } catch (err) {
              setError(err instanceof Refusal ? err : new Refusal(String(err), 'error'));
              setBusy(false);
            }
          }}
        >
          <h2 id="make-ticket-title">Make a ticket</h2>
          {typesError && (
            <p class="error" role="alert">
              {typesError}
            </p>
          )}
          {types && types.length === 0 ? (
            <p>
              This app has no ticket type yet.{' '}
              <a href={TICKET_TYPES_PATH} onClick={(e) => (e.preventDefault(), props.onClose(), navigate(TICKET_TYPES_PATH))}>
                Add one in Ticket types
              </a>{' '}
              (owners and admins).
            </p>
          ) : (
            <>
              <label for="make-ticket-type">Type</label>
              <select
                id="make-ticket-type"
                value={typeId}
                aria-invalid={fieldError('typeId') ? 'true' : undefined}
                aria-describedby={described('typeId')}
                onChange={(e) => setTypeId(e.currentTarget.value)}
              >
                {(types ?? []).map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </select>
              <FieldError field="typeId" />
              {type && (
                <p class="hint-text">
                  {type.description ? `${type.description} ` : ''}Starts in {type.states[0]?.label}.
                </p>
              )}
              <label for="make-ticket-title-input">Title (required)</label>
              <input
                id="make-ticket-title-input"
                ref={titleInput}
                required
                maxLength={MAX_TITLE}
                autocomplete="off"
                value={title}
                aria-invalid={fieldError('title') ? 'true' : undefined}
                aria-describedby={described('title')}
                onInput={(e) => setTitle(e.currentTarget.value)}
              />
              <FieldError field="title" />
              <label for="make-ticket-description">Description</label>
              <textarea
                id="make-ticket-description"
                rows={4}
                maxLength={MAX_DESCRIPTION}
                value={description}
                aria-invalid={fieldError('description') ? 'true' : undefined}
                aria-describedby={described('description')}
                onInput={(e) => setDescription(e.currentTarget.value)}
              />
              <FieldError field="description" />
            </>
          )}
          {error && !error.fields.length && (
            <p class="error" role="alert">
              {error.message}
            </p>
          )}
          <div class="confirm-actions">
            <button type="button" class="quiet" onClick={props.onClose}>
              Cancel
            </button>
            <button type="submit" disabled={busy || !title.trim() || types?.length === 0}>
              Make the ticket
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}
