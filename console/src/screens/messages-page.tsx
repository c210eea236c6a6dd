import { useEffect, useRef, useState } from 'preact/hooks';
import { live } from '../api/live';
import { request, messageOf } from '../api/request';
import { actionCommands } from '../commands';
import {
  DeleteInAppMessageDocument,
  InAppMessageDocument,
  InAppStatsLiveDocument,
  InAppTestPhonesDocument,
  InAppTestSendsDocument,
  type InAppTestSendsQuery,
  SendInAppTestDocument,
  SetInAppMessageStateDocument,
  type InAppMessagePageFragment,
  type InAppState,
  type InAppVariantCountsFragment,
} from '../generated/graphql';
import { Confirm } from '../ui/confirm';
import { fullTime, when } from '../ui/time';
import { navigate, surveyResultsPath } from '../router';
import { MessageWords } from './messages-words';
import { MessagePreview } from './messages-preview';
import { AudienceReach } from './messages-reach';
import { DAYS } from './sending-window';

type Editor = typeof import('./messages-editor').MessageEditor;
type SurveyEditor = typeof import('./messages-survey-editor').SurveyEditor;
type Audience = typeof import('./messages-audience').AudienceEditor;
type Schedule = typeof import('./messages-audience').ScheduleEditor;
let scheduleLoaded: Schedule | undefined;

/** When a message is answered, in a few words. */
function whenWords(m: InAppMessagePageFragment): string {
  const parts = [
    m.startAt && `from ${fullTime(m.startAt)}`,
    m.stopAt && `until ${fullTime(m.stopAt)}`,
    m.sendingWindow &&
      `on ${m.sendingWindow.days.map((d) => DAYS[d]).join(', ')}, ${m.sendingWindow.from} to ${m.sendingWindow.to} in the person's time zone`,
  ].filter(Boolean);
  return parts.length ? `Shown ${parts.join(', ')}.` : 'Shown whenever it is live.';
}
/** The editors' code, fetched when first opened (they bring the block editor and the forms' refusals). */
let editorLoaded: Editor | undefined;
let surveyEditorLoaded: SurveyEditor | undefined;
let audienceLoaded: Audience | undefined;

/** A rule in a few words: everyone, or how many conditions, all or any of them. */
function audienceWords(audience: unknown): string {
  if (audience === null || audience === undefined) return 'Everyone.';
  const a = audience as { all?: unknown[]; any?: unknown[] };
  const list = a.all ?? a.any;
  if (!list) return 'People who match one condition.';
  return `People who match ${a.all ? 'all' : 'any'} of ${list.length} condition${list.length === 1 ? '' : 's'}.`;
}

// A message's page: its kind, name, state with the moves the service allows, its statistics live
// (inAppStats: counts added as they come, `reload` takes the statistics given), its content blocks
// as text in a card as the person would see a banner or post, and a test copy to a test phone.

export const KIND_NAMES = { banner: 'Banner', post: 'Post', carousel: 'Carousel', survey: 'Survey' } as const;
export const STATE_NAMES = { draft: 'Draft', live: 'Live', paused: 'Paused', ended: 'Ended' } as const;

export type Totals = { sent: number; seen: number; clicked: number; dismissed: number; completed: number };
/** The variants' counts added up, the control group (never shown) left out. */
export function totals(variants: InAppVariantCountsFragment[]): Totals {
  const t = { sent: 0, seen: 0, clicked: 0, dismissed: 0, completed: 0 };
  for (const v of variants) {
    if (v.control) continue;
    t.sent += v.sent;
    t.seen += v.seen;
    t.clicked += v.clicked;
    t.dismissed += v.dismissed;
    t.completed += v.completed;
  }
  return t;
}

/** The moves from each state (ended is for good). */
const MOVES: Record<InAppState, { to: InAppState; label: string }[]> = {
  draft: [{ to: 'live', label: 'Go live' }],
  live: [
    { to: 'paused', label: 'Pause' },
    { to: 'ended', label: 'End…' },
  ],
  paused: [
    { to: 'live', label: 'Go live again' },
    { to: 'ended', label: 'End…' },
  ],
  ended: [],
};

