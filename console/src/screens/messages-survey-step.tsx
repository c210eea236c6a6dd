import { HelpBlocks } from './help-blocks';
import { Branches, Target } from './messages-survey-branches';
import type { EditQuestion, EditStep } from './messages-survey-content';
import { followOptions, newQuestion, renameQuestion } from './messages-survey-edits';
import { FieldSaid, Said, TextField, type Problem } from './messages-survey-fields';
import { QuestionFields } from './messages-survey-question';

// One step of a survey in the editor: its id, its questions (1 to 5), its branches and where it goes
// next; or the thank-you step, its id and the blocks the person is thanked with. Moved up and down
// and removed by buttons named for the step.

const MAX_STEP_QUESTIONS = 5;

export interface StepProps {
  step: EditStep;
  n: number;
  steps: EditStep[];
  /** Question ids across the survey (a new one takes a free one). */
  questionIds: string[];
  problem: Problem | undefined;
  appModeId: string;
  onChange(patch: Partial<EditStep>): void;
  onMove(by: -1 | 1): void;
  onRemove(): void;
  focus(id: string): void;
  say(words: string): void;
}

/** The step's heading buttons: up, down, and remove (the thank-you step stays). */
function StepButtons(props: StepProps) {
  const { step, n, steps } = props;
  const id = (f: string) => `sv-${step.key}-${f}`;
  return (
    <span class="row-buttons">
      <button
        type="button"
        class="quiet small"
        id={id('up')}
        aria-label={`Move step ${n + 1} up`}
        disabled={n === 0 || (step.thankYou && n === 1)}
        onClick={() => props.onMove(-1)}
      >
        ↑
      </button>
      <button
        type="button"
        class="quiet small"
        id={id('down')}
        aria-label={`Move step ${n + 1} down`}
        disabled={n === steps.length - 1 || (n === 0 && !!steps[1]?.thankYou)}
        onClick={() => props.onMove(1)}
      >
        ↓
      </button>
      {!step.thankYou && (
        <button
          type="button"
          class="quiet small"
          aria-label={`Remove step ${n + 1}`}
          disabled={steps.filter((s) => !s.thankYou).length <= 1}
          onClick={props.onRemove}
        >
          Remove
        </button>
      )}
    </span>
  );
}

export function StepFields(props: StepProps) {
  const { step, n, problem, onChange } = props;
  const at = `content.steps.${n}`;
  const id = (f: string) => `sv-${step.key}-${f}`;
  const idField = (
    <TextField
      id={id('id')}
      label="Id"
      value={step.id}
      max={64}
      problem={problem}
      field={`${at}.id`}
      onInput={(v) => onChange({ id: v.trim() })}
    />
  );
  if (step.thankYou)
    return (
      <fieldset class="message-screen survey-step survey-thanks">
        <legend>The thank-you step ({step.id || 'no id'})</legend>
        <StepButtons {...props} />
        <Said problem={problem} field={at} id={id('step')} />
        {idField}
        <HelpBlocks
          blocks={step.blocks}
          language="en"
          appModeId={props.appModeId}
          prefix={`sv-${step.key}`}
          title="The thank-you step: words"
          noHint
          onChange={(blocks) => onChange({ blocks })}
        />
        <FieldSaid problem={problem} field={`${at}.blocks`} id={id('blocks')} />
      </fieldset>
    );

  const changeQuestion = (q: EditQuestion, patch: Partial<EditQuestion>) => {
    let branches = step.branches;
    if (patch.id !== undefined && q.id && patch.id !== q.id) branches = renameQuestion(step, q.id, patch.id);
    if (patch.options) branches = followOptions(branches, q.id, q.options, patch.options);
    onChange({ questions: step.questions.map((x) => (x.key === q.key ? { ...x, ...patch } : x)), branches });
  };
  const removeQuestion = (q: EditQuestion, j: number) => {
    onChange({ questions: step.questions.filter((x) => x.key !== q.key), branches: step.branches.filter((b) => b.question !== q.id) });
    props.say(`Question ${j + 1} of step ${n + 1} removed.`);
    props.focus(id('add-question'));
  };
  const addQuestion = () => {
    const q = newQuestion(props.questionIds);
    onChange({ questions: [...step.questions, q] });
    props.say(`Question ${step.questions.length + 1} added to step ${n + 1}.`);
    props.focus(`sv-${q.key}-title`);
  };
  const last = n === props.steps.length - 1;
  const following = props.steps[n + 1];
  return (
    <fieldset class="message-screen survey-step">
      <legend>
        Step {n + 1} ({step.id || 'no id'})
      </legend>
      <StepButtons {...props} />
      <Said problem={problem} field={at} id={id('step')} />
      {idField}
      <Said problem={problem} field={`${at}.questions`} />
      <ol class="survey-questions" aria-label={`Questions of step ${n + 1}`}>
        {step.questions.map((q, j) => (
          <li key={q.key}>
            <QuestionFields
              q={q}
              j={j}
              n={n}
              at={`${at}.questions.${j}`}
              problem={problem}
              canRemove={step.questions.length > 1}
              onChange={(patch) => changeQuestion(q, patch)}
              onRemove={() => removeQuestion(q, j)}
            />
          </li>
        ))}
      </ol>
      <span class="row-buttons">
        <button
          type="button"
          class="quiet small"
          id={id('add-question')}
          disabled={step.questions.length >= MAX_STEP_QUESTIONS}
          onClick={addQuestion}
        >
          Add a question to step {n + 1}
        </button>
      </span>
      <Branches
        step={step}
        n={n}
        at={at}
        steps={props.steps}
        problem={problem}
        focus={props.focus}
        onChange={(branches) => onChange({ branches })}
      />
      <Target
        id={id('next')}
        label={step.branches.length ? `Otherwise, after step ${n + 1} go to` : `After step ${n + 1} go to`}
        value={step.next}
        steps={props.steps}
        self={step.id}
        fallback={last || !following ? 'Nothing follows: choose a step' : `The following step (${following.id || 'no id'})`}
        problem={problem}
        field={`${at}.next`}
        onChange={(next) => onChange({ next })}
      />
    </fieldset>
  );
}
