import { useState } from 'preact/hooks';
import { request } from '../api/request';
import {
  AppSettingsDocument,
  ChangeMessengerSettingsDocument,
  RenameAppDocument,
  UpdateAppSettingsDocument,
  type AppModeSettingsFragment,
  type AppSettingsInput,
  type MessengerCardKind,
  type MessengerSettingsFormFragment,
  type ReplyTime,
  type StartRule,
} from '../generated/graphql';
import { appModeId, place as placeStore, setPlace, workspaces, type Place } from '../place';
import { fullTime } from '../ui/time';
import {
  Exact,
  fieldError,
  FieldError,
  FormProblem,
  invalid,
  problemOf,
  Reason,
  refusedFor,
  SettingsPage,
  useRead,
  usePageActions,
  useRole,
  type Problem,
} from './settings-common';
// The service's own rule, said the same way.
import { checkOrigin, MAX_WEB_ORIGINS } from '../../../src/domain/apps/origins';

// The app-mode's settings (updateAppSettings): brand, languages, parts on or off, sign-in; its web
// origins (checked here as the service checks them, then by the service); the messenger's home
// (changeMessengerSettings). Each mode has its own; the page edits the one the console is in.

export function SettingsApp({ place }: { place: Place }) {
  const modeId = appModeId(place);
  const role = useRole(place);
  const { data, setData, problem } = useRead(
    () => request(AppSettingsDocument, { appId: place.app.id, appModeId: modeId, workspaceId: place.workspaceId }),
    [modeId],
  );
  const refused = refusedFor(role, 'manage_settings');
  usePageActions([
    { id: 'rename', label: 'Rename the app', focus: 'app-name' },
    { id: 'origin', label: 'Add a web origin', focus: 'origin-new' },
    { id: 'greeting', label: "Change the messenger's greeting", focus: 'messenger-greeting' },
  ]);
  const mode = data ? (place.mode === 'test' ? data.app.test : data.app.live) : undefined;
  const setMode = (m: AppModeSettingsFragment) => data && setData({ ...data, app: { ...data.app, [place.mode]: m } as typeof data.app });
  return (
    <SettingsPage
      title="App settings"
      class="settings-app"
      intro={`${place.app.name} in ${place.mode} mode: each mode keeps its own settings, origins and keys.`}
    >
      {problem && (
        <p class="error" role="alert">
          {problem.message}
        </p>
      )}
      {!data || !mode ? (
        !problem && <p class="quiet-text">Loading…</p>
      ) : (
        <>
          <Reason why={role && refused} />
          <NameForm
            appId={data.app.id}
            name={data.app.name}
            refused={refused}
            onSaved={(name) => setData({ ...data, app: { ...data.app, name } })}
          />
          <dl class="facts app-facts">
            <div>
              <dt>App key (public, sent by the SDKs)</dt>
              <dd>
                <code>{mode.appKey}</code>
              </dd>
            </div>
            <div>
              <dt>Last changed</dt>
              <dd>
                <time dateTime={mode.updatedAt}>{fullTime(mode.updatedAt)}</time>
              </dd>
            </div>
          </dl>
          <GeneralForm key={mode.id} mode={mode} refused={refused} onSaved={setMode} />
          <Origins key={`o-${mode.id}`} mode={mode} refused={refused} onSaved={setMode} />
          <MessengerForm
            key={`m-${mode.id}`}
            settings={data.messengerSettings}
            people={data.members.edges.map((e) => e.node.staffUser)}
            refused={refused}
            onSaved={(m) => setData({ ...data, messengerSettings: m })}
          />
        </>
      )}
    </SettingsPage>
  );
}

