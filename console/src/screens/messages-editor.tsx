import { useEffect, useRef, useState } from 'preact/hooks';
import type { InAppMessagePageFragment } from '../generated/graphql';
import { HelpBlocks } from './help-blocks';
import { useMessageChange } from './messages-change';
import {
  ACTIONS,
  CAROUSEL_END,
  LAYOUTS,
  MAX_BUTTONS,
  MAX_SCREENS,
  fromEditContent,
  newButton,
  newScreen,
  toEditContent,
  type EditButton,
  type EditContent,
  type EditScreen,
} from './messages-content';
import { Exact, FieldError, FormProblem, invalid, type Problem } from './settings-common';
import { newKey } from './help-content';

// The editor of a message's name and content (changeInAppMessage), fetched when first opened: a
// banner's or post's blocks (the help center's block editor), a post's buttons, a carousel's
// screens (added, removed, moved), each with its id, layout, blocks, up to 3 buttons, an optional
// choice and where it goes next. The service reads the content and refuses naming each bad member
// (`content.screens.1.next`): the words are shown beside the field it names. Every change is shown
// at once in the page's preview (onContent).

/** The kinds this editor writes (a survey has its own: messages-survey-editor.tsx). */
type Kind = Exclude<InAppMessagePageFragment['kind'], 'survey'>;
const ACTION_NAMES: Record<string, string> = {
  '': 'Go on',
  next: 'Go on',
  link: 'Open a link',
  close: 'Close (not completed)',
  permission: 'Ask a permission',
};

