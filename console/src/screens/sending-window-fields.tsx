import type { JSX } from 'preact';
import { DAYS, type WindowValue } from './sending-window';
import { invalid, type Problem } from './settings-common';

// A sending window's fields: days of the week and hours, in the person's own time zone, each
// refusal beside the field it names (`sendingWindow.to`). An in-app message's schedule and a
// workflow's send step both take one.

export function WindowFields(props: {
  /** The id of each field (`days`, `from`, `to`). */
  id(member: string): string;
  value: WindowValue;
  /** The window's member as refusals name it (`sendingWindow`, `definition.steps.2.sendingWindow`). */
  field: string;
  problem: Problem | undefined;
  /** How a refusal is said beside its field. */
  Said(p: { problem: Problem | undefined; field: string; id: string }): JSX.Element | null;
  onChange(w: WindowValue): void;
}) {
  const { id, value: w, field, problem, Said } = props;
  return (
    <fieldset class="when-window">
      <legend>Sending window</legend>
      <span class="when-days" role="group" aria-label="Days">
        {DAYS.map((d, i) => (
          <label key={d} class="check">
            <input
              type="checkbox"
              checked={w.days.includes(i)}
              onChange={(e) =>
                props.onChange({ ...w, days: e.currentTarget.checked ? [...w.days, i].sort() : w.days.filter((x) => x !== i) })
              }
            />
            {d}
          </label>
        ))}
      </span>
      <Said problem={problem} field={`${field}.days`} id={id('days')} />
      <span>
        <label for={id('from')}>From</label>
        <input
          type="time"
          {...invalid(problem, `${field}.from`, id('from'))}
          value={w.from}
          onInput={(e) => props.onChange({ ...w, from: e.currentTarget.value })}
        />
        <Said problem={problem} field={`${field}.from`} id={id('from')} />
      </span>
      <span>
        <label for={id('to')}>Until</label>
        <input
          {...invalid(problem, `${field}.to`, id('to'))}
          value={w.to}
          placeholder="HH:MM (24:00 for midnight)"
          onInput={(e) => props.onChange({ ...w, to: e.currentTarget.value })}
        />
        <Said problem={problem} field={`${field}.to`} id={id('to')} />
      </span>
    </fieldset>
  );
}
