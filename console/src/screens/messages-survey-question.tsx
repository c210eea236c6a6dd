import {
  ATTRIBUTE_WORDS,
  DISPLAYS,
  QUESTION_TYPES,
  TYPE_NAMES,
  isChoice,
  type EditQuestion,
  type QuestionType,
} from './messages-survey-content';
import { fitScale, ratingMaxes, retype } from './messages-survey-edits';
import { FieldSaid, Said, TextField, invalid, type Problem } from './messages-survey-fields';
import { Options } from './messages-survey-options';

// One question of a survey step: its type, id, title, description, whether it is required, its
// type's own fields (a rating's display and scale, the labels of a scale's ends, a choice's options
// with "Other": messages-survey-options.tsx, a text's placeholder) and the attribute its answer is
// written to.

export function QuestionFields(props: {
  q: EditQuestion;
  /** Its place in the step and the step's (from 0). */
  j: number;
  n: number;
  /** Its refusal path: content.steps.<n>.questions.<j>. */
  at: string;
  problem: Problem | undefined;
  canRemove: boolean;
  onChange(patch: Partial<EditQuestion>): void;
  onRemove(): void;
}) {
  const { q, j, n, at, problem, onChange } = props;
  const id = (f: string) => `sv-${q.key}-${f}`;
  const where = `question ${j + 1} of step ${n + 1}`;
  const writes = ATTRIBUTE_WORDS[q.type];
  return (
    <fieldset class="survey-question">
      <legend>
        Question {j + 1} ({q.id || 'no id'})
      </legend>
      <Said problem={problem} field={at} />
      <div class="screen-row">
        <span class="survey-field">
          <label for={id('type')}>Type</label>
          <select
            {...invalid(problem, `${at}.type`, id('type'))}
            value={q.type}
            onChange={(e) => onChange(retype(q, e.currentTarget.value as QuestionType))}
          >
            {QUESTION_TYPES.map((t) => (
              <option key={t} value={t}>
                {TYPE_NAMES[t]}
              </option>
            ))}
          </select>
          <FieldSaid problem={problem} field={`${at}.type`} id={id('type')} />
        </span>
        <TextField
          id={id('id')}
          label="Id (its answers are kept under it)"
          value={q.id}
          max={64}
          problem={problem}
          field={`${at}.id`}
          onInput={(v) => onChange({ id: v.trim() })}
        />
      </div>
      <TextField
        id={id('title')}
        label="Question"
        value={q.title}
        max={500}
        problem={problem}
        field={`${at}.title`}
        onInput={(title) => onChange({ title })}
      />
      <TextField
        id={id('description')}
        label="Words under it (optional)"
        value={q.description}
        max={1000}
        problem={problem}
        field={`${at}.description`}
        onInput={(description) => onChange({ description })}
      />
      <label class="check">
        <input type="checkbox" checked={q.required} onChange={(e) => onChange({ required: e.currentTarget.checked })} />
        Required: answered before the person goes on
      </label>
      {q.type === 'rating' && <Rating {...props} id={id} />}
      {(q.type === 'rating' || q.type === 'nps') && (
        <div class="screen-row">
          <TextField
            id={id('low')}
            label="Words at the low end (optional)"
            value={q.lowLabel}
            max={100}
            problem={problem}
            field={`${at}.lowLabel`}
            onInput={(lowLabel) => onChange({ lowLabel })}
          />
          <TextField
            id={id('high')}
            label="Words at the high end (optional)"
            value={q.highLabel}
            max={100}
            problem={problem}
            field={`${at}.highLabel`}
            onInput={(highLabel) => onChange({ highLabel })}
          />
        </div>
      )}
      {isChoice(q) && <Options q={q} where={where} at={at} problem={problem} onChange={(options) => onChange({ options })} />}
      {(q.type === 'short_text' || q.type === 'long_text') && (
        <TextField
          id={id('placeholder')}
          label="Placeholder (optional)"
          value={q.placeholder}
          max={200}
          problem={problem}
          field={`${at}.placeholder`}
          onInput={(placeholder) => onChange({ placeholder })}
        />
      )}
      {writes ? (
        <TextField
          id={id('attribute')}
          label={`Write the answer to the person's attribute (optional; written as ${writes})`}
          value={q.attribute}
          max={100}
          problem={problem}
          field={`${at}.attribute`}
          onInput={(attribute) => onChange({ attribute })}
        />
      ) : (
        <p class="quiet-text">A long answer is not written to an attribute.</p>
      )}
      <span class="row-buttons">
        <button type="button" class="quiet small" aria-label={`Remove ${where}`} disabled={!props.canRemove} onClick={props.onRemove}>
          Remove
        </button>
      </span>
    </fieldset>
  );
}

/** A rating's display and scale: the highest point offered fits the display (five points at most for stars and emoji). */
function Rating(props: {
  q: EditQuestion;
  at: string;
  problem: Problem | undefined;
  onChange(patch: Partial<EditQuestion>): void;
  id(f: string): string;
}) {
  const { q, at, problem, onChange, id } = props;
  return (
    <div class="screen-row">
      <span class="survey-field">
        <label for={id('display')}>Shown as</label>
        <select
          {...invalid(problem, `${at}.display`, id('display'))}
          value={q.display}
          onChange={(e) => onChange(fitScale({ ...q, display: e.currentTarget.value }))}
        >
          {DISPLAYS.map((d) => (
            <option key={d} value={d}>
              {d[0]!.toUpperCase() + d.slice(1)}
            </option>
          ))}
        </select>
        <FieldSaid problem={problem} field={`${at}.display`} id={id('display')} />
      </span>
      <span class="survey-field">
        <label for={id('min')}>From</label>
        <select
          {...invalid(problem, `${at}.min`, id('min'))}
          value={q.min}
          onChange={(e) => onChange(fitScale({ ...q, min: Number(e.currentTarget.value) }))}
        >
          <option value="0">0</option>
          <option value="1">1</option>
        </select>
        <FieldSaid problem={problem} field={`${at}.min`} id={id('min')} />
      </span>
      <span class="survey-field">
        <label for={id('max')}>To</label>
        <select
          {...invalid(problem, `${at}.max`, id('max'))}
          value={q.max}
          onChange={(e) => onChange({ max: Number(e.currentTarget.value) })}
        >
          {ratingMaxes(q.display, q.min).map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
        <FieldSaid problem={problem} field={`${at}.max`} id={id('max')} />
      </span>
    </div>
  );
}
