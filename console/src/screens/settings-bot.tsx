import { useState } from 'preact/hooks';
import { request } from '../api/request';
import {
  HelpBotDocument,
  SaveHelpBotDocument,
  TeamsDocument,
  type BotButtonInput,
  type BotValueKind,
  type HelpBotFormFragment,
} from '../generated/graphql';
import { appModeId, type Place } from '../place';
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

// The help bot of the mode the console is in, as a structured form: its name, its openings (the
// greeting a new conversation begins with, per language, with buttons) and its steps (text,
// buttons, a question whose answer is collected, or a hand-over to the team). Saved whole by
// saveHelpBot; each refusal shown beside the member it names (openings.0.name, steps.2.buttons.1.next…).
// Text is written as paragraphs separated by an empty line.

interface ButtonV {
  id: string;
  label: string;
  next: string;
}
interface OpeningV {
  id: string | null;
  name: string;
  language: string;
  active: boolean;
  text: string;
  buttons: ButtonV[];
}
interface StepV {
  key: string;
  text: string;
  /** The blocks as read, sent back unchanged while the text is (a step may hold more than paragraphs). */
  kept?: { text: string; blocks: unknown };
  buttons: ButtonV[];
  question: { key: string; kind: BotValueKind; next: string } | null;
  handover: boolean;
  teamId: string;
}
interface BotV {
  name: string;
  openings: OpeningV[];
  steps: StepV[];
}

type Block = { type?: string; spans?: { text?: string }[]; items?: unknown };
const textOf = (blocks: unknown) =>
  ((Array.isArray(blocks) ? blocks : []) as Block[])
    .map((b) => (b.spans ?? []).map((s) => s.text ?? '').join(''))
    .filter(Boolean)
    .join('\n\n');
const paragraphs = (text: string) =>
  text
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => ({ type: 'paragraph', spans: [{ text: p }] }));

function formOf(bot: HelpBotFormFragment): BotV {
  return {
    name: bot.name ?? '',
    openings: bot.openings.edges.map(({ node: o }) => ({
      id: o.id,
      name: o.name,
      language: o.language ?? '',
      active: o.active,
      text: textOf(o.blocks),
      buttons: o.buttons.map((b) => ({ ...b })),
    })),
    steps: bot.steps.edges.map(({ node: s }) => ({
      key: s.key,
      text: textOf(s.blocks),
      kept: { text: textOf(s.blocks), blocks: s.blocks },
      buttons: s.buttons.map((b) => ({ ...b })),
      question: s.question ? { ...s.question } : null,
      handover: !!s.handover,
      teamId: s.handover?.teamId ?? '',
    })),
  };
}

/** A new button's id: unique among its siblings (1 to 40 lowercase letters, digits or _). */
const newButton = (siblings: ButtonV[]): ButtonV => {
  let n = siblings.length + 1;
  while (siblings.some((b) => b.id === `button_${n}`)) n++;
  return { id: `button_${n}`, label: '', next: 'handover' };
};
const buttonsIn = (buttons: ButtonV[]): BotButtonInput[] => buttons.map(({ id, label, next }) => ({ id, label: label.trim(), next }));

export function SettingsBot({ place }: { place: Place }) {
  const modeId = appModeId(place);
  const role = useRole(place);
  const refused = refusedFor(role, 'manage_settings');
  usePageActions([
    { id: 'bot-opening', label: 'Add a bot opening', press: 'add-opening' },
    { id: 'bot-step', label: 'Add a bot step', press: 'add-step' },
    { id: 'bot-save', label: 'Save the help bot', press: 'save-bot' },
  ]);
  const { data, problem } = useRead(async () => {
    const [bot, teams] = await Promise.all([
      request(HelpBotDocument, { appModeId: modeId }),
      request(TeamsDocument, { workspaceId: place.workspaceId }),
    ]);
    return { bot: bot.helpBot, teams: teams.teams.edges.map((e) => ({ id: e.node.id, name: e.node.name })) };
  }, [modeId]);
  return (
    <SettingsPage
      title="Help bot"
      class="settings-bot"
      intro="The bot greets a new conversation with an opening and leads by buttons and questions through its steps, or hands the conversation to the team. Saved all at once."
    >
      <Reason why={role && refused} />
      {problem && (
        <p class="error" role="alert">
          {problem.message}
        </p>
      )}
      {!data ? (
        !problem && <p class="quiet-text">Loading…</p>
      ) : (
        <BotForm key={data.bot.updatedAt ?? 'new'} bot={data.bot} teams={data.teams} modeId={modeId} refused={refused} />
      )}
    </SettingsPage>
  );
}

