import { useEffect, useRef, useState } from 'preact/hooks';
import type { InAppMessagePageFragment } from '../generated/graphql';
import { AudienceRules } from './audience-rules';
import { AudienceReach } from './messages-reach';
import { useMessageChange } from './messages-change';
import { audienceOf, modelOf, type Model } from './messages-content';
import { FieldError, FormProblem, invalid } from './settings-common';

// A message's audience, edited as conditions (audience-rules.tsx: on the person's attributes, own
// fields and answers to a survey, all or any of them; a rule the rows cannot hold kept as written),
// the people it reaches counted as the conditions change (AudienceReach). A message may be for
// workflows only: then only the people a workflow's send step sends it to see it.

export function AudienceEditor(props: { m: InAppMessagePageFragment; onSaved(m: InAppMessagePageFragment): void; onCancel(): void }) {
  const [model, setModel] = useState<Model>(() => modelOf(props.m.audience));
  const [workflowOnly, setWorkflowOnly] = useState(props.m.workflowOnly);
  const { problem, busy, change } = useMessageChange(props.m.id, props.onSaved);
  const first = useRef<HTMLSelectElement>(null);
  useEffect(() => first.current?.focus(), []);
  const audience = audienceOf(model);

  return (
    <form
      class="message-audience-form"
      aria-label="Change the audience"
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        await change(() => ({ audience, workflowOnly }));
      }}
    >
      <FormProblem problem={problem} fields={['audience']} />
      <label class="check">
        <input type="checkbox" checked={workflowOnly} onChange={(e) => setWorkflowOnly(e.currentTarget.checked)} />
        Only people a workflow sends it to
      </label>
      <AudienceRules
        appModeId={props.m.appModeId}
        model={model}
        onChange={setModel}
        problem={problem}
        at="audience"
        groupLabel="Who sees it"
        first={first}
      />
      <AudienceReach appModeId={props.m.appModeId} audience={audience} />
      <div class="actions">
        <button type="submit" disabled={busy}>
          Save the audience
        </button>
        <button type="button" class="quiet" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

// When a message is answered: its schedule (start and stop, in the console's time zone, sent as
// times) and its sending window (days of the week and hours, in the person's own time zone);
// empty fields clear them. Refusals are shown beside the field they name (`stopAt`, `sendingWindow.to`).

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const pad = (n: number) => String(n).padStart(2, '0');
/** An ISO time as a datetime-local field's value, in this browser's zone. */
const localField = (iso: string | null | undefined) => {
  if (!iso) return '';
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

export function ScheduleEditor(props: { m: InAppMessagePageFragment; onSaved(m: InAppMessagePageFragment): void; onCancel(): void }) {
  const w = props.m.sendingWindow;
  const [startAt, setStartAt] = useState(localField(props.m.startAt));
  const [stopAt, setStopAt] = useState(localField(props.m.stopAt));
  const [windowOn, setWindowOn] = useState(!!w);
  const [days, setDays] = useState<number[]>(w?.days ?? [1, 2, 3, 4, 5]);
  const [from, setFrom] = useState(w?.from ?? '09:00');
  const [to, setTo] = useState(w?.to ?? '18:00');
  const { problem, busy, change } = useMessageChange(props.m.id, props.onSaved);
  const first = useRef<HTMLInputElement>(null);
  useEffect(() => first.current?.focus(), []);
  return (
    <form
      class="message-when-form"
      aria-label="Change when it is shown"
      noValidate
      onSubmit={async (e) => {
        e.preventDefault();
        await change(() => ({
          startAt: startAt ? new Date(startAt).toISOString() : null,
          stopAt: stopAt ? new Date(stopAt).toISOString() : null,
          sendingWindow: windowOn ? { days, from, to } : null,
        }));
      }}
    >
      <FormProblem problem={problem} fields={['startAt', 'stopAt', 'sendingWindow']} />
      <span>
        <label for="when-start">Starts (empty: once live)</label>
        <input
          ref={first}
          type="datetime-local"
          {...invalid(problem, 'startAt', 'when-start')}
          value={startAt}
          onInput={(e) => setStartAt(e.currentTarget.value)}
        />
        <FieldError problem={problem} field="startAt" id="when-start" />
      </span>
      <span>
        <label for="when-stop">Stops (empty: until ended)</label>
        <input
          type="datetime-local"
          {...invalid(problem, 'stopAt', 'when-stop')}
          value={stopAt}
          onInput={(e) => setStopAt(e.currentTarget.value)}
        />
        <FieldError problem={problem} field="stopAt" id="when-stop" />
      </span>
      <label class="check">
        <input type="checkbox" checked={windowOn} onChange={(e) => setWindowOn(e.currentTarget.checked)} />
        Only on some days and hours, in the person's own time zone
      </label>
      {windowOn && (
        <fieldset class="when-window">
          <legend>Sending window</legend>
          <span class="when-days" role="group" aria-label="Days">
            {DAYS.map((d, i) => (
              <label key={d} class="check">
                <input
                  type="checkbox"
                  checked={days.includes(i)}
                  onChange={(e) => setDays(e.currentTarget.checked ? [...days, i].sort() : days.filter((x) => x !== i))}
                />
                {d}
              </label>
            ))}
          </span>
          <FieldError problem={problem} field="sendingWindow.days" id="when-days" />
          <span>
            <label for="when-from">From</label>
            <input
              type="time"
              {...invalid(problem, 'sendingWindow.from', 'when-from')}
              value={from}
              onInput={(e) => setFrom(e.currentTarget.value)}
            />
            <FieldError problem={problem} field="sendingWindow.from" id="when-from" />
          </span>
          <span>
            <label for="when-to">Until</label>
            <input
              {...invalid(problem, 'sendingWindow.to', 'when-to')}
              value={to}
              placeholder="HH:MM (24:00 for midnight)"
              onInput={(e) => setTo(e.currentTarget.value)}
            />
            <FieldError problem={problem} field="sendingWindow.to" id="when-to" />
          </span>
        </fieldset>
      )}
      <div class="actions">
        <button type="submit" disabled={busy}>
          Save when
        </button>
        <button type="button" class="quiet" onClick={props.onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
