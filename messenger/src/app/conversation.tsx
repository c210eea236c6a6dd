import { useEffect, useRef, useState } from 'preact/hooks';
import type { Part } from '../../../sdk/src/index.js';
import type { MessengerContext } from '../context.js';
import { Head } from './head.js';
import { Parts } from './parts.js';

/** Parts by id, in seq order: the long poll and the sender's own answer may bring the same part. */
function merged(held: Part[], more: Part[]): Part[] {
  const byId = new Map(held.map((p) => [p.id, p]));
  for (const p of more) byId.set(p.id, p);
  return [...byId.values()].sort((a, b) => a.seq - b.seq);
}

/** One conversation (or a new one, until its first message starts it), live while it is on screen. */
export function ConversationScreen(props: { context: MessengerContext; id?: string; back: () => void; started: (id: string) => void }) {
  const { client } = props.context;
  const [parts, setParts] = useState<Part[]>([]);
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [failed, setFailed] = useState('');
  const end = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    input.current?.focus();
    if (!props.id) return;
    const id = props.id;
    let watching: { stop(): void } | undefined;
    let gone = false;
    void client.api.GET('/guest/v1/conversations/{conversation_id}', { params: { path: { conversation_id: id } } }).then(({ data }) => {
      if (!data || gone) return;
      setParts((held) => merged(held, data.parts));
      const read = (seq: number) =>
        client.api.POST('/guest/v1/conversations/{conversation_id}/read', { params: { path: { conversation_id: id } }, body: { seq } });
      if (data.unread > 0) void read(data.last_seq);
      watching = client.watch(id, data.last_seq, (more, lastSeq) => {
        setParts((held) => merged(held, more));
        void read(lastSeq);
      });
    });
    return () => {
      gone = true;
      watching?.stop();
    };
  }, [props.id]);

  useEffect(() => end.current?.scrollIntoView({ block: 'end' }), [parts.length]);

  const send = async (event: Event) => {
    event.preventDefault();
    const words = text.trim();
    if (!words || sending) return;
    setSending(true);
    setFailed('');
    try {
      if (props.id) {
        const part = await client.sendMessage(props.id, { text: words });
        setParts((held) => merged(held, [part]));
      } else {
        const conversation = await client.startConversation({ text: words });
        props.started(conversation.id);
      }
      setText('');
    } catch (error) {
      setFailed(error instanceof Error ? error.message : 'Your message could not be sent.');
    } finally {
      setSending(false);
    }
  };

  return (
    <>
      <Head title={props.context.brand.name} back={props.back} close={props.context.close} />
      <div class="body" aria-live="polite">
        {!props.id && <p class="reply-time">Ask us anything: we will answer here.</p>}
        <Parts parts={parts} />
        <div ref={end} />
      </div>
      {failed && (
        <p class="error" role="alert">
          {failed}
        </p>
      )}
      <form class="composer" onSubmit={send}>
        <label class="visually-hidden" for="crm-text">
          Your message
        </label>
        <textarea
          id="crm-text"
          ref={input}
          rows={1}
          value={text}
          onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) void send(e);
          }}
          placeholder="Write a message…"
        />
        <button type="submit" class="primary" disabled={sending}>
          Send
        </button>
      </form>
    </>
  );
}