/** The app's name (both modes'), as the switcher lists it. */
function NameForm(props: { appId: string; name: string; refused: string | undefined; onSaved(name: string): void }) {
  const [name, setName] = useState(props.name);
  const [problem, setProblem] = useState<Problem | undefined>();
  const [saved, setSaved] = useState('');
  return (
    <form
      class="inline-form app-name"
      aria-label="App name"
      onSubmit={async (e) => {
        e.preventDefault();
        setSaved('');
        try {
          const { renameApp } = await request(RenameAppDocument, { id: props.appId, name });
          setName(renameApp.name);
          setProblem(undefined);
          setSaved('Renamed.');
          props.onSaved(renameApp.name);
          // The switcher and every screen name it at once.
          workspaces.set(
            workspaces.get().map((w) => ({
              ...w,
              apps: {
                ...w.apps,
                edges: w.apps.edges.map((a) => (a.node.id === renameApp.id ? { node: { ...a.node, name: renameApp.name } } : a)),
              },
            })),
          );
          const here = placeStore.get();
          if (here?.app.id === renameApp.id) setPlace({ ...here, app: { ...here.app, name: renameApp.name } });
        } catch (err) {
          setProblem(problemOf(err));
        }
      }}
    >
      <fieldset disabled={!!props.refused} class="plain-fieldset">
        <legend class="visually-hidden">App name</legend>
        <label for="app-name">App name (both modes)</label>
        <input {...invalid(problem, 'name', 'app-name')} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <button type="submit" class="quiet" disabled={name.trim() === props.name}>
          Rename
        </button>
        <span role="status">{saved}</span>
        <FieldError problem={problem} field="name" id="app-name" />
        {problem && !fieldError(problem, 'name') && (
          <p class="error" role="alert">
            {problem.message}
          </p>
        )}
      </fieldset>
    </form>
  );
}

const SWITCHES = [
  ['messengerOn', 'Messenger on', 'People can open the messenger and write to the team.'],
  ['helpOn', 'Help center on', 'The public help center and its articles are served.'],
  ['inappOn', 'In-app messages on', 'Check-ins answer in-app messages.'],
  ['unverifiedSignin', 'Unverified sign-in', 'Guest requests may name a user by X-CRM-User-Id without a signed token (for development).'],
  ['strictData', 'Strict data', 'Events and attributes must be declared before they are accepted.'],
] as const;
type SwitchName = (typeof SWITCHES)[number][0];

const TEXTS = [
  ['brandName', 'Brand name', 'Shown to people in the messenger and emails; 1 to 100 characters.'],
  ['brandColor', 'Brand colour', 'As #rrggbb.'],
  ['brandLogoUrl', 'Logo address', 'An https address; empty for none.'],
  ['defaultLanguage', 'Default language', 'A BCP 47 tag such as en; one of the languages.'],
  ['languages', 'Languages', 'BCP 47 tags, separated by commas.'],
  ['currency', 'Currency', 'An ISO 4217 code such as USD.'],
  ['homeOrigin', 'Home page origin', 'The origin allowed to call the public sign-up; empty for none.'],
] as const;
type TextName = (typeof TEXTS)[number][0];