function BotForm(props: { bot: HelpBotFormFragment; teams: { id: string; name: string }[]; modeId: string; refused: string | undefined }) {
  const [v, setV] = useState<BotV>(() => formOf(props.bot));
  const [problem, setProblem] = useState<Problem | undefined>();
  const [saved, setSaved] = useState(props.bot.updatedAt);
  const [said, setSaid] = useState('');
  const [busy, setBusy] = useState(false);
  const nexts = [...v.steps.map((s) => s.key.trim()).filter(Boolean), 'handover'];
  const setOpening = (i: number, o: Partial<OpeningV>) =>
    setV({ ...v, openings: v.openings.map((x, k) => (k === i ? { ...x, ...o } : x)) });
  const setStep = (i: number, s: Partial<StepV>) => setV({ ...v, steps: v.steps.map((x, k) => (k === i ? { ...x, ...s } : x)) });

  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setSaid('');
    try {
      const { saveHelpBot } = await request(SaveHelpBotDocument, {
        appModeId: props.modeId,
        name: v.name.trim(),
        openings: v.openings.map((o) => ({
          ...(o.id ? { id: o.id } : {}),
          name: o.name,
          language: o.language.trim() || null,
          active: o.active,
          blocks: paragraphs(o.text),
          buttons: buttonsIn(o.buttons),
        })),
        steps: v.steps.map((s) => ({
          key: s.key.trim(),
          blocks: s.kept && s.kept.text === s.text ? s.kept.blocks : paragraphs(s.text),
          buttons: buttonsIn(s.buttons),
          ...(s.question ? { question: { ...s.question, key: s.question.key.trim() } } : {}),
          ...(s.handover ? { handover: { teamId: s.teamId || null } } : {}),
        })),
      });
      setV(formOf(saveHelpBot));
      setSaved(saveHelpBot.updatedAt);
      setProblem(undefined);
      setSaid('Saved.');
    } catch (err) {
      setProblem(problemOf(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="settings-form bot-form" onSubmit={save} aria-label="Help bot">
      <FormProblem problem={problem} fields={['name', 'openings', 'steps']} />
      <fieldset disabled={!!props.refused} class="plain-fieldset">
        <legend class="visually-hidden">The help bot</legend>
        <div class="field">
          <label for="bot-name">Bot name</label>
          <input
            {...invalid(problem, 'name', 'bot-name')}
            aria-describedby="bot-name-hint"
            value={v.name}
            onInput={(e) => setV({ ...v, name: e.currentTarget.value })}
          />
          <p class="field-hint" id="bot-name-hint">
            The name its messages are written by; 1 to 60 characters.
            {saved && (
              <>
                {' '}
                Last saved <time dateTime={saved}>{fullTime(saved)}</time>.
              </>
            )}
          </p>
          <FieldError problem={problem} field="name" id="bot-name" />
        </div>

        <h2>Openings</h2>
        {v.openings.length === 0 && <p class="quiet-text">No opening: new conversations go straight to the team.</p>}
        {v.openings.map((o, i) => {
          const at = `openings.${i}`;
          return (
            <fieldset class="bot-part" key={`o${i}`}>
              <legend>Opening {i + 1}</legend>
              <Exact problem={problem} field={at} />
              <div class="field-row">
                <Text
                  label="Name (for staff)"
                  problem={problem}
                  field={`${at}.name`}
                  value={o.name}
                  set={(name) => setOpening(i, { name })}
                />
                <Text
                  label="Language (empty: every language)"
                  problem={problem}
                  field={`${at}.language`}
                  value={o.language}
                  set={(language) => setOpening(i, { language })}
                />
              </div>
              <label class="check-label">
                <input type="checkbox" checked={o.active} onChange={(e) => setOpening(i, { active: e.currentTarget.checked })} />
                Active
              </label>
              <FieldError problem={problem} field={`${at}.active`} id={`${at}-active`} />
              <Text
                label="Greeting (1 to 3 paragraphs)"
                multiline
                problem={problem}
                field={`${at}.blocks`}
                value={o.text}
                set={(text) => setOpening(i, { text })}
              />
              <Buttons
                at={`${at}.buttons`}
                buttons={o.buttons}
                nexts={nexts}
                problem={problem}
                set={(buttons) => setOpening(i, { buttons })}
              />
              <button
                type="button"
                class="quiet danger-text"
                onClick={() => setV({ ...v, openings: v.openings.filter((_, k) => k !== i) })}
              >
                Remove opening {i + 1}
              </button>
            </fieldset>
          );
        })}
        <button
          type="button"
          class="quiet"
          id="add-opening"
          onClick={() =>
            setV({
              ...v,
              openings: [...v.openings, { id: null, name: '', language: '', active: v.openings.length === 0, text: '', buttons: [] }],
            })
          }
        >
          Add an opening
        </button>

        <h2>Steps</h2>
        {v.steps.length === 0 && <p class="quiet-text">No step yet: buttons can only hand over.</p>}
        {v.steps.map((s, i) => {
          const at = `steps.${i}`;
          return (
            <fieldset class="bot-part" key={`s${i}`}>
              <legend>Step {s.key || i + 1}</legend>
              <Exact problem={problem} field={at} />
              <Text
                label="Key (lowercase letters, digits, _)"
                problem={problem}
                field={`${at}.key`}
                value={s.key}
                set={(key) => setStep(i, { key })}
              />
              <Text label="Text" multiline problem={problem} field={`${at}.blocks`} value={s.text} set={(text) => setStep(i, { text })} />
              <Buttons
                at={`${at}.buttons`}
                buttons={s.buttons}
                nexts={nexts}
                problem={problem}
                set={(buttons) => setStep(i, { buttons })}
              />
              <label class="check-label">
                <input
                  type="checkbox"
                  checked={!!s.question}
                  onChange={(e) => setStep(i, { question: e.currentTarget.checked ? { key: '', kind: 'text', next: 'handover' } : null })}
                />
                Asks a question
              </label>
              {s.question && (
                <div class="field-row">
                  <Text
                    label="Answer kept as"
                    problem={problem}
                    field={`${at}.question.key`}
                    value={s.question.key}
                    set={(key) => setStep(i, { question: { ...s.question!, key } })}
                  />
                  <div class="field">
                    <label for={`${at}-question-kind`}>Answer is</label>
                    <select
                      id={`${at}-question-kind`}
                      value={s.question.kind}
                      onChange={(e) => setStep(i, { question: { ...s.question!, kind: e.currentTarget.value as BotValueKind } })}
                    >
                      <option value="text">Text</option>
                      <option value="email">An email address</option>
                      <option value="number">A number</option>
                    </select>
                  </div>
                  <Next
                    id={`${at}-question-next`}
                    label="Then"
                    nexts={nexts}
                    problem={problem}
                    field={`${at}.question.next`}
                    value={s.question.next}
                    set={(next) => setStep(i, { question: { ...s.question!, next } })}
                  />
                </div>
              )}
              <label class="check-label">
                <input type="checkbox" checked={s.handover} onChange={(e) => setStep(i, { handover: e.currentTarget.checked })} />
                Hands the conversation to the team
              </label>
              {s.handover && (
                <div class="field">
                  <label for={`${at}-team`}>Team</label>
                  <select
                    {...invalid(problem, `${at}.handover`, `${at}-team`)}
                    value={s.teamId}
                    onChange={(e) => setStep(i, { teamId: e.currentTarget.value })}
                  >
                    <option value="">The whole team</option>
                    {props.teams.map((t) => (
                      <option key={t.id} value={t.id}>
                        {t.name}
                      </option>
                    ))}
                  </select>
                  <FieldError problem={problem} field={`${at}.handover`} id={`${at}-team`} />
                </div>
              )}
              <button type="button" class="quiet danger-text" onClick={() => setV({ ...v, steps: v.steps.filter((_, k) => k !== i) })}>
                Remove step {s.key || i + 1}
              </button>
            </fieldset>
          );
        })}
        <button
          type="button"
          id="add-step"
          class="quiet"
          onClick={() =>
            setV({ ...v, steps: [...v.steps, { key: '', text: '', buttons: [], question: null, handover: false, teamId: '' }] })
          }
        >
          Add a step
        </button>
        <div class="form-actions">
          <button type="submit" id="save-bot" disabled={busy}>
            Save the bot
          </button>
          <span role="status">{said}</span>
        </div>
      </fieldset>
    </form>
  );
}

function Text(props: {
  label: string;
  problem: Problem | undefined;
  field: string;
  value: string;
  set(v: string): void;
  multiline?: boolean;
}) {
  const id = props.field.replace(/\./g, '-');
  const attrs = { ...invalid(props.problem, props.field, id), value: props.value };
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      {props.multiline ? (
        <textarea {...attrs} rows={3} onInput={(e) => props.set(e.currentTarget.value)} />
      ) : (
        <input {...attrs} onInput={(e) => props.set(e.currentTarget.value)} />
      )}
      <FieldError problem={props.problem} field={props.field} id={id} />
    </div>
  );
}

function Next(props: {
  id: string;
  label: string;
  nexts: string[];
  problem: Problem | undefined;
  field: string;
  value: string;
  set(v: string): void;
}) {
  const choices = props.nexts.includes(props.value) ? props.nexts : [props.value, ...props.nexts];
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <select {...invalid(props.problem, props.field, props.id)} value={props.value} onChange={(e) => props.set(e.currentTarget.value)}>
        {choices.map((n) => (
          <option key={n} value={n}>
            {n === 'handover' ? 'Hand over to the team' : `Step ${n}`}
          </option>
        ))}
      </select>
      <FieldError problem={props.problem} field={props.field} id={props.id} />
    </div>
  );
}

