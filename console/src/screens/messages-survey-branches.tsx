import { branchable, scaleOf, type EditBranch, type EditQuestion, type EditStep } from './messages-survey-content';
import { newBranch, stepName } from './messages-survey-edits';
import { FieldSaid, Said, invalid, type Problem } from './messages-survey-fields';

// Where a survey goes after a step: its branches (the first whose answer matches: a rating's or
// NPS's number in a range, or a choice among some of its options; each to a step), and the step's
// `next` when none matches (left at its default: the step that follows in the list).

const MAX_BRANCHES = 20;

export function Branches(props: {
  step: EditStep;
  n: number;
  at: string;
  steps: EditStep[];
  problem: Problem | undefined;
  onChange(branches: EditBranch[]): void;
  focus(id: string): void;
}) {
  const { step, n, at, steps, problem, onChange } = props;
  const questions = step.questions.filter(branchable);
  const thanks = steps.find((s) => s.thankYou)?.id ?? '';
  const add = () => {
    const b = newBranch(questions[0]!, thanks);
    onChange([...step.branches, b]);
    props.focus(`sv-${b.key}-question`);
  };
  return (
    <fieldset class="survey-branches">
      <legend>Branches after step {n + 1}</legend>
      <p class="quiet-text">The first branch whose answer matches goes to its step; with none, the step goes where it goes next.</p>
      <Said problem={problem} field={`${at}.branches`} id={`sv-${step.key}-branches`} />
      {step.branches.length > 0 && (
        <ol class="survey-branch-list">
          {step.branches.map((b, k) => (
            <li key={b.key}>
              <BranchFields
                b={b}
                k={k}
                n={n}
                at={`${at}.branches.${k}`}
                questions={questions}
                steps={steps}
                self={step.id}
                problem={problem}
                onChange={(patch) => onChange(step.branches.map((x) => (x.key === b.key ? { ...x, ...patch } : x)))}
                onRemove={() => {
                  onChange(step.branches.filter((x) => x.key !== b.key));
                  props.focus(`sv-${step.key}-add-branch`);
                }}
              />
            </li>
          ))}
        </ol>
      )}
      <span class="row-buttons">
        <button
          type="button"
          class="quiet small"
          id={`sv-${step.key}-add-branch`}
          disabled={!questions.length || step.branches.length >= MAX_BRANCHES}
          aria-describedby={questions.length ? undefined : `sv-${step.key}-no-branch`}
          onClick={add}
        >
          Add a branch after step {n + 1}
        </button>
      </span>
      {!questions.length && (
        <p class="quiet-text" id={`sv-${step.key}-no-branch`}>
          A branch follows a rating, NPS or choice question of the step.
        </p>
      )}
    </fieldset>
  );
}

function BranchFields(props: {
  b: EditBranch;
  k: number;
  n: number;
  at: string;
  questions: EditQuestion[];
  steps: EditStep[];
  self: string;
  problem: Problem | undefined;
  onChange(patch: Partial<EditBranch>): void;
  onRemove(): void;
}) {
  const { b, k, n, at, questions, problem, onChange } = props;
  const id = (f: string) => `sv-${b.key}-${f}`;
  const q = questions.find((x) => x.id === b.question);
  const scale = q && scaleOf(q);
  const points = scale ? Array.from({ length: scale.max - scale.min + 1 }, (_, i) => scale.min + i) : [];
  const name = `branch ${k + 1} after step ${n + 1}`;
  return (
    <fieldset class="survey-branch">
      <legend>Branch {k + 1}</legend>
      <Said problem={problem} field={at} />
      <div class="screen-row">
        <span class="survey-field">
          <label for={id('question')}>When the answer to</label>
          <select
            {...invalid(problem, `${at}.question`, id('question'))}
            value={b.question}
            onChange={(e) => {
              const next = questions.find((x) => x.id === e.currentTarget.value);
              if (next) onChange({ ...newBranch(next, b.to), key: b.key, rest: b.rest });
            }}
          >
            {questions.map((x) => (
              <option key={x.key} value={x.id}>
                {x.title || x.id}
              </option>
            ))}
            {!q && <option value={b.question}>{b.question} (no such question in the step)</option>}
          </select>
          <FieldSaid problem={problem} field={`${at}.question`} id={id('question')} />
        </span>
        {b.by === 'range' ? (
          <span class="survey-field survey-range" role="group" aria-labelledby={id('range-label')}>
            <span id={id('range-label')}>is from … to … (both included)</span>
            <span class="screen-row">
              {(['min', 'max'] as const).map((end) => (
                <select
                  key={end}
                  {...invalid(problem, `${at}.range`, id(end))}
                  aria-label={end === 'min' ? `From (${name})` : `To (${name})`}
                  value={b[end]}
                  onChange={(e) => onChange({ [end]: Number(e.currentTarget.value) })}
                >
                  {points.map((p) => (
                    <option key={p} value={p}>
                      {p}
                    </option>
                  ))}
                  {!points.includes(b[end]) && <option value={b[end]}>{b[end]} (off the scale)</option>}
                </select>
              ))}
            </span>
            <FieldSaid problem={problem} field={`${at}.range`} id={id('min')} />
          </span>
        ) : (
          <fieldset class="survey-values">
            <legend>is any of</legend>
            {(q?.options ?? []).map((o) => (
              <label key={o.key} class="check">
                <input
                  type="checkbox"
                  checked={b.values.includes(o.id)}
                  onChange={(e) => onChange({ values: e.currentTarget.checked ? [...b.values, o.id] : b.values.filter((v) => v !== o.id) })}
                />
                {o.label || o.id}
              </label>
            ))}
            <FieldSaid problem={problem} field={`${at}.values`} id={id('values')} />
          </fieldset>
        )}
        <Target
          id={id('to')}
          label="go to"
          value={b.to}
          steps={props.steps}
          self={props.self}
          problem={problem}
          field={`${at}.to`}
          onChange={(to) => onChange({ to })}
        />
      </div>
      <span class="row-buttons">
        <button type="button" class="quiet small" aria-label={`Remove ${name}`} onClick={props.onRemove}>
          Remove
        </button>
      </span>
    </fieldset>
  );
}

/** A step chosen as a way on (never the step itself); `fallback` offers the default (''). */
export function Target(props: {
  id: string;
  label: string;
  value: string;
  steps: EditStep[];
  self: string;
  fallback?: string;
  problem: Problem | undefined;
  field: string;
  onChange(v: string): void;
}) {
  const { steps } = props;
  const known = props.value === '' ? props.fallback !== undefined : steps.some((s) => s.id === props.value);
  return (
    <span class="survey-field">
      <label for={props.id}>{props.label}</label>
      <select
        {...invalid(props.problem, props.field, props.id)}
        value={props.value}
        onChange={(e) => props.onChange(e.currentTarget.value)}
      >
        {props.fallback !== undefined && <option value="">{props.fallback}</option>}
        {steps
          .filter((s) => s.id && s.id !== props.self)
          .map((s) => (
            <option key={s.key} value={s.id}>
              {stepName(steps, s.id)}
            </option>
          ))}
        {!known && <option value={props.value}>{props.value ? `${props.value} (no such step)` : 'Choose a step'}</option>}
      </select>
      <FieldSaid problem={props.problem} field={props.field} id={props.id} />
    </span>
  );
}