function GeneralForm(props: { mode: AppModeSettingsFragment; refused: string | undefined; onSaved(m: AppModeSettingsFragment): void }) {
  const initial = () => ({
    ...Object.fromEntries(TEXTS.map(([name]) => [name, name === 'languages' ? props.mode.languages.join(', ') : (props.mode[name] ?? '')])),
    ...Object.fromEntries(SWITCHES.map(([name]) => [name, props.mode[name]])),
  });
  const [values, setValues] = useState<Record<string, string | boolean>>(initial);
  const [problem, setProblem] = useState<Problem | undefined>();
  const [saved, setSaved] = useState('');
  const [busy, setBusy] = useState(false);
  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setSaved('');
    const text = (n: TextName) => String(values[n]).trim();
    const input: AppSettingsInput = {
      brandName: text('brandName'),
      brandColor: text('brandColor'),
      brandLogoUrl: text('brandLogoUrl') || null,
      defaultLanguage: text('defaultLanguage'),
      languages: text('languages')
        .split(',')
        .map((l) => l.trim())
        .filter(Boolean),
      currency: text('currency'),
      homeOrigin: text('homeOrigin') || null,
      ...Object.fromEntries(SWITCHES.map(([n]) => [n, values[n] as boolean])),
    };
    try {
      const { updateAppSettings } = await request(UpdateAppSettingsDocument, { appModeId: props.mode.id, input });
      props.onSaved(updateAppSettings);
      setProblem(undefined);
      setSaved('Saved.');
    } catch (err) {
      setProblem(problemOf(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="settings-form" onSubmit={save} aria-labelledby="general-title">
      <h2 id="general-title">General</h2>
      <FormProblem problem={problem} fields={TEXTS.map(([n]) => n)} />
      <fieldset disabled={!!props.refused} class="plain-fieldset">
        <legend class="visually-hidden">General settings</legend>
        {TEXTS.map(([name, label, hint]) => (
          <div class="field" key={name}>
            <label for={`app-${name}`}>{label}</label>
            <input
              {...invalid(problem, name, `app-${name}`)}
              value={String(values[name])}
              aria-describedby={`app-${name}-hint${fieldError(problem, name) ? ` app-${name}-error` : ''}`}
              onInput={(e) => setValues({ ...values, [name]: e.currentTarget.value })}
            />
            <p class="field-hint" id={`app-${name}-hint`}>
              {hint}
            </p>
            <FieldError problem={problem} field={name} id={`app-${name}`} />
          </div>
        ))}
        {SWITCHES.map(([name, label, hint]) => (
          <div class="field check" key={name}>
            <input
              type="checkbox"
              id={`app-${name}`}
              checked={values[name] as boolean}
              aria-describedby={`app-${name}-hint`}
              onChange={(e) => setValues({ ...values, [name]: e.currentTarget.checked })}
            />
            <label for={`app-${name}`}>{label}</label>
            <p class="field-hint" id={`app-${name}-hint`}>
              {hint}
            </p>
          </div>
        ))}
        <div class="form-actions">
          <button type="submit" disabled={busy}>
            Save settings
          </button>
          <span role="status">{saved}</span>
        </div>
      </fieldset>
    </form>
  );
}

function Origins(props: { mode: AppModeSettingsFragment; refused: string | undefined; onSaved(m: AppModeSettingsFragment): void }) {
  const [adding, setAdding] = useState('');
  const [problem, setProblem] = useState<Problem | undefined>();
  const [busy, setBusy] = useState(false);
  const list = props.mode.webOrigins;
  const saveList = async (next: string[]) => {
    setBusy(true);
    try {
      const { updateAppSettings } = await request(UpdateAppSettingsDocument, { appModeId: props.mode.id, input: { webOrigins: next } });
      props.onSaved(updateAppSettings);
      setProblem(undefined);
      return true;
    } catch (err) {
      const p = problemOf(err);
      // The service names the bad one by its place in the list: the one being added is the last.
      const added = p.fields[`webOrigins.${next.length - 1}`];
      setProblem(added ? { ...p, fields: { adding: added } } : p);
      return false;
    } finally {
      setBusy(false);
    }
  };
  const add = async (e: Event) => {
    e.preventDefault();
    const text = adding.trim();
    const checked = checkOrigin(text);
    if ('problem' in checked) return setProblem({ message: checked.problem, code: 'invalid_request', fields: { adding: checked.problem } });
    if (list.includes(checked.origin))
      return setProblem({ message: '', code: 'invalid_request', fields: { adding: `${text} is listed already` } });
    if (list.length >= MAX_WEB_ORIGINS)
      return setProblem({ message: '', code: 'invalid_request', fields: { adding: `at most ${MAX_WEB_ORIGINS} web origins per mode` } });
    if (await saveList([...list, checked.origin])) setAdding('');
  };
  return (
    <section class="settings-form" aria-labelledby="origins-title">
      <h2 id="origins-title">Web origins</h2>
      <p class="field-hint">
        Pages on these origins may call the guest API from a browser. Written as the browser shows them (https://example.com, no path); http
        only for localhost. Exact matches, no wildcards; at most {MAX_WEB_ORIGINS}.
      </p>
      {problem && !problem.fields.adding && (
        <p class="error" role="alert">
          {problem.message}
        </p>
      )}
      {list.length === 0 ? (
        <p class="quiet-text">No origin yet: no browser page may call the guest API.</p>
      ) : (
        <ul class="plain-rows origins" aria-label="Web origins">
          {list.map((o) => (
            <li key={o}>
              <code>{o}</code>
              <button
                type="button"
                class="quiet"
                disabled={!!props.refused || busy}
                aria-label={`Remove ${o}`}
                onClick={() => void saveList(list.filter((x) => x !== o))}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <form class="inline-form" onSubmit={add}>
        <fieldset disabled={!!props.refused} class="plain-fieldset">
          <legend class="visually-hidden">Add a web origin</legend>
          <label for="origin-new">Add an origin</label>
          <input
            {...invalid(problem, 'adding', 'origin-new')}
            placeholder="https://example.com"
            value={adding}
            onInput={(e) => setAdding(e.currentTarget.value)}
          />
          <button type="submit" disabled={busy}>
            Add
          </button>
          <FieldError problem={problem} field="adding" id="origin-new" />
        </fieldset>
      </form>
    </section>
  );
}

const REPLY_TIMES: [ReplyTime | '', string][] = [
  ['', 'Not shown'],
  ['minutes', 'In a few minutes'],
  ['hour', 'Within an hour'],
  ['day', 'Within a day'],
  ['stated', 'In our own words'],
];
const START_RULES: [StartRule, string][] = [
  ['always', 'Whenever they like'],
  ['when_none_open', 'Only while none of theirs is open'],
  ['never', 'Never: only the team starts conversations'],
];

type Card = Omit<MessengerSettingsFormFragment['cards'][number], 'id'> & { id: string | null };
type Face = { staffUserId: string; avatarUrl: string };
const CARD_KINDS: [MessengerCardKind, string][] = [
  ['message', 'Send us a message'],
  ['article', 'A help center article'],
  ['link', 'A link'],
];
const MAX_FACES = 5;
const MAX_CARDS = 10;

function MessengerForm(props: {
  settings: MessengerSettingsFormFragment;
  people: { id: string; name: string }[];
  refused: string | undefined;
  onSaved(m: MessengerSettingsFormFragment): void;
}) {
  const [faces, setFaces] = useState<Face[]>(() =>
    props.settings.faces.map((f) => ({ staffUserId: f.staffUserId, avatarUrl: f.avatarUrl ?? '' })),
  );
  const [cards, setCards] = useState<Card[]>(() => props.settings.cards.map((c) => ({ ...c })));
  const [addingFace, setAddingFace] = useState('');
  const setCard = (i: number, c: Partial<Card>) => setCards(cards.map((x, k) => (k === i ? { ...x, ...c } : x)));
  const nameOf = (id: string) => props.people.find((p) => p.id === id)?.name ?? 'A former member';
  const [greeting, setGreeting] = useState(props.settings.greeting);
  const [replyTime, setReplyTime] = useState<ReplyTime | ''>(props.settings.replyTime ?? '');
  const [replyTimeText, setReplyTimeText] = useState(props.settings.replyTimeText);
  const [startRule, setStartRule] = useState<StartRule>(props.settings.startRule);
  const [problem, setProblem] = useState<Problem | undefined>();
  const [saved, setSaved] = useState('');
  const save = async (e: Event) => {
    e.preventDefault();
    setSaved('');
    try {
      const { changeMessengerSettings } = await request(ChangeMessengerSettingsDocument, {
        appModeId: props.settings.appModeId,
        input: {
          greeting,
          replyTime: replyTime || null,
          replyTimeText,
          startRule,
          faces: faces.map((f) => ({ staffUserId: f.staffUserId, avatarUrl: f.avatarUrl.trim() || null })),
          cards: cards.map((c) => ({
            ...(c.id ? { id: c.id } : {}),
            kind: c.kind,
            title: c.title,
            text: c.text,
            published: c.published,
            link: c.kind === 'link' ? c.link?.trim() || null : null,
            articleSlug: c.kind === 'article' ? c.articleSlug?.trim() || null : null,
          })),
        },
      });
      props.onSaved(changeMessengerSettings);
      setCards(changeMessengerSettings.cards.map((c) => ({ ...c })));
      setProblem(undefined);
      setSaved('Saved.');
    } catch (err) {
      setProblem(problemOf(err));
    }
  };
  return (
    <form class="settings-form" onSubmit={save} aria-labelledby="messenger-title">
      <h2 id="messenger-title">Messenger</h2>
      <FormProblem problem={problem} fields={['greeting', 'replyTime', 'replyTimeText', 'startRule', 'faces', 'cards']} />
      <fieldset disabled={!!props.refused} class="plain-fieldset">
        <legend class="visually-hidden">Messenger settings</legend>
        <div class="field">
          <label for="messenger-greeting">Greeting</label>
          <textarea
            {...invalid(problem, 'greeting', 'messenger-greeting')}
            rows={2}
            value={greeting}
            onInput={(e) => setGreeting(e.currentTarget.value)}
          />
          <FieldError problem={problem} field="greeting" id="messenger-greeting" />
        </div>
        <div class="field">
          <label for="messenger-reply-time">Reply time shown</label>
          <select
            {...invalid(problem, 'replyTime', 'messenger-reply-time')}
            value={replyTime}
            onChange={(e) => setReplyTime(e.currentTarget.value as ReplyTime | '')}
          >
            {REPLY_TIMES.map(([v, words]) => (
              <option key={v} value={v}>
                {words}
              </option>
            ))}
          </select>
          <FieldError problem={problem} field="replyTime" id="messenger-reply-time" />
        </div>
        <div class="field">
          <label for="messenger-reply-text">Reply time in our own words</label>
          <input
            {...invalid(problem, 'replyTimeText', 'messenger-reply-text')}
            value={replyTimeText}
            onInput={(e) => setReplyTimeText(e.currentTarget.value)}
          />
          <FieldError problem={problem} field="replyTimeText" id="messenger-reply-text" />
        </div>
        <div class="field">
          <label for="messenger-start">People start conversations</label>
          <select id="messenger-start" value={startRule} onChange={(e) => setStartRule(e.currentTarget.value as StartRule)}>
            {START_RULES.map(([v, words]) => (
              <option key={v} value={v}>
                {words}
              </option>
            ))}
          </select>
        </div>
        <fieldset class="bot-part">
          <legend>Faces on the home (at most {MAX_FACES})</legend>
          {faces.length === 0 && <p class="field-hint">No face shown.</p>}
          {faces.map((f, i) => (
            <div class="field-row bot-button" key={f.staffUserId} role="group" aria-label={nameOf(f.staffUserId)}>
              <p class="face-name">{nameOf(f.staffUserId)}</p>
              <div class="field">
                <label for={`face-${i}-avatar`}>Picture address (empty: their initials)</label>
                <input
                  {...invalid(problem, `faces.${i}`, `face-${i}-avatar`)}
                  value={f.avatarUrl}
                  onInput={(e) => setFaces(faces.map((x, k) => (k === i ? { ...x, avatarUrl: e.currentTarget.value } : x)))}
                />
                <FieldError problem={problem} field={`faces.${i}`} id={`face-${i}-avatar`} />
              </div>
              <button
                type="button"
                class="quiet"
                aria-label={`Remove ${nameOf(f.staffUserId)} from the faces`}
                onClick={() => setFaces(faces.filter((_, k) => k !== i))}
              >
                Remove
              </button>
            </div>
          ))}
          {faces.length < MAX_FACES && (
            <div class="inline-form">
              <label for="face-add">Show a member</label>
              <select id="face-add" value={addingFace} onChange={(e) => setAddingFace(e.currentTarget.value)}>
                <option value="">Choose…</option>
                {props.people
                  .filter((p) => !faces.some((f) => f.staffUserId === p.id))
                  .map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.name}
                    </option>
                  ))}
              </select>
              <button
                type="button"
                class="quiet"
                disabled={!addingFace}
                onClick={() => (setFaces([...faces, { staffUserId: addingFace, avatarUrl: '' }]), setAddingFace(''))}
              >
                Add face
              </button>
            </div>
          )}
        </fieldset>
        <fieldset class="bot-part">
          <legend>Cards on the home (at most {MAX_CARDS}, in order)</legend>
          {cards.length === 0 && <p class="field-hint">No card.</p>}
          {cards.map((c, i) => (
            <div class="card-editor" key={c.id ?? `new-${i}`} role="group" aria-label={`Card ${i + 1}`}>
              <div class="field-row">
                <div class="field">
                  <label for={`card-${i}-kind`}>Card {i + 1} opens</label>
                  <select
                    id={`card-${i}-kind`}
                    value={c.kind}
                    onChange={(e) => setCard(i, { kind: e.currentTarget.value as MessengerCardKind })}
                  >
                    {CARD_KINDS.map(([k, words]) => (
                      <option key={k} value={k}>
                        {words}
                      </option>
                    ))}
                  </select>
                </div>
                <div class="field">
                  <label for={`card-${i}-title`}>Title</label>
                  <input
                    {...invalid(problem, `cards.${i}.title`, `card-${i}-title`)}
                    value={c.title}
                    onInput={(e) => setCard(i, { title: e.currentTarget.value })}
                  />
                  <FieldError problem={problem} field={`cards.${i}.title`} id={`card-${i}-title`} />
                </div>
              </div>
              <div class="field">
                <label for={`card-${i}-text`}>Text</label>
                <input
                  {...invalid(problem, `cards.${i}.text`, `card-${i}-text`)}
                  value={c.text}
                  onInput={(e) => setCard(i, { text: e.currentTarget.value })}
                />
                <FieldError problem={problem} field={`cards.${i}.text`} id={`card-${i}-text`} />
              </div>
              {c.kind === 'link' && (
                <div class="field">
                  <label for={`card-${i}-link`}>Link (https, or a path in the product beginning with /)</label>
                  <input
                    {...invalid(problem, `cards.${i}.link`, `card-${i}-link`)}
                    value={c.link ?? ''}
                    onInput={(e) => setCard(i, { link: e.currentTarget.value })}
                  />
                  <FieldError problem={problem} field={`cards.${i}.link`} id={`card-${i}-link`} />
                </div>
              )}
              {c.kind === 'article' && (
                <div class="field">
                  <label for={`card-${i}-article`}>Article slug</label>
                  <input
                    {...invalid(problem, `cards.${i}.articleSlug`, `card-${i}-article`)}
                    value={c.articleSlug ?? ''}
                    onInput={(e) => setCard(i, { articleSlug: e.currentTarget.value })}
                  />
                  <FieldError problem={problem} field={`cards.${i}.articleSlug`} id={`card-${i}-article`} />
                </div>
              )}
              <div class="endpoint-actions">
                <label class="check-label">
                  <input type="checkbox" checked={c.published} onChange={(e) => setCard(i, { published: e.currentTarget.checked })} />
                  Published
                </label>
                <button
                  type="button"
                  class="quiet"
                  disabled={i === 0}
                  aria-label={`Move up card ${i + 1}`}
                  onClick={() => setCards([...cards.slice(0, i - 1), c, cards[i - 1]!, ...cards.slice(i + 1)])}
                >
                  Move up
                </button>
                <button
                  type="button"
                  class="quiet"
                  aria-label={`Remove card ${i + 1}`}
                  onClick={() => setCards(cards.filter((_, k) => k !== i))}
                >
                  Remove
                </button>
              </div>
              <Exact problem={problem} field={`cards.${i}`} />
            </div>
          ))}
          {cards.length < MAX_CARDS && (
            <button
              type="button"
              class="quiet"
              onClick={() =>
                setCards([...cards, { id: null, kind: 'message', title: '', text: '', link: null, articleSlug: null, published: true }])
              }
            >
              Add a card
            </button>
          )}
        </fieldset>
        <div class="form-actions">
          <button type="submit">Save messenger</button>
          <span role="status">{saved}</span>
        </div>
      </fieldset>
    </form>
  );
}