function Buttons(props: { at: string; buttons: ButtonV[]; nexts: string[]; problem: Problem | undefined; set(b: ButtonV[]): void }) {
  const setButton = (i: number, b: Partial<ButtonV>) => props.set(props.buttons.map((x, k) => (k === i ? { ...x, ...b } : x)));
  return (
    <div class="bot-buttons">
      {props.buttons.map((b, i) => {
        const at = `${props.at}.${i}`;
        return (
          <div class="field-row bot-button" key={b.id} role="group" aria-label={`Button ${i + 1}`}>
            <Text
              label={`Button ${i + 1} label`}
              problem={props.problem}
              field={`${at}.label`}
              value={b.label}
              set={(label) => setButton(i, { label })}
            />
            <Next
              id={`${at}-next`.replace(/\./g, '-')}
              label="Leads to"
              nexts={props.nexts}
              problem={props.problem}
              field={`${at}.next`}
              value={b.next}
              set={(next) => setButton(i, { next })}
            />
            {fieldError(props.problem, `${at}.id`) && <p class="field-error">{fieldError(props.problem, `${at}.id`)}</p>}
            <button
              type="button"
              class="quiet"
              aria-label={`Remove button ${i + 1}`}
              onClick={() => props.set(props.buttons.filter((_, k) => k !== i))}
            >
              Remove
            </button>
          </div>
        );
      })}
      <Exact problem={props.problem} field={props.at} />
      {props.buttons.length < 5 && (
        <button type="button" class="quiet" onClick={() => props.set([...props.buttons, newButton(props.buttons)])}>
          Add a button
        </button>
      )}
    </div>
  );
}
