import { useEffect, useRef, useState } from 'preact/hooks';
import type { Part, SupportTicket } from '../../../sdk/src/index.js';
import type { MessengerContext } from '../context.js';
import { merged } from './conversation.js';
import { Head } from './head.js';
import { useOnline } from './online.js';
import { Parts } from './parts.js';
import { usePictures } from './pictures.js';
import { Composer } from './composer.js';
import { refusal } from './refusal.js';
import { stateOf, when } from './tickets.js';
import { words } from '../words.js';

/** One ticket: its type, where it has got to (live), its steps, its conversation (live) and a reply. */
export function TicketScreen(props: { context: MessengerContext; id: string; back: () => void }) {
  const { client, language } = props.context;
  const [ticket, setTicket] = useState<SupportTicket | undefined>();
  const [parts, setParts] = useState<Part[]>([]);
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [failed, setFailed] = useState('');
  const pictures = usePictures(client);
  const online = useOnline();
  const end = useRef<HTMLDivElement>(null);
  const back = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let watching: { stop(): void } | undefined;
    let gone = false;
    void client.api.GET('/guest/v1/tickets/{ticket_id}', { params: { path: { ticket_id: props.id } } }).then(({ data, error }) => {
      if (gone) return;
      if (!data) return setFailed(refusal(error, words().ticketUnreadable));
      setTicket(data);
      setParts((held) => merged(held, data.conversation.parts));
      const read = (seq: number) =>
        client.api.POST('/guest/v1/conversations/{conversation_id}/read', {
          params: { path: { conversation_id: data.conversation_id } },
          body: { seq },
        });
      if (data.conversation.unread > 0) void read(data.conversation.last_seq);
      watching = client.watchTicket(data, {
        parts: (more, lastSeq) => {
          setParts((held) => merged(held, more));
          void read(lastSeq);
        },
        ticket: setTicket,
      });
    });
    // The way back takes the focus as the screen opens (the reply box is below the ticket).
    back.current?.querySelector('button')?.focus();
    return () => {
      gone = true;
      watching?.stop();
    };
  }, [props.id]);

  useEffect(() => end.current?.scrollIntoView({ block: 'end' }), [parts.length]);

  const send = async (event: Event) => {
    event.preventDefault();
    const reply = text.trim();
    if (sending || pictures.uploading || (!reply && !pictures.ids.length)) return;
    setSending(true);
    setFailed('');
    try {
      const part = await client.replyToTicket(props.id, { text: reply, attachment_ids: pictures.ids });
      setParts((held) => merged(held, [part]));
      setText('');
      pictures.clear();
    } catch (error) {
      setFailed(refusal(error, words().notSent));
    } finally {
      setSending(false);
    }
  };

  const state = ticket && stateOf(ticket.state);
  return (
    <>
      <div ref={back}>
        <Head title={ticket ? words().ticketNumber(ticket.number) : words().ticket} back={props.back} close={props.context.close} />
      </div>
      <div class="body" role="region" tabIndex={0} aria-label={ticket ? ticket.title : words().ticket}>
        {ticket && state && (
          <section class="card ticket" aria-labelledby="crm-ticket-title">
            <h3 id="crm-ticket-title">{ticket.title}</h3>
            <dl>
              <dt>{words().ticketType}</dt>
              <dd>{ticket.type.name}</dd>
              <dt>{words().ticketState}</dt>
              <dd aria-live="polite">
                <span class={`ticket-state${state.final ? ' final' : ''}`}>{state.label}</span>
              </dd>
              <dt>{words().changed}</dt>
              <dd>
                <time dateTime={ticket.updated_at}>{when(ticket.updated_at, language)}</time>
              </dd>
            </dl>
            {ticket.description && <p class="ticket-description">{ticket.description}</p>}
            <ol class="steps" aria-label={words().ticketSteps}>
              {ticket.states.map((s) => (
                <li key={s.key} class={s.current ? 'current' : ''} aria-current={s.current ? 'step' : undefined}>
                  {s.label || s.key}
                </li>
              ))}
            </ol>
          </section>
        )}
        <div role="log" aria-label={words().conversation}>
          <Parts parts={parts} />
        </div>
        <div ref={end} />
      </div>
      <Composer
        id="crm-ticket-reply"
        label={words().yourReply}
        placeholder={words().writeAReply}
        {...{ text, setText, send, pictures, sending, online, failed }}
      />
    </>
  );
}
