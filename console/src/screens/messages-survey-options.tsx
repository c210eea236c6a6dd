import { newKey } from './help-content';
import { otherOption, type EditOption, type EditQuestion } from './messages-survey-content';
import { freeId, relabel } from './messages-survey-edits';
import { Said, TextField, type Problem } from './messages-survey-fields';

// A choice question's options in the survey editor: each one's words and id, added and removed,
// and "Other" (always last), which takes the person's own words.

const MAX_OPTIONS: Record<string, number> = { single: 20, multiple: 20, dropdown: 100 };

export /** A choice's options: each one's words and id (made from the words until changed), and "Other", which takes the person's own words. */
function Options(props: { q: EditQuestion; where: string; at: string; problem: Problem | undefined; onChange(o: EditOption[]): void }) {
  const { q, where, at, problem, onChange } = props;
  const options = q.options;
  const other = options.find((o) => o.id === otherOption);
  const set = (key: string, patch: Partial<EditOption>) => onChange(options.map((o) => (o.key === key ? { ...o, ...patch } : o)));
  const add = () => {
    const fresh: EditOption = {
      key: newKey(),
      id: freeId(
        'option-',
        options.map((o) => o.id),
      ),
      label: '',
      fresh: true,
      rest: {},
    };
    // "Other" stays last.
    onChange(other ? [...options.filter((o) => o !== other), fresh, other] : [...options, fresh]);
    setTimeout(() => document.getElementById(`sv-${fresh.key}-label`)?.focus());
  };
  return (
    <fieldset class="survey-options">
      <legend>Options of {where}</legend>
      <ol class="choice-options">
        {options.map((o, k) => {
          const of = `${at}.options.${k}`;
          const oid = (f: string) => `sv-${o.key}-${f}`;
          const isOther = o.id === otherOption;
          return (
            <li key={o.key}>
              <TextField
                id={oid('label')}
                label={isOther ? 'Words of "Other"' : `Option ${k + 1}`}
                value={o.label}
                max={200}
                problem={problem}
                field={`${of}.label`}
                onInput={(label) => onChange(relabel(options, o.key, label))}
              />
              {!isOther && (
                <TextField
                  id={oid('id')}
                  label={`Id of option ${k + 1}`}
                  value={o.id}
                  max={64}
                  problem={problem}
                  field={`${of}.id`}
                  onInput={(v) => set(o.key, { id: v.trim(), fresh: false })}
                />
              )}
              <Said problem={problem} field={of} />
              {!isOther && (
                <button
                  type="button"
                  class="quiet small"
                  aria-label={`Remove option ${k + 1} of ${where}`}
                  disabled={options.filter((x) => x.id !== otherOption).length <= (other ? 1 : 2)}
                  onClick={() => {
                    onChange(options.filter((x) => x.key !== o.key));
                    setTimeout(() => document.getElementById(`sv-${q.key}-add-option`)?.focus());
                  }}
                >
                  Remove
                </button>
              )}
            </li>
          );
        })}
      </ol>
      <Said problem={problem} field={`${at}.options`} />
      <span class="row-buttons">
        <button
          type="button"
          class="quiet small"
          id={`sv-${q.key}-add-option`}
          disabled={options.length >= (MAX_OPTIONS[q.type] ?? 20)}
          onClick={add}
        >
          Add an option to {where}
        </button>
      </span>
      <label class="check">
        <input
          type="checkbox"
          checked={!!other}
          onChange={(e) =>
            onChange(
              e.currentTarget.checked
                ? [...options, { key: newKey(), id: otherOption, label: 'Other', rest: {} }]
                : options.filter((o) => o.id !== otherOption),
            )
          }
        />
        Offer "Other": the person writes their own words
      </label>
    </fieldset>
  );
}
