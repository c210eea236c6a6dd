import { useEffect, useRef, useState } from 'preact/hooks';
import { live } from '../api/live';
import { request, messageOf } from '../api/request';
import { actionCommands } from '../commands';
import {
  CreateInAppMessageDocument,
  InAppCountsLiveDocument,
  InAppMessagesDocument,
  type InAppMessageRowFragment,
  type InAppState,
  type InAppVariantCountsFragment,
} from '../generated/graphql';
import { appModeId, type Place } from '../place';
import { messagesPath, navigate } from '../router';
import { withPage } from '../ui/live-list';
import { pageOf, usePagedList } from '../ui/paged-list';
import { RowLink } from '../ui/row-link';
import { useEscapeCloses, useMoreWhenSeen, useRowKeys } from '../ui/row-keys';
import { when } from '../ui/time';
import { addCount, KIND_NAMES, MessagePage, STATE_NAMES, totals } from './messages-page';
import { SurveyResults } from './messages-lazy';
import { TestPhones } from './messages-phones';
import { ListStatus, MoreRow } from '../ui/list-status';

// Messages: the app-mode's in-app messages, newest first, 30 to a page (the next page loaded as the
// list is scrolled), each with its kind, state and statistics (people counted once each, the
// control group left out). j/k move, Enter opens the message beside the list, Esc goes back.
// "Make a banner", "Make a post" and "Make a carousel" make a draft from a name and one paragraph
// (a carousel's first screen), "Make a survey" from a name and its first question (a 0 to 10
// score, then the thank-you step); its page's editor does the rest. A survey's results open beside
// the list (`/console/messages/<id>/results`).

const PAGE = 30;
/** The most rows read again at once when the live statistics ask for a reload. */
const MAX_REREAD = 200;

export function Messages({ place, messageId, results }: { place: Place; messageId?: string | undefined; results?: boolean | undefined }) {
  const modeId = appModeId(place);
  const [making, setMaking] = useState<MakeKind | undefined>();
  const [phonesOpen, setPhonesOpen] = useState(false);
  /** The state shown ('' for every one): ended messages are the archive. */
  const [shown, setShown] = useState<InAppState | ''>('');
  const [phonesVersion, setPhonesVersion] = useState(0);
  const list = useRef<HTMLUListElement>(null);
  const end = useRef<HTMLLIElement>(null);

  const { rows, setRows, next, loading, error, reload, more, readings } = usePagedList<InAppMessageRowFragment>({
    read: async (after, first = PAGE) =>
      pageOf((await request(InAppMessagesDocument, { appModeId: modeId, after, first, state: shown || null })).inAppMessages),
    merge: withPage,
    by: [modeId, shown],
  });

  // The list's statistics live, by one subscription for the app-mode (each count names its
  // message). The open message's row follows its page, which counts it itself. When the service
  // says reload (the first answer too), the rows held are read again.
  const held = useRef(rows);
  held.current = rows;
  const opened = useRef(messageId);
  opened.current = messageId;
  const version = useRef<string | null>(null);
  useEffect(() => {
    version.current = null;
    return live(
      InAppCountsLiveDocument,
      () => ({ appModeId: modeId, after: version.current }),
      ({ inAppCounts: e }) => {
        version.current = e.version;
        if (e.reload) return void reload(Math.min(MAX_REREAD, Math.max(PAGE, held.current.length)));
        setRows((old) =>
          old.map((r) => {
            const mine = e.counts.filter((c) => c.messageId === r.id && r.id !== opened.current);
            if (!mine.length) return r;
            let variants = r.stats.variants;
            for (const c of mine) variants = addCount(variants, c);
            return { ...r, stats: { ...r.stats, variants } };
          }),
        );
      },
    );
  }, [modeId, reload]);

  const open = (id: string) => navigate(messagesPath(id));
  useMoreWhenSeen(end, more, next !== null, rows, readings);
  useRowKeys(list, open);

  useEscapeCloses(messageId, () => navigate(messagesPath()));

  useEffect(() => {
    actionCommands.set([
      ...(Object.keys(MAKE) as MakeKind[]).map((kind) => ({ id: `messages-${kind}`, label: `Make a ${kind}`, run: () => setMaking(kind) })),
      { id: 'messages-phones', label: 'Test phones', run: () => setPhonesOpen(true) },
    ]);
    return () => actionCommands.set([]);
  }, []);

  /** A draft deleted on its page leaves the list. */
  const deleted = (id: string) => (setRows((old) => old.filter((r) => r.id !== id)), navigate(messagesPath()));

  /** A message changed on its page takes its place in the list. */
  const changed = (m: InAppMessageRowFragment) =>
    setRows((old) =>
      old.some((r) => r.id === m.id) ? old.map((r) => (r.id === m.id ? m : r)) : !shown || m.state === shown ? [m, ...old] : old,
    );

  return (
    <main class="inbox messages" id="main">
      <section class="list-pane" aria-labelledby="messages-title">
        <div class="messages-head">
          <h1 id="messages-title">Messages</h1>
          <span class="row-buttons">
            {(Object.keys(MAKE) as MakeKind[]).map((kind) => (
              <button key={kind} type="button" class="small" onClick={() => setMaking(kind)}>
                Make a {kind}
              </button>
            ))}
            <button type="button" class="small quiet" aria-expanded={phonesOpen} onClick={() => setPhonesOpen(!phonesOpen)}>
              Test phones
            </button>
          </span>
          <label class="messages-shown">
            Show{' '}
            <select value={shown} onChange={(e) => setShown(e.currentTarget.value as InAppState | '')}>
              <option value="">Every message</option>
              {(Object.keys(STATE_NAMES) as InAppState[]).map((st) => (
                <option key={st} value={st}>
                  {st === 'ended' ? 'Ended (the archive)' : STATE_NAMES[st]}
                </option>
              ))}
            </select>
          </label>
        </div>
        {phonesOpen && <TestPhones modeId={modeId} onChanged={() => setPhonesVersion((v) => v + 1)} onClose={() => setPhonesOpen(false)} />}
        {making && (
          <MakeMessage
            key={making}
            kind={making}
            modeId={modeId}
            onCancel={() => setMaking(undefined)}
            onMade={(m) => {
              setMaking(undefined);
              changed(m);
              open(m.id);
            }}
          />
        )}
        <ListStatus
          error={error}
          loading={loading}
          count={rows.length}
          empty={shown ? `No ${STATE_NAMES[shown].toLowerCase()} messages.` : 'No messages yet.'}
        >
          <ul class="conversations message-rows" ref={list} aria-label="Messages">
            {rows.map((m) => {
              const selected = m.id === messageId;
              const t = totals(m.stats.variants);
              return (
                <li key={m.id}>
                  <RowLink id={m.id} href={messagesPath(m.id)} selected={selected} onOpen={open}>
                    <span class="row-top">
                      <strong class="who">{m.name}</strong>
                      <time dateTime={m.updatedAt}>{when(m.updatedAt)}</time>
                    </span>
                    <span class="preview">
                      <span class={`message-state state-${m.state}`}>{STATE_NAMES[m.state]}</span> · {KIND_NAMES[m.kind]} · {t.sent} sent ·{' '}
                      {t.seen} seen · {t.clicked} clicked
                    </span>
                  </RowLink>
                </li>
              );
            })}
            <MoreRow more={next !== null} end={end} />
          </ul>
        </ListStatus>
      </section>
      {messageId && results ? (
        <SurveyResults key={`${messageId}-results`} id={messageId} />
      ) : messageId ? (
        <MessagePage key={messageId} id={messageId} modeId={modeId} onChanged={changed} onDeleted={deleted} phonesVersion={phonesVersion} />
      ) : (
        <section class="conversation-pane empty" aria-label="Message">
          <p>Choose a message: j and k move, Enter opens.</p>
        </section>
      )}
    </main>
  );
}