export function addCount(variants: InAppVariantCountsFragment[], c: { variant: string; control: boolean; counter: string }) {
  const key = c.counter as keyof InAppVariantCountsFragment;
  let found = false;
  const out = variants.map((v) => {
    if (v.variant !== c.variant || v.control !== c.control) return v;
    found = true;
    return typeof v[key] === 'number' ? { ...v, [key]: (v[key] as number) + 1 } : v;
  });
  if (found) return out;
  const fresh = { variant: c.variant, control: c.control, sent: 0, seen: 0, clicked: 0, dismissed: 0, completed: 0, goalReached: 0 };
  return [...out, typeof fresh[key as 'sent'] === 'number' ? { ...fresh, [key]: 1 } : fresh];
}

export function MessagePage(props: {
  id: string;
  modeId: string;
  onChanged(m: InAppMessagePageFragment): void;
  onDeleted(id: string): void;
  /** Grows when test phones are marked or unmarked: "Send a test" lists them anew. */
  phonesVersion: number;
}) {
  const [m, setM] = useState<InAppMessagePageFragment | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [ending, setEnding] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const version = useRef<string | null>(null);
  const [Editor, setEditor] = useState<Editor | SurveyEditor | undefined>();
  const [editing, setEditing] = useState(false);
  /** The content being edited, previewed as it is typed. */
  const [draft, setDraft] = useState<unknown>(undefined);
  const edit = async () => {
    try {
      // A survey has an editor of its own (its steps, questions and branches).
      const loaded =
        m?.kind === 'survey'
          ? (surveyEditorLoaded ??= (await import('./messages-survey-editor')).SurveyEditor)
          : (editorLoaded ??= (await import('./messages-editor')).MessageEditor);
      setEditor(() => loaded);
      setEditing(true);
    } catch (err) {
      setError(messageOf(err));
    }
  };
  const stopEditing = () => (setEditing(false), setDraft(undefined));
  const [AudienceForm, setAudienceForm] = useState<Audience | undefined>();
  const [ScheduleForm, setScheduleForm] = useState<Schedule | undefined>();
  const changeSchedule = async () => {
    try {
      scheduleLoaded ??= (await import('./messages-audience')).ScheduleEditor;
      setScheduleForm(() => scheduleLoaded);
    } catch (err) {
      setError(messageOf(err));
    }
  };
  const changeAudience = async () => {
    try {
      audienceLoaded ??= (await import('./messages-audience')).AudienceEditor;
      setAudienceForm(() => audienceLoaded);
    } catch (err) {
      setError(messageOf(err));
    }
  };

  useEffect(() => {
    request(InAppMessageDocument, { id: props.id })
      .then(({ inAppMessage }) => setM(inAppMessage))
      .catch((err) => setError(messageOf(err)));
  }, [props.id]);

  // The statistics live.
  useEffect(() => {
    version.current = null;
    return live(
      InAppStatsLiveDocument,
      () => ({ messageId: props.id, after: version.current }),
      ({ inAppStats: e }) => {
        version.current = e.version;
        setM((old) => {
          if (!old) return old;
          let variants = e.reload && e.stats ? e.stats.variants : old.stats.variants;
          for (const c of e.counts) variants = addCount(variants, c);
          const next = { ...old, stats: { ...old.stats, variants } };
          props.onChanged(next);
          return next;
        });
      },
    );
  }, [props.id]);

  const move = async (to: InAppState) => {
    setBusy(true);
    try {
      const { setInAppMessageState } = await request(SetInAppMessageStateDocument, { id: props.id, state: to });
      setM(setInAppMessageState);
      props.onChanged(setInAppMessageState);
      setError(undefined);
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  const moves = m ? MOVES[m.state] : [];
  useEffect(() => {
    const changing = m && m.state !== 'ended';
    actionCommands.set([
      ...moves.map((mv) => ({
        id: `message-${mv.to}`,
        label: `Message: ${mv.label.replace('…', '')}`,
        run: () => (mv.to === 'ended' ? setEnding(true) : void move(mv.to)),
      })),
      ...(changing && m.variants.length === 1 ? [{ id: 'message-edit', label: 'Message: Edit', run: () => void edit() }] : []),
      ...(changing
        ? [
            { id: 'message-audience', label: 'Message: Change the audience', run: () => void changeAudience() },
            { id: 'message-when', label: 'Message: Change when', run: () => void changeSchedule() },
          ]
        : []),
      ...(m?.kind === 'survey'
        ? [{ id: 'message-results', label: 'Message: Survey results', run: () => navigate(surveyResultsPath(m.id)) }]
        : []),
    ]);
    return () => actionCommands.set([]);
  }, [m?.state]);

  if (!m)
    return (
      <section class="conversation-pane message-page" aria-label="Message">
        {error ? (
          <p class="error" role="alert">
            {error}
          </p>
        ) : (
          <p class="quiet-text">Loading…</p>
        )}
      </section>
    );

  const t = totals(m.stats.variants);
  const first = m.variants[0];
  const editable = m.state !== 'ended' && m.variants.length === 1;
  return (
    <section class="conversation-pane message-page" aria-labelledby="message-title">
      <header class="message-head">
        <h2 id="message-title">{m.name}</h2>
        <p>
          {KIND_NAMES[m.kind]} · <span class={`message-state state-${m.state}`}>{STATE_NAMES[m.state]}</span>
          {m.liveAt && <> · live since {fullTime(m.liveAt)}</>}
          {m.endedAt && <> · ended {fullTime(m.endedAt)}</>}
        </p>
        <div class="actions">
          {moves.map((mv) => (
            <button key={mv.to} type="button" disabled={busy} onClick={() => (mv.to === 'ended' ? setEnding(true) : void move(mv.to))}>
              {mv.label}
            </button>
          ))}
          {editable && !editing && (
            <button type="button" onClick={() => void edit()}>
              {m.kind === 'survey' ? 'Edit the survey' : 'Edit the message'}
            </button>
          )}
          {m.kind === 'survey' && (
            <a
              class="message-results-link"
              href={surveyResultsPath(m.id)}
              onClick={(e) => (e.preventDefault(), navigate(surveyResultsPath(m.id)))}
            >
              See the results
            </a>
          )}
          {m.state === 'draft' && (
            <button type="button" class="danger" disabled={busy} onClick={() => setDeleting(true)}>
              Delete…
            </button>
          )}
        </div>
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
      </header>
      <h3>Statistics</h3>
      <dl class="message-stats" aria-label="Statistics">
        {(['sent', 'seen', 'clicked', 'dismissed', 'completed'] as const).map((k) => (
          <div key={k}>
            <dt>{k[0]!.toUpperCase() + k.slice(1)}</dt>
            <dd data-stat={k}>{t[k]}</dd>
          </div>
        ))}
      </dl>
      <h3>Preview</h3>
      <MessagePreview kind={m.kind} content={draft ?? first?.content} />
      {m.variants.length > 1 && (
        <p class="quiet-text">
          The preview shows variant {first?.key}; the message has {m.variants.length}.
        </p>
      )}
      {editing && Editor ? (
        <Editor m={m} onContent={setDraft} onCancel={stopEditing} onSaved={(next) => (setM(next), props.onChanged(next), stopEditing())} />
      ) : (
        <MessageWords key={`${m.id}-${m.updatedAt ?? ''}`} m={m} onSaved={(next) => (setM(next), props.onChanged(next))} />
      )}
      <h3 id="message-audience-title">Audience</h3>
      {AudienceForm ? (
        <AudienceForm
          m={m}
          onCancel={() => setAudienceForm(undefined)}
          onSaved={(next) => (setM(next), props.onChanged(next), setAudienceForm(undefined))}
        />
      ) : (
        <div class="message-audience" aria-labelledby="message-audience-title" role="group">
          {m.workflowOnly ? (
            <p>Only people a workflow sends it to.</p>
          ) : (
            <>
              <p>{audienceWords(m.audience)}</p>
              <AudienceReach appModeId={m.appModeId} audience={m.audience} />
            </>
          )}
          {m.state !== 'ended' && (
            <button type="button" onClick={() => void changeAudience()}>
              Change the audience
            </button>
          )}
        </div>
      )}
      <h3 id="message-when-title">When</h3>
      {ScheduleForm ? (
        <ScheduleForm
          m={m}
          onCancel={() => setScheduleForm(undefined)}
          onSaved={(next) => (setM(next), props.onChanged(next), setScheduleForm(undefined))}
        />
      ) : (
        <div class="message-audience" aria-labelledby="message-when-title" role="group">
          <p>{whenWords(m)}</p>
          {m.state !== 'ended' && (
            <button type="button" onClick={() => void changeSchedule()}>
              Change when
            </button>
          )}
        </div>
      )}
      <TestSend modeId={props.modeId} messageId={m.id} phonesVersion={props.phonesVersion} />
      {deleting && (
        <Confirm
          title="Delete this draft?"
          action="Delete"
          onCancel={() => setDeleting(false)}
          onConfirm={async () => {
            await request(DeleteInAppMessageDocument, { id: m.id });
            props.onDeleted(m.id);
          }}
        >
          <p>The draft and its words are gone for good; no one has been shown it.</p>
        </Confirm>
      )}
      {ending && (
        <Confirm
          title="End this message?"
          action="End"
          onCancel={() => setEnding(false)}
          onConfirm={async () => (await move('ended'), setEnding(false))}
        >
          <p>An ended message is answered to no one, for good; its statistics stay.</p>
        </Confirm>
      )}
    </section>
  );
}

type TestSendRow = InAppTestSendsQuery['inAppTestSends']['edges'][number]['node'];
/** What became of a test copy: waiting, or delivered and what the person did with it. */
function testSendWords(s: TestSendRow): string {
  if (!s.deliveredAt) return 'waiting for its next check-in';
  const did = (
    [
      ['seen', s.seenAt],
      ['clicked', s.clickedAt],
      ['dismissed', s.dismissedAt],
      ['completed', s.completedAt],
    ] as const
  ).flatMap(([w, at]) => (at ? [`${w} ${when(at)}`] : []));
  return [`delivered ${when(s.deliveredAt)}`, ...did].join(' · ');
}

/** A test copy to one of the app-mode's test phones (answered at its next check-in, never counted). */
function TestSend({ modeId, messageId, phonesVersion }: { modeId: string; messageId: string; phonesVersion: number }) {
  const [phones, setPhones] = useState<{ externalId: string; label: string }[] | undefined>();
  const [phone, setPhone] = useState('');
  const [said, setSaid] = useState<string | undefined>();
  const [sends, setSends] = useState<TestSendRow[]>([]);
  const readSends = () =>
    request(InAppTestSendsDocument, { messageId })
      .then(({ inAppTestSends }) => setSends(inAppTestSends.edges.map((e) => e.node)))
      .catch((err) => setSaid(messageOf(err)));
  useEffect(() => void readSends(), [messageId]);
  useEffect(() => {
    request(InAppTestPhonesDocument, { appModeId: modeId })
      .then(({ inAppTestPhones }) => {
        const list = inAppTestPhones.edges.map((e) => e.node);
        setPhones(list);
        setPhone(list[0]?.externalId ?? '');
      })
      .catch((err) => setSaid(messageOf(err)));
  }, [modeId, phonesVersion]);
  const send = async (e: Event) => {
    e.preventDefault();
    try {
      await request(SendInAppTestDocument, { messageId, externalId: phone });
      setSaid(`Test copy sent: ${phone} sees it at its next check-in.`);
      void readSends();
    } catch (err) {
      setSaid(messageOf(err));
    }
  };
  return (
    <form class="message-test" onSubmit={send} aria-labelledby="message-test-title">
      <h3 id="message-test-title">Send a test</h3>
      {phones && phones.length === 0 ? (
        <p class="quiet-text">No test phones yet: mark one under "Test phones" beside the list.</p>
      ) : (
        <>
          <label>
            Test phone
            <select value={phone} onChange={(e) => setPhone(e.currentTarget.value)}>
              {(phones ?? []).map((p) => (
                <option key={p.externalId} value={p.externalId}>
                  {p.label || p.externalId}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={!phone}>
            Send a test
          </button>
        </>
      )}
      {said && <p role="status">{said}</p>}
      {sends.length > 0 && (
        <div class="test-sends">
          <h4 id="test-sends-title">Test copies sent</h4>
          <ul aria-labelledby="test-sends-title">
            {sends.map((s) => (
              <li key={s.id}>
                To <strong>{s.externalId}</strong> <time dateTime={s.createdAt}>{when(s.createdAt)}</time> (variant {s.variant}):{' '}
                {testSendWords(s)}
              </li>
            ))}
          </ul>
          <button type="button" class="quiet small" onClick={() => void readSends()}>
            Read the test copies again
          </button>
        </div>
      )}
    </form>
  );
}