export function MessageEditor(props: {
  m: InAppMessagePageFragment;
  onSaved(m: InAppMessagePageFragment): void;
  onCancel(): void;
  onContent(content: unknown): void;
}) {
  const { m } = props;
  const kind = m.kind as Kind;
  const [name, setName] = useState(m.name);
  const [edit, setEdit] = useState<EditContent>(() => toEditContent(m.variants[0]?.content));
  const { problem, busy, change } = useMessageChange(m.id, props.onSaved);
  const [said, setSaid] = useState('');
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  useEffect(() => props.onContent(fromEditContent(kind, edit)), [edit]);

  const save = async (e: Event) => {
    e.preventDefault();
    await change(() => ({ name, content: fromEditContent(kind, edit) }));
  };

  const screens = edit.screens;
  const setScreens = (next: EditScreen[]) => setEdit({ ...edit, screens: next });
  const changeScreen = (key: string, patch: Partial<EditScreen>) => {
    const old = screens.find((s) => s.key === key)!;
    let next = screens.map((s) => (s.key === key ? { ...s, ...patch } : s));
    // A screen renamed: the branches that named it follow.
    if (patch.id !== undefined && old.id && patch.id !== old.id) next = next.map((s) => renameTarget(s, old.id, patch.id!));
    setScreens(next);
  };
  const moveScreen = (i: number, by: -1 | 1) => {
    const next = [...screens];
    [next[i], next[i + by]] = [next[i + by]!, next[i]!];
    setScreens(next);
    setSaid(`Screen moved to place ${i + by + 1} of ${screens.length}.`);
  };

  return (
    <form class="message-editor" aria-label="Edit the message" onSubmit={save} noValidate>
      <h3>Edit the message</h3>
      <FormProblem problem={problem} fields={['name', 'content']} />
      <label for="msg-name">Name</label>
      <input
        ref={first}
        {...invalid(problem, 'name', 'msg-name')}
        value={name}
        maxLength={200}
        onInput={(e) => setName(e.currentTarget.value)}
      />
      <FieldError problem={problem} field="name" id="msg-name" />
      {kind !== 'carousel' && (
        <>
          <HelpBlocks
            blocks={edit.blocks}
            language="en"
            appModeId={m.appModeId}
            prefix="msg"
            title="Words"
            onChange={(blocks) => setEdit({ ...edit, blocks })}
          />
          <FieldError problem={problem} field="content.blocks" id="msg-blocks" />
        </>
      )}
      {kind === 'banner' && (
        <>
          <label for="msg-link">Opened when tapped (an https address or a product path; optional)</label>
          <input
            {...invalid(problem, 'content.link', 'msg-link')}
            value={edit.link}
            onInput={(e) => setEdit({ ...edit, link: e.currentTarget.value })}
          />
          <FieldError problem={problem} field="content.link" id="msg-link" />
        </>
      )}
      {kind === 'post' && (
        <Buttons
          prefix="msg-post"
          field="content.buttons"
          problem={problem}
          buttons={edit.buttons}
          screens={[]}
          onChange={(buttons) => setEdit({ ...edit, buttons })}
        />
      )}
      {kind === 'carousel' && (
        <div class="message-screens">
          <h4 id="msg-screens-title">Screens</h4>
          <Exact problem={problem} field="content.screens" />
          <FieldError problem={problem} field="content.start" id="msg-start" />
          <ol aria-labelledby="msg-screens-title">
            {screens.map((s, i) => (
              <li key={s.key}>
                <ScreenFields
                  screen={s}
                  n={i}
                  screens={screens}
                  problem={problem}
                  appModeId={m.appModeId}
                  onChange={(patch) => changeScreen(s.key, patch)}
                  onMove={(by) => moveScreen(i, by)}
                  onRemove={() => (setScreens(screens.filter((x) => x.key !== s.key)), setSaid(`Screen ${i + 1} removed.`))}
                />
              </li>
            ))}
          </ol>
          <button
            type="button"
            disabled={screens.length >= MAX_SCREENS}
            onClick={() => {
              const screen = newScreen(screens.map((s) => s.id));
              setScreens([...screens, screen]);
              setSaid(`Screen ${screens.length + 1} added.`);
              setTimeout(() => document.getElementById(`msg-${screen.key}-add-paragraph`)?.focus());
            }}
          >
            Add a screen
          </button>
        </div>
      )}
      <p class="visually-hidden" role="status">
        {said}
      </p>
      <div class="actions">
        <button type="submit" disabled={busy}>
          Save
        </button>
        <button type="button" class="quiet" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function renameTarget(s: EditScreen, from: string, to: string): EditScreen {
  const t = (v: string) => (v === from ? to : v);
  return {
    ...s,
    next: t(s.next),
    buttons: s.buttons.map((b) => ({ ...b, screen: t(b.screen) })),
    choice: s.choice && { ...s.choice, options: s.choice.options.map((o) => ({ ...o, next: t(o.next) })) },
  };
}

function ScreenFields(props: {
  screen: EditScreen;
  n: number;
  screens: EditScreen[];
  problem: Problem | undefined;
  appModeId: string;
  onChange(patch: Partial<EditScreen>): void;
  onMove(by: -1 | 1): void;
  onRemove(): void;
}) {
  const { screen: s, n, screens, problem, onChange } = props;
  const at = `content.screens.${n}`;
  const id = (f: string) => `msg-${s.key}-${f}`;
  const last = n === screens.length - 1;
  const choice = s.choice;
  return (
    <fieldset class="message-screen">
      <legend>
        Screen {n + 1} ({s.id || 'no id'})
      </legend>
      <span class="row-buttons">
        <button
          type="button"
          class="quiet small"
          aria-label={`Move screen ${n + 1} up`}
          disabled={n === 0}
          onClick={() => props.onMove(-1)}
        >
          ↑
        </button>
        <button type="button" class="quiet small" aria-label={`Move screen ${n + 1} down`} disabled={last} onClick={() => props.onMove(1)}>
          ↓
        </button>
        <button
          type="button"
          class="quiet small"
          aria-label={`Remove screen ${n + 1}`}
          disabled={screens.length === 1}
          onClick={props.onRemove}
        >
          Remove
        </button>
      </span>
      <Exact problem={problem} field={at} />
      <div class="screen-row">
        <span>
          <label for={id('id')}>Id</label>
          <input
            {...invalid(problem, `${at}.id`, id('id'))}
            value={s.id}
            onChange={(e) => onChange({ id: e.currentTarget.value.trim() })}
          />
          <FieldError problem={problem} field={`${at}.id`} id={id('id')} />
        </span>
        <span>
          <label for={id('layout')}>Layout</label>
          <select id={id('layout')} value={s.layout} onChange={(e) => onChange({ layout: e.currentTarget.value })}>
            <option value="">Default (centred)</option>
            {LAYOUTS.map((l) => (
              <option key={l} value={l}>
                {l.replace('_', ' ')}
              </option>
            ))}
            {s.layout && !(LAYOUTS as readonly string[]).includes(s.layout) && <option value={s.layout}>{s.layout}</option>}
          </select>
        </span>
      </div>
      <HelpBlocks
        blocks={s.blocks}
        language="en"
        appModeId={props.appModeId}
        prefix={`msg-${s.key}`}
        title={`Screen ${n + 1}: words`}
        noHint
        onChange={(blocks) => onChange({ blocks })}
      />
      <FieldError problem={problem} field={`${at}.blocks`} id={id('blocks')} />
      <Buttons
        prefix={`msg-${s.key}`}
        field={`${at}.buttons`}
        problem={problem}
        buttons={s.buttons}
        screens={screens}
        onChange={(buttons) => onChange({ buttons })}
      />
      <div class="screen-choice">
        <label class="check">
          <input
            type="checkbox"
            checked={!!choice}
            onChange={(e) =>
              onChange({
                choice: e.currentTarget.checked
                  ? {
                      multiple: false,
                      rest: {},
                      options: [1, 2].map((k) => ({ key: newKey(), id: `o${k}`, label: '', next: '', rest: {} })),
                    }
                  : undefined,
              })
            }
          />
          Ask a choice
        </label>
        {choice && (
          <>
            <label class="check">
              <input
                type="checkbox"
                checked={choice.multiple}
                onChange={(e) => onChange({ choice: { ...choice, multiple: e.currentTarget.checked } })}
              />
              Several may be picked (then Continue goes where the screen goes next)
            </label>
            <ol class="choice-options">
              {choice.options.map((o, j) => {
                const of = `${at}.choice.options.${j}`;
                const oid = (f: string) => id(`o${o.key}-${f}`);
                const set = (patch: Partial<typeof o>) =>
                  onChange({ choice: { ...choice, options: choice.options.map((x) => (x.key === o.key ? { ...x, ...patch } : x)) } });
                return (
                  <li key={o.key}>
                    <label for={oid('label')}>
                      Option {j + 1} of screen {n + 1}
                    </label>
                    <input
                      {...invalid(problem, `${of}.label`, oid('label'))}
                      value={o.label}
                      onInput={(e) => set({ label: e.currentTarget.value })}
                    />
                    <FieldError problem={problem} field={`${of}.label`} id={oid('label')} />
                    {!choice.multiple && (
                      <Target
                        id={oid('next')}
                        label={`Option ${j + 1} goes to`}
                        value={o.next}
                        screens={screens}
                        fallback="Where the screen goes next"
                        problem={problem}
                        field={`${of}.next`}
                        onChange={(next) => set({ next })}
                      />
                    )}
                    <button
                      type="button"
                      class="quiet small"
                      aria-label={`Remove option ${j + 1} of screen ${n + 1}`}
                      disabled={choice.options.length <= 2}
                      onClick={() => onChange({ choice: { ...choice, options: choice.options.filter((x) => x.key !== o.key) } })}
                    >
                      Remove
                    </button>
                  </li>
                );
              })}
            </ol>
            <Exact problem={problem} field={`${at}.choice.options`} />
            <button
              type="button"
              class="quiet small"
              disabled={choice.options.length >= 8}
              onClick={() =>
                onChange({
                  choice: {
                    ...choice,
                    options: [...choice.options, { key: newKey(), id: `o${choice.options.length + 1}`, label: '', next: '', rest: {} }],
                  },
                })
              }
            >
              Add an option
            </button>
          </>
        )}
      </div>
      <Target
        id={id('next')}
        label={`After screen ${n + 1}`}
        value={s.next}
        screens={screens}
        fallback={last ? 'The end (the last screen)' : `The following screen (${screens[n + 1]?.id})`}
        problem={problem}
        field={`${at}.next`}
        onChange={(next) => onChange({ next })}
      />
    </fieldset>
  );
}

/** Where a branch goes: the default, the end, or a screen. */
function Target(props: {
  id: string;
  label: string;
  value: string;
  screens: EditScreen[];
  fallback: string;
  problem: Problem | undefined;
  field: string;
  onChange(v: string): void;
}) {
  const known = !props.value || props.value === CAROUSEL_END || props.screens.some((s) => s.id === props.value);
  return (
    <span class="target">
      <label for={props.id}>{props.label}</label>
      <select
        {...invalid(props.problem, props.field, props.id)}
        value={props.value}
        onChange={(e) => props.onChange(e.currentTarget.value)}
      >
        <option value="">{props.fallback}</option>
        {props.screens
          .filter((s) => s.id)
          .map((s) => (
            <option key={s.key} value={s.id}>
              Screen {props.screens.indexOf(s) + 1} ({s.id})
            </option>
          ))}
        <option value={CAROUSEL_END}>The end</option>
        {!known && <option value={props.value}>{props.value} (no such screen)</option>}
      </select>
      <FieldError problem={props.problem} field={props.field} id={props.id} />
    </span>
  );
}

/** Up to 3 buttons: the words, what it does, where it goes (in a carousel) and its link. */
function Buttons(props: {
  prefix: string;
  field: string;
  problem: Problem | undefined;
  buttons: EditButton[];
  screens: EditScreen[];
  onChange(b: EditButton[]): void;
}) {
  const { buttons, problem } = props;
  const inCarousel = props.screens.length > 0;
  const where = props.field.startsWith('content.screens.') ? `screen ${Number(props.field.split('.')[2]) + 1}` : 'the post';
  return (
    <div class="message-buttons">
      {buttons.length > 0 && (
        <ol aria-label={`Buttons of ${where}`}>
          {buttons.map((b, j) => {
            const at = `${props.field}.${j}`;
            const id = (f: string) => `${props.prefix}-btn${b.key}-${f}`;
            const set = (patch: Partial<EditButton>) => props.onChange(buttons.map((x) => (x.key === b.key ? { ...x, ...patch } : x)));
            return (
              <li key={b.key}>
                <span>
                  <label for={id('label')}>
                    Button {j + 1} of {where}
                  </label>
                  <input
                    {...invalid(problem, `${at}.label`, id('label'))}
                    value={b.label}
                    onInput={(e) => set({ label: e.currentTarget.value })}
                  />
                  <FieldError problem={problem} field={`${at}.label`} id={id('label')} />
                </span>
                <span>
                  <label for={id('do')}>It does</label>
                  <select id={id('do')} value={b.do} onChange={(e) => set({ do: e.currentTarget.value })}>
                    {['', ...ACTIONS.filter((a) => a !== 'next')].map((a) => (
                      <option key={a} value={a}>
                        {ACTION_NAMES[a]}
                      </option>
                    ))}
                    {b.do && !(ACTIONS as readonly string[]).includes(b.do) && <option value={b.do}>{b.do}</option>}
                  </select>
                </span>
                {inCarousel && b.do !== 'close' && (
                  <Target
                    id={id('screen')}
                    label={`Button ${j + 1} goes to`}
                    value={b.screen}
                    screens={props.screens}
                    fallback="Where the screen goes next"
                    problem={problem}
                    field={`${at}.screen`}
                    onChange={(screen) => set({ screen })}
                  />
                )}
                {(b.do === 'link' || b.link) && (
                  <span>
                    <label for={id('link')}>Its link</label>
                    <input
                      {...invalid(problem, `${at}.link`, id('link'))}
                      value={b.link}
                      onInput={(e) => set({ link: e.currentTarget.value })}
                    />
                    <FieldError problem={problem} field={`${at}.link`} id={id('link')} />
                  </span>
                )}
                <button
                  type="button"
                  class="quiet small"
                  aria-label={`Remove button ${j + 1} of ${where}`}
                  onClick={() => props.onChange(buttons.filter((x) => x.key !== b.key))}
                >
                  Remove
                </button>
              </li>
            );
          })}
        </ol>
      )}
      <Exact problem={problem} field={props.field} />
      <button
        type="button"
        class="quiet small"
        disabled={buttons.length >= MAX_BUTTONS}
        onClick={() => {
          const ids = new Set(buttons.map((b) => b.id));
          let n = buttons.length + 1;
          while (ids.has(`b${n}`)) n++;
          props.onChange([...buttons, newButton(n)]);
        }}
      >
        Add a button to {where}
      </button>
    </div>
  );
}
