import { useEffect, useRef, useState } from 'preact/hooks';
import type { Part } from '../../../sdk/src/index.js';
import type { MessengerContext } from '../context.js';
import { askingBotPart, BotButtons, ratingAsked, RateConversation } from './ending.js';
import { Head } from './head.js';
import { Parts } from './parts.js';
import { useOnline } from './online.js';
import { usePictures } from './pictures.js';
import { Composer } from './composer.js';
import { words } from '../words.js';
import { refusal } from './refusal.js';

/** Parts by id, in seq order: the long poll and the sender's own answer may bring the same part. */
export function merged(held: Part[], more: Part[]): Part[] {
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
  const pictures = usePictures(client);
  const online = useOnline();
  const end = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLTextAreaElement>(null);
  const path = { params: { path: { conversation_id: props.id ?? '' } } };

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

  /** Does `act`, showing a refusal in the service's words. */
  const attempt = async (act: () => Promise<void>) => {
    setSending(true);
    setFailed('');
    try {
      await act();
    } catch (error) {
      setFailed(error instanceof Error ? error.message : words().notSent);
    } finally {
      setSending(false);
    }
  };

  const asking = askingBotPart(parts);
  const answerBot = (answer: { button?: string; value?: string }) =>
    attempt(async () => {
      const { data, error, response } = await client.api.POST('/guest/v1/conversations/{conversation_id}/bot', {
        ...path,
        body: { part_id: asking!.id, ...answer },
      });
      if (!data) throw new Error(refusal(error, `The service answered ${response.status}.`));
      setParts((held) => merged(held, [data]));
      setText('');
    });

  const send = async (event: Event) => {
    event.preventDefault();
    const words = text.trim();
    if (sending || pictures.uploading || (!words && !pictures.ids.length)) return;
    if (asking?.question && words) return answerBot({ value: words });
    await attempt(async () => {
      const body = { text: words, attachment_ids: pictures.ids };
      if (props.id) setParts(merged(parts, [await client.sendMessage(props.id, body)]));
      else props.started((await client.startConversation(body)).id);
      setText('');
      pictures.clear();
    });
  };

  const rate = (rating: number, remark: string | null) =>
    attempt(async () => {
      const { data, error } = await client.api.POST('/guest/v1/conversations/{conversation_id}/rating', {
        ...path,
        body: { rating, remark },
      });
      if (!data) throw new Error(refusal(error, words().notSent));
      setParts((held) => merged(held, [data]));
    });

  return (
    <>
      <Head title={props.context.brand.name} back={props.back} close={props.context.close} />
      <div class="body" role="log" aria-label={words().conversation} tabIndex={0}>
        {!props.id && <p class="reply-time">{words().askAnything}</p>}
        <Parts parts={parts} />
        {asking && <BotButtons part={asking} tap={(button) => void answerBot({ button })} />}
        {ratingAsked(parts) && <RateConversation rate={rate} />}
        <div ref={end} />
      </div>
      <Composer
        id="crm-text"
        label={asking?.question ? words().yourAnswer : words().yourMessage}
        placeholder={asking?.question ? words().answerHere : words().writeAMessage}
        input={input}
        {...{ text, setText, send, pictures, sending, online, failed }}
      />
    </>
  );
}