type MakeKind = 'banner' | 'post' | 'carousel' | 'survey';
const paragraph = (text: string) => [{ type: 'paragraph', spans: [{ text }] }];
/** The content each kind is made with: one paragraph (a carousel's on its first screen). */
const MAKE: Record<MakeKind, (text: string) => unknown> = {
  banner: (text) => ({ blocks: paragraph(text) }),
  post: (text) => ({ blocks: paragraph(text) }),
  carousel: (text) => ({ screens: [{ id: 'screen-1', blocks: paragraph(text) }] }),
  survey: (text) => ({
    steps: [
      { id: 'step-1', questions: [{ id: 'q1', type: 'nps', title: text }] },
      { id: 'thanks', thankYou: true, blocks: paragraph('Thank you!') },
    ],
  }),
};
const TEXT_LABEL: Record<MakeKind, string> = {
  banner: 'Text',
  post: 'Text',
  carousel: 'Text of its first screen',
  survey: 'Its first question (a score from 0 to 10; change it in the editor)',
};

/** A message of a kind from a name and one paragraph, made as a draft. */
function MakeMessage(props: { kind: MakeKind; modeId: string; onCancel(): void; onMade(m: InAppMessageRowFragment): void }) {
  const [name, setName] = useState('');
  const [text, setText] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    try {
      const content = MAKE[props.kind](text);
      const { createInAppMessage } = await request(CreateInAppMessageDocument, {
        appModeId: props.modeId,
        kind: props.kind,
        input: { name, content },
      });
      props.onMade(createInAppMessage);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      class="make-banner"
      aria-label={`Make a ${props.kind}`}
      onSubmit={submit}
      onKeyDown={(e) => e.code === 'Escape' && (e.stopPropagation(), props.onCancel())}
    >
      <label>
        Name
        <input ref={first} required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <label>
        {TEXT_LABEL[props.kind]}
        <textarea required rows={3} value={text} onInput={(e) => setText(e.currentTarget.value)} />
      </label>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <div class="actions">
        <button type="submit" disabled={busy}>
          Make the {props.kind}
        </button>
        <button type="button" class="quiet" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
