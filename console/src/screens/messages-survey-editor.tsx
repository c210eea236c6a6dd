import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { InAppMessagePageFragment } from '../generated/graphql';
import { useMessageChange } from './messages-change';
import { fromEditSurvey, toEditSurvey, type EditStep, type EditSurvey } from './messages-survey-content';
import { newStep, questionIds, renameStep, thankYouStep } from './messages-survey-edits';
import { FieldSaid, Said, TextField, unshown } from './messages-survey-fields';
import { StepFields } from './messages-survey-step';
import './messages-survey.css';

// The survey editor (changeInAppMessage with the survey's content; fetched when first opened):
// its steps, each with its questions, branches and where it goes next, and the thank-you step;
// the words on its Next and Send buttons. The service checks the survey as a whole (every branch
// names a step, no loop, no dead end, ranges cover their scale) and refuses naming each bad member
// (`content.steps.1.next`): the words are shown beside the field they name, which takes the focus
// (a step's or a list's own refusal takes it itself); whatever no field shows is said above the form.

const MAX_STEPS = 30;

export function SurveyEditor(props: {
  m: InAppMessagePageFragment;
  onSaved(m: InAppMessagePageFragment): void;
  onCancel(): void;
  onContent(content: unknown): void;
}) {
  const { m } = props;
  const [name, setName] = useState(m.name);
  const [edit, setEdit] = useState<EditSurvey>(() => toEditSurvey(m.variants[0]?.content));
  const { problem, busy, change } = useMessageChange(m.id, props.onSaved);
  const [said, setSaid] = useState('');
  const [others, setOthers] = useState<string[]>([]);
  const form = useRef<HTMLFormElement>(null);
  const focusNext = useRef<string | undefined>(undefined);
  const focus = (id: string) => (focusNext.current = id);

  useEffect(() => document.getElementById('sv-name')?.focus(), []);
  useEffect(() => props.onContent(fromEditSurvey(edit)), [edit]);
  // After the render that made it: a new field, a moved step's button.
  useLayoutEffect(() => {
    if (!focusNext.current) return;
    const el = document.getElementById(focusNext.current);
    focusNext.current = undefined;
    // A step moved to the top or the end: its other move button, as the one pressed is disabled there.
    if (el instanceof HTMLButtonElement && el.disabled) el.parentElement?.querySelector<HTMLElement>('button:not([disabled])')?.focus();
    else el?.focus();
  });
  // A refusal: the first field it marks (or a step's own words) takes the focus; what no field shows is said above.
  useEffect(() => {
    const f = form.current;
    if (!problem || !f) return setOthers([]);
    setOthers(unshown(f, problem));
    f.querySelector<HTMLElement>('[aria-invalid="true"], .survey-said')?.focus();
  }, [problem]);

  const save = async (e: Event) => {
    e.preventDefault();
    await change(() => ({ name, content: fromEditSurvey(edit) }));
  };

  const steps = edit.steps;
  const setSteps = (next: EditStep[]) => setEdit({ ...edit, steps: next });
  const changeStep = (key: string, patch: Partial<EditStep>) => {
    const old = steps.find((s) => s.key === key)!;
    let next = steps.map((s) => (s.key === key ? { ...s, ...patch } : s));
    if (patch.id !== undefined && old.id && patch.id !== old.id) next = renameStep({ ...edit, steps: next }, old.id, patch.id);
    setSteps(next);
  };
  const moveStep = (i: number, by: -1 | 1) => {
    const next = [...steps];
    [next[i], next[i + by]] = [next[i + by]!, next[i]!];
    setSteps(next);
    focus(`sv-${steps[i]!.key}-${by < 0 ? 'up' : 'down'}`);
    setSaid(`Step moved to place ${i + by + 1} of ${steps.length}.`);
  };
  const addStep = () => {
    const step = newStep(edit);
    // Before the thank-you step when it ends the list.
    const at = steps.at(-1)?.thankYou ? steps.length - 1 : steps.length;
    setSteps([...steps.slice(0, at), step, ...steps.slice(at)]);
    focus(`sv-${step.questions[0]!.key}-title`);
    setSaid(`Step ${at + 1} added.`);
  };
  const hasThanks = steps.some((s) => s.thankYou);
  const named = !!problem && Object.keys(problem.fields).length > 0;

  return (
    <form class="message-editor survey-editor" aria-label="Edit the survey" onSubmit={save} noValidate ref={form}>
      <h3>Edit the survey</h3>
      {problem && (
        <div class="error" role="alert">
          <p>{named ? 'Not saved: see the fields marked below.' : problem.message}</p>
          {others.length > 0 && (
            <ul>
              {others.map((f) => (
                <li key={f}>
                  <code>{f}</code>: {problem.fields[f]}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      <label for="sv-name">Name</label>
      <input
        id="sv-name"
        {...(problem?.fields.name ? { 'aria-invalid': true, 'aria-describedby': 'sv-name-error' } : {})}
        value={name}
        maxLength={200}
        onInput={(e) => setName(e.currentTarget.value)}
      />
      <FieldSaid problem={problem} field="name" id="sv-name" />
      <Said problem={problem} field="content" />
      <h4 id="sv-steps-title">Steps</h4>
      <p class="quiet-text">
        Each step asks its questions on one screen; the person goes on where its branches or its next step say, and every path ends at the
        thank-you step.
      </p>
      <Said problem={problem} field="content.steps" id="sv-steps" />
      <ol class="survey-steps" aria-labelledby="sv-steps-title">
        {steps.map((s, i) => (
          <li key={s.key}>
            <StepFields
              step={s}
              n={i}
              steps={steps}
              questionIds={questionIds(edit)}
              problem={problem}
              appModeId={m.appModeId}
              onChange={(patch) => changeStep(s.key, patch)}
              onMove={(by) => moveStep(i, by)}
              onRemove={() => {
                setSteps(steps.filter((x) => x.key !== s.key));
                focus('sv-add-step');
                setSaid(`Step ${i + 1} removed.`);
              }}
              focus={focus}
              say={setSaid}
            />
          </li>
        ))}
      </ol>
      <span class="row-buttons">
        <button type="button" id="sv-add-step" disabled={steps.length >= MAX_STEPS} onClick={addStep}>
          Add a step
        </button>
        {!hasThanks && (
          <button type="button" onClick={() => setSteps([...steps, thankYouStep(steps.map((s) => s.id))])}>
            Add the thank-you step
          </button>
        )}
      </span>
      <div class="screen-row">
        <TextField
          id="sv-next-label"
          label="Words on Next (optional)"
          value={edit.nextLabel}
          max={40}
          problem={problem}
          field="content.nextLabel"
          onInput={(nextLabel) => setEdit({ ...edit, nextLabel })}
        />
        <TextField
          id="sv-submit-label"
          label="Words on Send (optional)"
          value={edit.submitLabel}
          max={40}
          problem={problem}
          field="content.submitLabel"
          onInput={(submitLabel) => setEdit({ ...edit, submitLabel })}
        />
      </div>
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
